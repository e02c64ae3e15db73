import { maxPdfInflatedBytes, maxPdfObjects } from './pdf-complexity-limits.js';
import { PdfTooComplexError } from './pdf-errors.js';

/**
 * What parsing one PDF has spent so far against the limits of pdf-complexity-limits.ts. The first
 * limit passed is kept as the refusal: pdf-lib's parser catches every error thrown while it reads
 * an object (and carries on, keeping the object as unreadable), so the refusal cannot travel up
 * as an exception; the caller asks `refusal` once the parse is over.
 */
export class PdfParseBudget {
  private inflatedBytes = 0;
  private objectsInStreams = 0;
  private crossReferenceEntries = 0;
  refusal: PdfTooComplexError | undefined;

  /** Bytes that may still be decoded. */
  get inflatedBytesLeft(): number {
    return Math.max(0, maxPdfInflatedBytes - this.inflatedBytes);
  }

  /** Throws (and remembers) the refusal once a limit has been passed. */
  check(): void {
    if (this.refusal !== undefined) throw this.refusal;
  }

  /** `bytes` more decoded; `orMore` when decoding stopped at the limit, the stream unfinished. */
  spendInflated(bytes: number, orMore = false): void {
    this.inflatedBytes += bytes;
    if (orMore || this.inflatedBytes > maxPdfInflatedBytes)
      this.refuse(
        `object and cross-reference streams that decode to at most ${count(maxPdfInflatedBytes)} bytes in all`,
        `${orMore ? 'more than ' : ''}${count(this.inflatedBytes)} bytes`,
      );
  }

  /** An object stream's /N. */
  spendObjectsInStream(declared: number): void {
    this.objectsInStreams += positive(declared);
    if (this.objectsInStreams > maxPdfObjects)
      this.refuse(
        `at most ${count(maxPdfObjects)} objects in object streams`,
        `${count(this.objectsInStreams)} declared (/N)`,
      );
  }

  /** A cross-reference stream's entries, as its /Index (or /Size) declares them. */
  spendCrossReferenceEntries(declared: number): void {
    this.crossReferenceEntries += positive(declared);
    if (this.crossReferenceEntries > maxPdfObjects)
      this.refuse(
        `at most ${count(maxPdfObjects)} cross-reference stream entries`,
        `${count(this.crossReferenceEntries)} declared (/Index or /Size)`,
      );
  }

  /** Indirect objects the parse ended with, wherever they were. */
  checkObjectCount(parsed: number): void {
    if (parsed > maxPdfObjects) this.refuse(`at most ${count(maxPdfObjects)} objects`, count(parsed));
    this.check();
  }

  refuse(expected: string, got: string): never {
    this.refusal ??= new PdfTooComplexError(expected, got);
    throw this.refusal;
  }
}

/** A declared count as the parser's loops read it: a negative or NaN one runs no iteration. */
function positive(value: number): number {
  return value > 0 ? value : 0;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
