import type { DialectGuess } from '../../../csv/sniff-dialect.js';
import type { Confidence, Sample } from '../types.js';
import { fieldRuns, type FieldKind } from './field-runs.js';
import { headLines, type FileLine } from './read-lines.js';
import { findRecordCount, type RecordCountGuess } from './record-count.js';
import { recogniseRecordTypes, type RecordsGuess, type RecordTypeGuess } from './record-types.js';

/**
 * Whether a sampled head is a fixed-width record file rather than a CSV, and what of its layout
 * shows (docs/mappings.md, "mapping guess and fixed-width files"). Conservative: a head the CSV
 * sniffer is sure of is a CSV; a fixed-width file is records of a few types, each type one length,
 * long lines no delimiter splits the way a CSV's split.
 */
export interface FixedWidthField {
  /** A neutral name with the positions in it (`field_6_15`): the published layout gives the real one. */
  readonly name: string;
  readonly first: number;
  readonly last: number;
  readonly kind: FieldKind;
  /** The first record's value, trimmed, for the draft's comment. */
  readonly example: string;
}

export interface FixedWidthGuess {
  readonly records: RecordsGuess;
  readonly detail: RecordTypeGuess;
  readonly header: RecordTypeGuess | undefined;
  readonly trailer: RecordTypeGuess | undefined;
  readonly detailFields: readonly FixedWidthField[];
  readonly headerFields: readonly FixedWidthField[];
  /** Digits of the trailer that count the block's records, when some do. */
  readonly recordCount: RecordCountGuess | undefined;
  /** The detail records as rows, sliced by `detailFields` and trimmed as the reader trims them. */
  readonly sample: Sample;
  /** The file line of the first detail record. */
  readonly firstLine: number;
  readonly linesRead: number;
  readonly blankLines: number;
  readonly confidence: Confidence;
}

/** Lines looked at: the head is bounded in bytes already; this bounds a head of very short lines. */
const linesToRead = 50_000;

export function recogniseFixedWidth(input: {
  readonly head: string;
  readonly complete: boolean;
  readonly dialect: DialectGuess;
  /** Detail records at most taken as rows (`--rows`). */
  readonly maxRows: number;
}): FixedWidthGuess | undefined {
  if (input.dialect.confidence === 'high') return undefined;
  const head = headLines(input.head, input.complete, linesToRead);
  const records = recogniseRecordTypes(head);
  if (records === undefined) return undefined;
  const ofRole = (role: RecordTypeGuess['role']) => records.types.find((type) => type.role === role);
  const detail = ofRole('detail');
  if (detail === undefined) return undefined;
  const [typeFirst, typeLast] = records.recordType;
  const codeOf = (line: FileLine) => line.text.slice(typeFirst, typeLast + 1);
  const linesOf = (type: RecordTypeGuess | undefined) =>
    type === undefined ? [] : head.lines.filter((line) => codeOf(line) === type.code);
  const detailLines = linesOf(detail).slice(0, input.maxRows);
  const header = ofRole('header');
  const trailer = ofRole('trailer');
  const detailFields = namedFields('field', detailLines, detail.length, records.recordType);
  const headerLines = linesOf(header);
  const headerFields =
    header === undefined ? [] : namedFields('header', headerLines, header.length, records.recordType);
  const recordCount =
    trailer === undefined ? undefined : findRecordCount(records.blocks, (line) => codeOf(line) === trailer.code);
  const sample: Sample = {
    columns: detailFields.map((field) => field.name),
    rows: detailLines.map((line) =>
      Object.fromEntries(
        detailFields.map((field) => [field.name, line.text.slice(field.first, field.last + 1).trim()]),
      ),
    ),
  };
  return {
    records,
    detail,
    header,
    trailer,
    detailFields,
    headerFields,
    recordCount,
    sample,
    firstLine: detailLines[0]?.line ?? 1,
    linesRead: head.lines.length + head.blankLines,
    blankLines: head.blankLines,
    // One type alone, no header or trailer around it, is a layout less sure than blocks are.
    confidence: records.types.length > 1 && records.blocks.some((block) => block.complete) ? 'high' : 'medium',
  };
}

function namedFields(
  prefix: string,
  lines: readonly FileLine[],
  length: number,
  recordType: readonly [number, number],
): FixedWidthField[] {
  const texts = lines.map((line) => line.text);
  return fieldRuns(texts, length, recordType).map((run) => ({
    ...run,
    name: `${prefix}_${run.first}_${run.last}`,
    example: (texts[0] ?? '').slice(run.first, run.last + 1).trim(),
  }));
}

/**
 * The dialect a fixed-width file's draft names: the csv section then says how the results file is
 * written and read back, the tool's own CSV.
 */
export function fixedWidthDialect(sniffed: DialectGuess): DialectGuess {
  return {
    delimiter: ',',
    quote: '"',
    lineEnding: sniffed.lineEnding,
    header: true,
    confidence: 'high',
    evidence: "a fixed-width file: the csv section is the results file's",
  };
}
