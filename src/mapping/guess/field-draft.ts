import type { Confidence } from './types.js';

/** A field spec as the draft writes it: plain values, keys in the order a person reads them. */
export type SpecValue = string | number | boolean | SpecObject | readonly string[];
export interface SpecObject {
  readonly [key: string]: SpecValue;
}

/** One target of the draft mapping with the reasons for it. */
export interface FieldDraft {
  readonly section: 'shared' | 'case';
  readonly target: string;
  /** The source column; for a placeholder, the column its alternatives read, if any. */
  readonly column: string | undefined;
  readonly spec: SpecObject;
  readonly confidence: Confidence;
  /** Why: header, values, examples. One comment line each. */
  readonly evidence: readonly string[];
  /** Set when the field cannot run as written: a person must decide (a TODO in the YAML). */
  readonly todo?: string;
  /** A guess that runs but deserves a look (a CHECK in the YAML). */
  readonly check?: string;
  /** Other specs a person chooses from, written as comments above the field. */
  readonly alternatives?: readonly SpecObject[];
  /**
   * Enum entries guessed from the vocabulary, each with why: a CHECK comment at the end of the
   * entry's line, so no guess goes in silently.
   */
  readonly entryChecks?: Readonly<Record<string, string>>;
  /** Comments beside TODO enum entries: what they could be. */
  readonly entryNotes?: Readonly<Record<string, string>>;
}

/**
 * What a field is written as when the sample cannot decide it: a column that no export has, so
 * `mapping lint` accepts the draft but the import stops at the header until a person fills it
 * in (HEADER_MISMATCH: "the mapping's column "TODO" … is a placeholder", header-fit.ts). A guess
 * that looks right and is wrong would pass a dry run silently; this cannot.
 */
export const placeholderColumn = 'TODO';

export function placeholder(
  section: 'shared' | 'case',
  target: string,
  todo: string,
  evidence: readonly string[] = [],
  alternatives?: readonly SpecObject[],
  column?: string,
): FieldDraft {
  return {
    section,
    target,
    // The column the alternatives read: it counts as placed, so it is not listed as unplaced too.
    column,
    spec: { column: placeholderColumn, required: true },
    confidence: 'low',
    evidence,
    todo,
    ...(alternatives === undefined ? {} : { alternatives }),
  };
}

export function isPlaceholder(field: FieldDraft): boolean {
  return field.spec.column === placeholderColumn;
}

/** The columns a draft field reads: its column, and an amount's sign column. */
export function draftColumns(field: FieldDraft): string[] {
  const amount = field.spec.amount;
  const signColumn =
    typeof amount === 'object' && !Array.isArray(amount) ? (amount as SpecObject).sign_column : undefined;
  const sign =
    typeof signColumn === 'object' && !Array.isArray(signColumn) ? (signColumn as SpecObject).column : undefined;
  return [...(field.column === undefined ? [] : [field.column]), ...(typeof sign === 'string' ? [sign] : [])];
}
