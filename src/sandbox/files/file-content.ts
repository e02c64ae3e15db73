/**
 * An uploaded file's content as the multipart parser delivered it: its pieces, in order. They are
 * copied into one buffer only where one is needed (a PDF's page count, the in-memory store): a
 * JPEG or PNG is sniffed from its first bytes, hashed piece by piece and written to its blob file
 * with one `writev` (issue 12: the copy of every upload into one buffer was ≈ 7% of the sandbox's
 * time under the evidence benchmark, and its garbage more).
 */
export interface FileContent {
  readonly pieces: readonly Buffer[];
  /** In bytes: the pieces' lengths added up. */
  readonly size: number;
}

export function fileContent(pieces: readonly Buffer[]): FileContent {
  return { pieces, size: pieces.reduce((total, piece) => total + piece.length, 0) };
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
