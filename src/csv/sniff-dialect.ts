import { codeOf } from '../errors/coded-error.js';
import { parse } from 'csv-parse/sync';
import type { Confidence } from './confidence.js';

export type LineEnding = 'CRLF' | 'LF' | 'CR';

export interface DialectGuess {
  readonly delimiter: string;
  readonly quote: string;
  /** The reader takes CRLF and LF alike; reported so a person sees what the file uses. */
  readonly lineEnding: LineEnding;
  readonly header: boolean;
  readonly confidence: Confidence;
  readonly evidence: string;
}

/** The delimiters exports use, in the order a tie is settled. */
export const delimiterCandidates = [',', ';', '\t', '|'] as const;
const quoteCandidates = ['"', "'"] as const;
/** Enough records to see a delimiter's consistency; a sniff never reads the whole sample. */
const recordsToSniff = 200;

/**
 * The delimiter, quote, line ending and header line of a decoded export's first part.
 *
 * The delimiter is the candidate that splits the most records into the same number of fields
 * (more than one), counted outside quotes: a `,` inside `"1,5"` or in a decimal comma of a
 * `;` file does not vote. The first record is a header line when its cells are distinct,
 * non-blank, and none reads as data (a number, an amount, a date): a header of digits is rarer
 * than an export without one.
 */
export function sniffDialect(text: string, complete = true): DialectGuess {
  const lineEnding = sniffLineEnding(text);
  const quote = sniffQuote(text);
  const scored = delimiterCandidates.map((delimiter) => ({
    delimiter,
    ...consistency(splitRecords(text, delimiter, quote, recordsToSniff, complete)),
  }));
  const best = scored.reduce((left, right) => (right.score > left.score ? right : left));
  const records = splitRecords(text, best.delimiter, quote, recordsToSniff, complete);
  const header = hasHeader(records);
  if (best.score === 0) {
    return {
      delimiter: ',',
      quote,
      lineEnding,
      header,
      confidence: 'low',
      evidence: 'no candidate delimiter (, ; tab |) splits the lines into several fields: one column?',
    };
  }
  const confidence: Confidence = best.share === 1 ? 'high' : best.share >= 0.9 ? 'medium' : 'low';
  const evidence = `${describeDelimiter(best.delimiter)} splits ${best.agreeing} of ${best.records} records into ${best.fields} fields`;
  return { delimiter: best.delimiter, quote, lineEnding, header, confidence, evidence };
}

export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : JSON.stringify(delimiter);
}

function sniffLineEnding(text: string): LineEnding {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  const cr = text.split('\r').length - 1 - crlf;
  if (crlf >= lf && crlf >= cr && crlf > 0) return 'CRLF';
  return cr > lf ? 'CR' : 'LF';
}

/** `"` unless the text has none and fields start with `'` after a delimiter or line start. */
function sniffQuote(text: string): string {
  const head = text.slice(0, 64 * 1024);
  const opened = quoteCandidates.map((quote) => (head.match(new RegExp(`(^|[,;\\t|\\n])${quote}`, 'g')) ?? []).length);
  return (opened[1] ?? 0) > 0 && (opened[0] ?? 0) === 0 ? "'" : '"';
}

/**
 * The first `limit` records split on `delimiter`, quotes honoured (a doubled quote inside a
 * quoted field is one quote character; a line break inside quotes stays in the field). When the
 * text is not `complete` (the head of a larger file), a last record without its line break may
 * be cut short and is left out.
 */
export function splitRecords(
  text: string,
  delimiter: string,
  quote: string,
  limit: number,
  complete = true,
): string[][] {
  return splitLines(text, delimiter, quote, limit, complete)
    .filter((record) => !record.blank)
    .map((record) => record.cells);
}

/** A record as `splitLines` reads it: its cells, the 1-based line it starts on, and whether it is a blank line. */
export interface SplitRecord {
  readonly cells: string[];
  readonly line: number;
  readonly blank: boolean;
}

/**
 * The first `limit` records, blank lines among them, each with the line it starts on: what finds
 * a report's header and trailer by the table between them. CR, LF and CRLF each end a line.
 */
export function splitLines(
  text: string,
  delimiter: string,
  quote: string,
  limit: number,
  complete = true,
): SplitRecord[] {
  const records: SplitRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let position = 0;
  let line = 1;
  let startLine = 1;
  const push = (cells: string[]) => {
    records.push({ cells, line: startLine, blank: cells.length === 1 && cells[0] === '' });
    startLine = line;
  };
  for (; position < text.length && records.length < limit; position++) {
    const character = text.charAt(position);
    if (quoted) {
      if (character === '\n' || (character === '\r' && text[position + 1] !== '\n')) line++;
      if (character !== quote) {
        field += character;
      } else if (text[position + 1] === quote) {
        field += quote;
        position++;
      } else {
        quoted = false;
      }
    } else if (character === quote && field === '') {
      quoted = true;
    } else if (character === delimiter) {
      fields.push(field);
      field = '';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[position + 1] === '\n') position++;
      line++;
      fields.push(field);
      push(fields);
      fields = [];
      field = '';
    } else {
      field += character;
    }
  }
  if ((field !== '' || fields.length > 0) && position >= text.length && complete) push([...fields, field]);
  return records;
}

interface Consistency {
  /** Records with the most common field count, when that count is above 1; 0 otherwise. */
  score: number;
  agreeing: number;
  records: number;
  fields: number;
  share: number;
}

function consistency(records: string[][]): Consistency {
  const counts = new Map<number, number>();
  for (const record of records) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
  let fields = 1;
  let agreeing = 0;
  for (const [count, times] of counts) {
    if (times > agreeing || (times === agreeing && count > fields)) {
      fields = count;
      agreeing = times;
    }
  }
  if (fields < 2 || records.length === 0) return { score: 0, agreeing, records: records.length, fields, share: 0 };
  const share = agreeing / records.length;
  // Agreement first; among delimiters that agree as well, the one making more fields.
  return { score: share * 1000 + Math.min(fields, 999), agreeing, records: records.length, fields, share };
}

const looksLikeData = /^[-+(]?[\d.,'\s/:€$£¥]+\)?$|^\d{4}-\d{2}-\d{2}/;

function hasHeader(records: string[][]): boolean {
  return looksLikeHeader(records[0] ?? []);
}

/** Distinct, non-blank cells none of which reads as data (a number, an amount, a date). */
export function looksLikeHeader(cells: readonly string[]): boolean {
  const names = cells.map((cell) => cell.trim());
  if (names.some((name) => name === '' || looksLikeData.test(name))) return false;
  return new Set(names).size === names.length;
}

/**
 * The quote a sample reads with when its delimiter is known (a results file's, from its header):
 * `"` unless only `'` reads, every record as wide as the header.
 */
export function quoteThatReads(text: string, delimiter: string, complete: boolean): string {
  return quoteCandidates.find((candidate) => readsWith(text, delimiter, candidate, complete)) ?? '"';
}

/** Whether the sample reads as CSV with this quote, every record as wide as the header. */
function readsWith(text: string, delimiter: string, quote: string, complete: boolean): boolean {
  // An incomplete sample ends mid-record: only its whole lines are read.
  const sample = complete ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  try {
    parse(sample, { delimiter, quote, escape: quote, record_delimiter: ['\r\n', '\n'], relax_column_count: false });
    return true;
  } catch (error) {
    // A sample cut inside a quoted cell that holds a line break.
    return !complete && codeOf(error) === 'CSV_QUOTE_NOT_CLOSED';
  }
}
