import { z } from 'zod';
import { csvEncodings, type CsvDialect, type CsvEncoding } from './dialect.js';

/**
 * What an input file's bytes say beyond its mapping's dialect: how its lines end and whether it
 * starts with a byte order mark. The reader finds both, so that a file written for the input (the
 * results CSV) can be read back, and opened in a spreadsheet, like the input.
 */
export type LineEnding = '\r\n' | '\n';

export interface FileLayout {
  readonly lineEnding: LineEnding;
  readonly byteOrderMark: boolean;
}

/** What a CSV this tool writes without an input to follow looks like: LF, no mark. */
export const plainLayout: FileLayout = { lineEnding: '\n', byteOrderMark: false };

/** Everything needed to write a CSV in an input's own dialect. */
export interface WrittenDialect extends FileLayout {
  readonly delimiter: string;
  readonly quote: string;
  readonly encoding: CsvEncoding;
}

/** A written dialect as a journal records it (JSON). */
export const writtenDialectSchema: z.ZodType<WrittenDialect> = z.object({
  delimiter: z.string().length(1),
  quote: z.string().length(1),
  encoding: z.enum(csvEncodings),
  lineEnding: z.enum(['\r\n', '\n']),
  byteOrderMark: z.boolean(),
});

/**
 * The results CSV's dialect from before results followed their input's dialect (and of a journal
 * staged back then): comma, LF, UTF-8.
 */
export const plainDialect: WrittenDialect = { delimiter: ',', quote: '"', encoding: 'utf-8', ...plainLayout };

export function writtenDialectOf(
  dialect: Pick<CsvDialect, 'delimiter' | 'quote' | 'encoding'>,
  layout: FileLayout,
): WrittenDialect {
  return {
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    encoding: dialect.encoding,
    lineEnding: layout.lineEnding,
    byteOrderMark: layout.byteOrderMark,
  };
}

/** A dialect as a short phrase for messages: `";", quote '"', CRLF, utf-8 with BOM`. */
export function describeDialect(dialect: WrittenDialect): string {
  const delimiter = dialect.delimiter === '\t' ? 'tab' : JSON.stringify(dialect.delimiter);
  return (
    `delimiter ${delimiter}, quote ${JSON.stringify(dialect.quote)}, ` +
    `${dialect.lineEnding === '\r\n' ? 'CRLF' : 'LF'}, ` +
    `${dialect.encoding}${dialect.byteOrderMark ? ' with BOM' : ''}`
  );
}

export function sameDialect(left: WrittenDialect, right: WrittenDialect): boolean {
  return (
    left.delimiter === right.delimiter &&
    left.quote === right.quote &&
    left.encoding === right.encoding &&
    left.lineEnding === right.lineEnding &&
    left.byteOrderMark === right.byteOrderMark
  );
}

/**
 * Finds how the first record of a CSV text ends, fed the text chunk by chunk: the first LF
 * outside quotes, and whether a CR comes before it. Line breaks inside a quoted header cell do not
 * count (Excel writes LF inside cells and CRLF between records). A doubled quote toggles twice,
 * so it leaves the state as it was. A file without any line break counts as LF.
 */
export class LineEndingProbe {
  private inQuotes = false;
  private previous = '';
  private found: LineEnding | undefined;

  constructor(private readonly quote: string) {}

  /** The line ending once found, else undefined. */
  get lineEnding(): LineEnding | undefined {
    return this.found;
  }

  scan(text: string): LineEnding | undefined {
    if (this.found !== undefined) return this.found;
    for (const character of text) {
      if (character === this.quote) this.inQuotes = !this.inQuotes;
      else if (character === '\n' && !this.inQuotes) {
        this.found = this.previous === '\r' ? '\r\n' : '\n';
        return this.found;
      }
      this.previous = character;
    }
    return undefined;
  }
}
