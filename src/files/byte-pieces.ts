/**
 * A file's content as the pieces it arrived in (an upload's parser chunks, or one buffer read
 * from disk), read at any offset without joining the pieces: the PDF page count reads a few
 * kilobytes near the end and at the page tree's objects, and joining 4 MB to read them was a
 * copy of every PDF upload.
 */
export class BytePieces {
  readonly size: number;
  /** Where each piece starts in the content, ascending; the same length as `pieces`. */
  private readonly starts: number[];

  constructor(private readonly pieces: readonly Uint8Array[]) {
    this.starts = [];
    let size = 0;
    for (const piece of pieces) {
      this.starts.push(size);
      size += piece.byteLength;
    }
    this.size = size;
  }

  /**
   * Up to `length` bytes from `start` (fewer at the end of the content): a view into the piece
   * that holds them all, or a copy of just those bytes when they span pieces.
   */
  window(start: number, length: number): Buffer {
    const end = Math.min(this.size, start + Math.max(0, length));
    if (start >= end) return Buffer.alloc(0);
    let index = this.pieceAt(start);
    const first = this.pieces[index];
    const firstStart = this.starts[index] ?? 0;
    if (first !== undefined && end <= firstStart + first.byteLength)
      return Buffer.from(first.buffer, first.byteOffset + start - firstStart, end - start);
    const copy = Buffer.allocUnsafe(end - start);
    let filled = 0;
    for (; filled < copy.length && index < this.pieces.length; index++) {
      const piece = this.pieces[index];
      const pieceStart = this.starts[index] ?? 0;
      if (piece === undefined) break;
      const from = Math.max(0, start - pieceStart);
      const to = Math.min(piece.byteLength, end - pieceStart);
      copy.set(piece.subarray(from, to), filled);
      filled += to - from;
    }
    return copy;
  }

  /** The content in one buffer: the only piece itself, or one copy of them all (for pdf-lib). */
  whole(): Uint8Array {
    const [first] = this.pieces;
    if (this.pieces.length === 1 && first !== undefined) return first;
    return this.window(0, this.size);
  }

  /**
   * The index of the last piece starting at or before `offset` (binary search): never an empty
   * one for an offset inside the content, as an empty piece starts where the next one does.
   */
  private pieceAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
