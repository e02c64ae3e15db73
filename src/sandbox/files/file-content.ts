import { createHash, type Hash } from 'node:crypto';

/**
 * An uploaded file's content as the multipart parser delivered it: its pieces, in order, and their
 * one SHA-256, computed piece by piece as they arrived (one pass over the bytes, and nothing left
 * to hash once the body has ended). The pieces are never copied into one buffer on the way: a JPEG
 * or PNG is sniffed from its first bytes, a PDF's pages are counted from the few pieces its
 * cross-reference table points at, and the blob store writes the pieces with one `writev` (the copy
 * of every upload into one buffer was ≈ 7% of the sandbox's time under the evidence benchmark, and
 * its garbage more). Only the in-memory store, and pdf-lib for a PDF the quick reading leaves to
 * it, join them.
 */
export interface FileContent {
  readonly pieces: readonly Buffer[];
  /** In bytes: the pieces' lengths added up. */
  readonly size: number;
  /** Lower-case hex SHA-256 of the content: its address in the blob store. */
  readonly sha256: string;
}

/** Gathers a content piece by piece, hashing each as it comes; `finish` once, at its end. */
export class ContentCollector {
  private readonly pieces: Buffer[] = [];
  private readonly hash: Hash = createHash('sha256');
  private size = 0;

  add(piece: Buffer): void {
    this.pieces.push(piece);
    this.hash.update(piece);
    this.size += piece.length;
  }

  finish(): FileContent {
    return { pieces: this.pieces, size: this.size, sha256: this.hash.digest('hex') };
  }
}

/** A content from pieces already in hand (tests, and anything not read from a stream). */
export function fileContent(pieces: readonly Buffer[]): FileContent {
  const collector = new ContentCollector();
  for (const piece of pieces) collector.add(piece);
  return collector.finish();
}

/** The whole content in one buffer: the only piece itself, or one copy of them all. */
export function contentBytes(content: FileContent): Buffer {
  const [first] = content.pieces;
  return content.pieces.length === 1 && first !== undefined ? first : Buffer.concat(content.pieces, content.size);
}

/** The first `length` bytes (fewer in a shorter content), copied only when the first piece is shorter. */
export function contentHead(content: FileContent, length: number): Buffer {
  const [first] = content.pieces;
  if (first !== undefined && first.length >= Math.min(length, content.size)) return first.subarray(0, length);
  const head: Buffer[] = [];
  let taken = 0;
  for (const piece of content.pieces) {
    if (taken >= length) break;
    const part = piece.subarray(0, length - taken);
    head.push(part);
    taken += part.length;
  }
  return Buffer.concat(head, taken);
}
