/** A line of the sampled head: its text without the line break, and its 1-based line in the file. */
export interface FileLine {
  readonly text: string;
  readonly line: number;
}

export interface HeadLines {
  /** The lines with text, in file order. */
  readonly lines: readonly FileLine[];
  /** Blank lines among them: never records (docs/mappings.md, "Fixed-width files and control records"). */
  readonly blankLines: number;
  /** Whether `lines` ends with the file's last line (the head was the whole file). */
  readonly complete: boolean;
}

/**
 * The whole lines of a decoded head, at most `limit` of them: CR, LF and CRLF each end a line. A
 * head that is not the whole file may end in the middle of a line, which is left out.
 */
export function headLines(text: string, complete: boolean, limit: number): HeadLines {
  const lines: FileLine[] = [];
  const lineBreak = /\r\n|\r|\n/g;
  let blankLines = 0;
  let start = 0;
  let line = 1;
  while (start < text.length && lines.length < limit) {
    lineBreak.lastIndex = start;
    const found = lineBreak.exec(text);
    if (found === null && !complete) return { lines, blankLines, complete: false };
    const stop = found === null ? text.length : found.index;
    const content = text.slice(start, stop);
    if (content.trim() === '') blankLines++;
    else lines.push({ text: content, line });
    start = found === null ? text.length : stop + found[0].length;
    line++;
  }
  return { lines, blankLines, complete: complete && start >= text.length };
}
