import { JournalMismatchError } from './open.js';

/**
 * Why a journal refuses a run: what differs between what it was made with and this run, each in
 * words, and what to change to resume it (docs/import.md, "Resume"). Shared by every job whose
 * journal is tied to its inputs and flags; each job says what its own parts are.
 */

/** One part of a run that differs from the journal's: said in the refusal, and what resuming it takes. */
export interface MadeWithDifference {
  /** What differs, e.g. `--shard: 1/4 → 2/4`. */
  said: string;
  /** What a run that resumes the journal gives instead, e.g. `--shard 1/4`. */
  resume: string;
}

/** A value as a user wrote it: strings quoted, anything else as JSON, long ones cut. */
export function shownValue(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The start of a sha256, enough to tell two files apart in a sentence. */
export function shortHash(hex: string): string {
  return `${hex.slice(0, 12)}…`;
}

/** A dotted path whose value differs between two plain values (YAML or JSON documents). */
export interface ChangedPath {
  path: string;
  then: unknown;
  now: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf that differs between `then` and `now`, by dotted path (`fields.reason.map`, `cases[1]`), in document order. */
export function changedPaths(then: unknown, now: unknown, path = ''): ChangedPath[] {
  if (isPlainObject(then) && isPlainObject(now)) {
    const keys = [...new Set([...Object.keys(then), ...Object.keys(now)])];
    return keys.flatMap((key) => changedPaths(then[key], now[key], path === '' ? key : `${path}.${key}`));
  }
  if (Array.isArray(then) && Array.isArray(now) && then.length === now.length) {
    return then.flatMap((item, index) => changedPaths(item, now[index], `${path}[${String(index)}]`));
  }
  return JSON.stringify(then) === JSON.stringify(now)
    ? []
    : [{ path: path === '' ? '(the whole document)' : path, then, now }];
}

/** `file_mode: "auto" → "create_only"`; the first `limit` paths, then how many more. */
export function describeChangedPaths(changes: readonly ChangedPath[], limit = 5): string {
  const shown = changes
    .slice(0, limit)
    .map((change) => `${change.path}: ${shownValue(change.then)} → ${shownValue(change.now)}`);
  const more = changes.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${String(more)} more` : shown.join(', ');
}

/** `file_mode: "auto"`: what the journal's run had at each changed path (the first `limit`). */
export function describeValuesThen(changes: readonly ChangedPath[], limit = 5): string {
  const shown = changes.slice(0, limit).map((change) => `${change.path}: ${shownValue(change.then)}`);
  const more = changes.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${String(more)} more` : shown.join(', ');
}

/** A flag's difference: `--shard: 1/4 → 2/4`, `--dry-run: given → not given`. */
export function flagDifference(
  flag: string,
  then: string | boolean | undefined,
  now: string | boolean | undefined,
): MadeWithDifference {
  const shown = (value: string | boolean | undefined) =>
    value === undefined || value === false ? 'not given' : value === true ? 'given' : value;
  const resume = then === undefined || then === false ? `no ${flag}` : then === true ? flag : `${flag} ${then}`;
  return { said: `${flag}: ${shown(then)} → ${shown(now)}`, resume };
}

/** A journal another version wrote, in a format this one does not (withdraw's, migrate-v1's). */
export function formatDifference(then: unknown): MadeWithDifference {
  return {
    said: `a journal of format ${shownValue(then)}, written by another version of bulk-disputes`,
    resume: 'the version that made it',
  };
}

/** A flag whose recorded value and this run's: `[flag, then, now]`. */
export type FlagValues = readonly [flag: string, then: string | boolean | undefined, now: string | boolean | undefined];

/** Each flag whose value differs from the journal's, as `flagDifference` says it, in the order given. */
export function flagDifferences(flags: readonly FlagValues[]): MadeWithDifference[] {
  return flags.filter(([, then, now]) => then !== now).map(([flag, then, now]) => flagDifference(flag, then, now));
}

/**
 * The refusal: `journal FILE: expected the … it was made with, got …`, then what to do. `parts`
 * names what the journal is tied to (`the input, mapping and flags`).
 */
export function madeWithMismatch(
  journalFile: string,
  parts: string,
  differences: readonly MadeWithDifference[],
  startOver: string,
): JournalMismatchError {
  const said =
    differences.length === 0 ? 'different ones' : differences.map((difference) => difference.said).join('; ');
  const resume =
    differences.length === 0 ? 'the same ones' : differences.map((difference) => difference.resume).join(', ');
  return new JournalMismatchError(
    `journal ${journalFile}: expected the ${parts} it was made with, got ${said}. ` +
      `To resume it, run again with ${resume}; to start it over with the new ones, add --restart (${startOver}), ` +
      'or give another --journal file',
  );
}

/**
 * A job's refusal of a run its journal was not made with: `differences` names what differs, from
 * what the journal recorded and what this run has; `parts` and `startOver` as `madeWithMismatch`'s.
 */
export function madeWithRefusal<Compared extends unknown[]>(
  parts: string,
  startOver: string,
  differences: (...compared: Compared) => MadeWithDifference[],
): (journalFile: string, ...compared: Compared) => JournalMismatchError {
  return (journalFile, ...compared) => madeWithMismatch(journalFile, parts, differences(...compared), startOver);
}
