import { constants, inflateRawSync } from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFObjectStreamParser,
  PDFRawStream,
  PDFXRefStreamParser,
  type PDFObject,
} from 'pdf-lib';
import { maxPdfFilters } from './pdf-complexity-limits.js';
import type { PdfParseBudget } from './pdf-parse-budget.js';

/**
 * The only streams pdf-lib decodes while it parses a file are object streams (/Type /ObjStm) and
 * cross-reference streams (/Type /XRef): each reaches its parser through that parser's static
 * `forStream`, which decodes the whole stream in memory, however large it inflates (pdf-lib's
 * FlateStream cannot be stopped part-way: one deflate block may inflate to gigabytes). Here
 * `forStream` is wrapped so that the stream is decoded first within the budget of the file being
 * parsed, and pdf-lib is handed the decoded bytes (no filter left to apply); its declared counts
 * (/N, /Index) are spent before its parser loops over them. Catching the decode at this point,
 * rather than pre-scanning the file for such streams, means that what is bounded is exactly what
 * pdf-lib decodes, whatever tricks the file plays (a /Type or /Filter given by reference, junk
 * between objects): a scan of our own could be made to see other streams than pdf-lib's parse.
 *
 * pdf-lib parses the streams in its own thread of a worker (pdf-page-worker.ts): this module is
 * loaded there only, so no other pdf-lib use in the process sees the wrapping. Object streams
 * cannot nest: pdf-lib decodes an object stream only when it is an indirect object of the file,
 * never one found inside another object stream (ISO 32000-1 §7.5.7 forbids streams there).
 */

let current: PdfParseBudget | undefined;

/** Runs `parse` with `budget` as the one every object or cross-reference stream is decoded within. */
export async function withinBudget<T>(budget: PdfParseBudget, parse: () => Promise<T>): Promise<T> {
  current = budget;
  try {
    return await parse();
  } finally {
    current = undefined;
  }
}

const readObjectStream = PDFObjectStreamParser.forStream;
PDFObjectStreamParser.forStream = (rawStream, shouldWaitForTick) => {
  const budget = budgetInForce();
  budget.spendObjectsInStream(numberOf(rawStream.dict.lookup(PDFName.of('N'))));
  return readObjectStream(decodedWithin(budget, rawStream), shouldWaitForTick);
};

const readCrossReferenceStream = PDFXRefStreamParser.forStream;
PDFXRefStreamParser.forStream = (rawStream) => {
  const budget = budgetInForce();
  budget.spendCrossReferenceEntries(declaredEntries(rawStream.dict));
  return readCrossReferenceStream(decodedWithin(budget, rawStream));
};

function budgetInForce(): PdfParseBudget {
  // A parse outside withinBudget is a bug of ours, not the file's: refuse to decode unbounded.
  if (current === undefined) throw new Error('pdf: a stream decoded outside a parse budget');
  current.check();
  return current;
}

/** pdf-lib's parser loops over each /Index pair's count (or /Size without /Index), data or not. */
function declaredEntries(dict: PDFDict): number {
  const index = dict.lookup(PDFName.of('Index'));
  if (!(index instanceof PDFArray)) return numberOf(dict.lookup(PDFName.of('Size')));
  let entries = 0;
  for (let position = 1; position < index.size(); position += 2) {
    const length = numberOf(index.lookup(position));
    if (length > 0) entries += length;
  }
  return entries;
}

function numberOf(value: PDFObject | undefined): number {
  return value instanceof PDFNumber ? value.asNumber() : 0;
}

/** The stream decoded within the budget, as a stream without filters for pdf-lib's parser. */
function decodedWithin(budget: PdfParseBudget, rawStream: PDFRawStream): PDFRawStream {
  const { dict } = rawStream;
  const filter = dict.lookup(PDFName.of('Filter'));
  // pdf-lib's own decoding throws on anything else too: the object is then kept as unreadable.
  if (filter !== undefined && !(filter instanceof PDFName) && !(filter instanceof PDFArray))
    throw new Error(`pdf: expected /Filter as a name or an array, got a ${filter.constructor.name}`);
  const parameters = dict.lookup(PDFName.of('DecodeParms'));
  const stages: Stage[] =
    filter === undefined
      ? []
      : filter instanceof PDFName
        ? [{ filter, parameters }]
        : Array.from({ length: filter.size() }, (_, position) => ({
            filter: filter.lookup(position, PDFName),
            parameters: parameters instanceof PDFArray ? parameters.lookup(position) : undefined,
          }));
  if (stages.length > maxPdfFilters)
    budget.refuse(`streams of at most ${maxPdfFilters} filters`, `a stream of ${stages.length}`);
  let bytes = rawStream.contents;
  for (const stage of stages) bytes = decodeStage(budget, bytes, stage, dict.context);
  const decoded = dict.clone();
  decoded.delete(PDFName.of('Filter'));
  decoded.delete(PDFName.of('DecodeParms'));
  return PDFRawStream.of(decoded, bytes);
}

interface Stage {
  filter: PDFName;
  /** The stage's /DecodeParms: pdf-lib reads /EarlyChange of LZW's, nothing else. */
  parameters: PDFObject | undefined;
}

const flateDecode = PDFName.of('FlateDecode');
/** What one read of a decoder asks for; a decoder may overshoot it by one of its blocks (≤ 2 MB for LZW). */
const readBytes = 64 * 1024;

function decodeStage(
  budget: PdfParseBudget,
  bytes: Uint8Array,
  { filter, parameters }: Stage,
  context: PDFDict['context'],
): Uint8Array {
  if (filter === flateDecode) return inflateWithin(budget, bytes);
  // LZW, ASCII85, ASCIIHex, RunLength: pdf-lib's own decoders, read a piece at a time (each decodes
  // in small blocks, so reading stops near the limit). An unknown filter throws pdf-lib's error.
  const single = PDFDict.withContext(context);
  single.set(PDFName.of('Filter'), filter);
  if (parameters instanceof PDFDict || parameters === PDFNull) single.set(PDFName.of('DecodeParms'), parameters);
  const stream = decodePDFRawStream(PDFRawStream.of(single, bytes));
  const pieces: Uint8Array[] = [];
  for (;;) {
    const piece = stream.getBytes(readBytes);
    if (piece.length === 0) break;
    budget.spendInflated(piece.length);
    // A copy: the decoder's buffer is reallocated as it grows.
    pieces.push(Uint8Array.from(piece));
  }
  return Buffer.concat(pieces);
}

/**
 * FlateDecode with node's zlib, stopped at the bytes the budget has left. As pdf-lib's FlateStream
 * does, the zlib header is checked, the trailing checksum is not, and a stream cut short gives what
 * it decoded (raw inflate after the 2-byte header, flushed at the end of the input).
 */
function inflateWithin(budget: PdfParseBudget, bytes: Uint8Array): Uint8Array {
  const [method = -1, flags = -1] = bytes;
  if ((method & 0x0f) !== 0x08 || ((method << 8) + flags) % 31 !== 0 || (flags & 0x20) !== 0)
    throw new Error(`Invalid header in flate stream: ${method}, ${flags}`);
  const left = budget.inflatedBytesLeft;
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(bytes.subarray(2), {
      maxOutputLength: left + 1,
      finishFlush: constants.Z_SYNC_FLUSH,
    });
  } catch (error) {
    if (isCode(error, 'ERR_BUFFER_TOO_LARGE')) budget.spendInflated(left, true);
    throw error;
  }
  budget.spendInflated(inflated.length);
  return inflated;
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
