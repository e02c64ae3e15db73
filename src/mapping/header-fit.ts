import { maskCardNumbers } from '../card-numbers/mask.js';
import { describeDelimiter } from '../csv/sniff-dialect.js';
import { RefusalError } from '../errors/coded-error.js';
import { placeholderColumn } from './guess/field-draft.js';
import { nearestColumn } from './nearest-column.js';
import type { Mapping } from './schema.js';
import { columnsRead } from './columns-read.js';

/**
 * Whether an input's header has every column its mapping reads, checked once, before a row is
 * staged (docs/mappings.md, "When the header does not fit"). A renamed column would otherwise fail
 * every row alike, and a file in another delimiter or another export altogether would be read row
 * by row as if its rows were wrong, not its header.
 */

/** The header is not the one the mapping was made for: nothing was staged or sent (exit 2). */
export class HeaderMismatchError extends RefusalError {
  readonly code = 'HEADER_MISMATCH';
  /**
   * The message may quote the file's header: a card number in it is masked. `reason`: another
   * delimiter splits the header into the mapping's columns, it has none of them, or it lacks some.
   */
  constructor(
    message: string,
    readonly reason: 'delimiter' | 'none' | 'missing',
  ) {
    super(maskCardNumbers(message));
    this.name = 'HeaderMismatchError';
  }
}

/** The input whose header is checked, as its messages name it. */
export interface HeaderSource {
  /** The file as the user named it. */
  readonly file: string;
  /** The mapping file as the user named it. */
  readonly mappingFile: string;
  /** Our results file fed back in (its status columns left out of `columns`), or an issuer's export. */
  readonly kind: 'export' | 'results file';
  /** A CSV's first record split on each other common delimiter, for the hint that the file is in another one. */
  readonly splitOtherwise?: ReadonlyMap<string, readonly string[]> | undefined;
  /** A workbook's sheet as the messages name it: `on sheet "Disputes"`, `on its first sheet (…)`. */
  readonly sheet?: string | undefined;
}

/** A header that fits: what the check found beside the columns the mapping reads. */
export interface HeaderFit {
  /** How many columns the mapping reads. */
  readonly mapped: number;
  /** `optional_columns` the header lacks: read as blank cells. */
  readonly absentOptional: readonly string[];
  /** The header's columns the mapping does not name: carried through to the results unchanged. */
  readonly unnamed: readonly string[];
}

/**
 * The header's fit to the mapping, or a HeaderMismatchError saying why not: a delimiter other than
 * the mapping's, another file altogether, or one line per missing column with its nearest header.
 */
export function checkHeaderFits(mapping: Mapping, columns: readonly string[], source: HeaderSource): HeaderFit {
  const mapped = columnsRead(mapping);
  const present = new Set(columns);
  const optional = new Set(mapping.optional_columns ?? []);
  const named = new Set([...mapped.keys(), ...optional, ...(mapping.not_card_numbers ?? [])]);
  const missing = [...mapped.keys()].filter((column) => !present.has(column) && !optional.has(column));
  const unnamed = columns.filter((column) => !named.has(column));
  if (missing.length === 0)
    return { mapped: mapped.size, absentOptional: [...optional].filter((column) => !present.has(column)), unnamed };
  const found = [...mapped.keys()].filter((column) => present.has(column)).length;
  const delimiter = otherDelimiter(mapped, found, source.splitOtherwise);
  if (delimiter !== undefined)
    throw new HeaderMismatchError(wrongDelimiter(mapping, source, delimiter, columns), 'delimiter');
  if (found === 0) throw new HeaderMismatchError(noneOfTheColumns(mapping, source, columns), 'none');
  const header = `the ${source.kind}'s header`;
  const lines = [
    `${source.file}: ${header} lacks ${count(missing.length, 'column')} of the ${mapped.size} that ` +
      `${source.mappingFile} reads; nothing was staged or sent`,
    ...missing.map((column) =>
      missingLine(column, mapped.get(column) ?? [], header, mapping.csv.header ? unnamed : []),
    ),
    unnamed.length === 0
      ? `the header has no column the mapping does not name`
      : `the header's columns the mapping does not name: ${listed(unnamed)}`,
    "rename the column in the mapping or in the file; a column that may be absent goes in the mapping's " +
      'optional_columns (docs/mappings.md)',
  ];
  throw new HeaderMismatchError(lines.join('\n  '), 'missing');
}

function missingLine(column: string, fields: readonly string[], header: string, candidates: readonly string[]): string {
  if (column === placeholderColumn)
    return `the mapping's column ${quoted(column)} (${fields.join(', ')}) is a placeholder mapping guess left: write the export's column in its place`;
  const near = nearestColumn(column, candidates);
  const guess = near === undefined ? '' : `; did you mean ${quoted(near)}?`;
  return `the mapping's column ${quoted(column)} (${fields.join(', ')}) is not in ${header}${guess}`;
}

/** The delimiter that splits the first record into more of the mapping's columns than the mapping's own does. */
function otherDelimiter(
  mapped: ReadonlyMap<string, readonly string[]>,
  found: number,
  splitOtherwise: ReadonlyMap<string, readonly string[]> | undefined,
): { delimiter: string; found: number; columns: number } | undefined {
  let best: { delimiter: string; found: number; columns: number } | undefined;
  for (const [delimiter, columns] of splitOtherwise ?? []) {
    if (columns.length < 2) continue;
    const there = new Set(columns);
    const foundThere = [...mapped.keys()].filter((column) => there.has(column)).length;
    if (foundThere > found && foundThere > (best?.found ?? 0))
      best = { delimiter, found: foundThere, columns: columns.length };
  }
  return best;
}

function wrongDelimiter(
  mapping: Mapping,
  source: HeaderSource,
  other: { delimiter: string; found: number; columns: number },
  columns: readonly string[],
): string {
  const own = describeDelimiter(mapping.csv.delimiter);
  const yaml = other.delimiter === '\t' ? '"\\t"' : JSON.stringify(other.delimiter);
  return (
    `${source.file} looks ${describeDelimiter(other.delimiter)}-delimited: its header splits into ` +
    `${other.found} of the ${count(columnsRead(mapping).size, 'column')} the mapping reads with ` +
    `${describeDelimiter(other.delimiter)}, but reads as ${count(columns.length, 'column')} with the mapping's ${own}; ` +
    `set csv.delimiter: ${yaml} in ${source.mappingFile}; nothing was staged or sent`
  );
}

function noneOfTheColumns(mapping: Mapping, source: HeaderSource, columns: readonly string[]): string {
  const oneColumn =
    source.splitOtherwise !== undefined && columns.length === 1 && columnsRead(mapping).size > 1
      ? ` (its first line reads as one column with the mapping's csv.delimiter ${describeDelimiter(mapping.csv.delimiter)})`
      : '';
  const where = source.sheet === undefined ? '' : ` ${source.sheet}`;
  return (
    `${source.file} has none of the mapping's columns${where}${oneColumn}; is it the ${source.kind} ` +
    `${source.mappingFile} was made for? Nothing was staged or sent`
  );
}

/** Names as the messages quote them: JSON strings (control characters escaped), a long one cut. */
function quoted(name: string): string {
  return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
}

const mostListed = 20;

function listed(names: readonly string[]): string {
  const shown = names.slice(0, mostListed).map(quoted).join(', ');
  return names.length > mostListed ? `${shown} and ${names.length - mostListed} more` : shown;
}

function count(number: number, noun: string): string {
  return `${number} ${noun}${number === 1 ? '' : 's'}`;
}
