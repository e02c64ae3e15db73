import { foldText } from '../words.js';
import type { ColumnProfile } from '../profile.js';

/**
 * Columns that say what kind of row a row is (docs/mappings.md, "Rows not for import, and the same
 * dispute twice"): a lifecycle report's stage (`RECD`, `REPR`, `ADJM`; Received, Representment) or
 * a record type (Detail, Summary). A report with such a column usually holds several rows per
 * dispute, of which one kind is the dispute to import: `mapping guess` suggests a `rows.only`.
 */

export interface RowKindColumn {
  readonly column: string;
  /** The sample's values, in order of first appearance. */
  readonly values: readonly string[];
  /** The values that read as the row to import (a first chargeback, a detail record); empty when none does. */
  readonly keep: readonly string[];
}

/** What a value says of its row, as foldText writes it: the one to import, or a later stage or summary beside it. */
const rowKindWords: Readonly<Record<string, 'keep' | 'other'>> = {
  recd: 'keep',
  received: 'keep',
  'first chargeback': 'keep',
  'first time chargeback': 'keep',
  detail: 'keep',
  dtl: 'keep',
  repr: 'other',
  representment: 'other',
  represented: 'other',
  'second chargeback': 'other',
  adjm: 'other',
  adjustment: 'other',
  prearb: 'other',
  'pre arbitration': 'other',
  arbitration: 'other',
  reversal: 'other',
  summary: 'other',
  total: 'other',
  totals: 'other',
  header: 'other',
  trailer: 'other',
};

/** A header that names a row's kind, for codes the words above do not know (`D`, `S`). */
const rowKindHeader = /\b(record|row|line|lifecycle|life cycle)\s*(type|kind|category|stage|code)?\b/;
/** At most this many distinct values: a stage or a type, not an identifier or free text. */
const mostKinds = 6;

/** The sample's columns that read as a row's kind, most telling first (known words, then by position). */
export function rowKindColumns(profiles: readonly ColumnProfile[]): RowKindColumn[] {
  const found: { column: RowKindColumn; known: number; longest: number; position: number }[] = [];
  for (const profile of profiles) {
    const distinct = [...new Map(profile.values.map((value) => [foldText(value), value])).values()];
    if (distinct.length === 0 || distinct.length > mostKinds) continue;
    if (!distinct.every((value) => /^[\p{L}][\p{L} .-]{0,29}$/u.test(value))) continue;
    const known = distinct.filter((value) => rowKindWords[foldText(value)] !== undefined);
    if (known.length === 0 && !rowKindHeader.test(foldText(profile.column))) continue;
    const keep = distinct.filter((value) => rowKindWords[foldText(value)] === 'keep');
    const longest = Math.max(...distinct.map((value) => value.length));
    found.push({
      column: { column: profile.column, values: distinct, keep },
      known: known.length,
      longest,
      position: profile.position,
    });
  }
  // Codes before the words that spell them out (`RECD` before `Received`): a label's wording varies more.
  return found
    .sort((left, right) => right.known - left.known || left.longest - right.longest || left.position - right.position)
    .map(({ column }) => column);
}
