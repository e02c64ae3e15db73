import { codeOf } from '../errors/coded-error.js';
import { fileKindOf, headOf } from '../files/file-kind.js';
import { isNotADatabase } from '../files/own-database.js';
import { resultsKindOf } from '../job-files/read/read-results.js';
import { sampleBytes } from '../job-files/read/results-dialect.js';
import { legacyStatusLayouts, statusColumns as importStatusColumns } from '../job-files/import/columns.js';
import { migrateColumns } from '../job-files/migrate/columns.js';
import { withdrawColumns } from '../job-files/withdraw/columns.js';
import { decodeSample, encodingOf } from '../csv/sniff-encoding.js';
import { tableRows } from '../job-files/read/read-table.js';
import { statusColumns as trackStatusColumns } from '../job-files/track/status.js';
import { worklistColumns } from '../job-files/track/worklist.js';
import { journalKindOf, tablesOf, type JournalKind } from '../journal/kind.js';
import type { WrittenFileRole } from '../journal/retention-meta.js';
import { PruneUnreadableError } from './errors.js';
import { readDatabase } from './read-only.js';

/**
 * Whether a file is one of the tool's, by what it holds, never by its name alone (docs/data.md,
 * "Retention"): a journal by its tables, a review store by its one, a results file, status file
 * or worklist by its header, payloads by their first body, the track page by its title. What is
 * not recognised is left as it is.
 */

export type DatabaseKind =
  | { readonly kind: 'journal'; readonly journal: JournalKind }
  | { readonly kind: 'review-store' }
  /** Another process holds it locked: a run of a job, or a sandbox. */
  | { readonly kind: 'busy' }
  /** SQLite, but no database of this tool's. */
  | { readonly kind: 'other' };

/** What a SQLite file is, opened read-only; undefined when the file is not SQLite. */
export async function databaseKindOf(file: string): Promise<DatabaseKind | undefined> {
  if (fileKindOf(await headOf(file, 16)) !== 'sqlite') return undefined;
  try {
    const kind = readDatabase(file, (database): DatabaseKind => {
      const tables = tablesOf(database);
      const journal = journalKindOf(tables);
      if (journal !== undefined) return { kind: 'journal', journal };
      if (tables.size === 1 && tables.has('edits')) return { kind: 'review-store' };
      return { kind: 'other' };
    });
    return kind ?? { kind: 'busy' };
  } catch (error) {
    throw new PruneUnreadableError(
      `${file}: expected a SQLite database prune can read, got ${isNotADatabase(error) ? 'a damaged one' : (codeOf(error) ?? String(error))}: ` +
        'prune stopped before changing anything',
      { cause: error },
    );
  }
}

/** What a job's file may be to it, besides its journal. */
export type BelongingRole = WrittenFileRole | 'review-store' | 'fix-file';

/** Whether `file` holds what its role says: a file at a recorded name that holds something else is not the tool's. */
export async function holdsRole(file: string, role: BelongingRole): Promise<boolean> {
  switch (role) {
    case 'results':
    case 'fix-file':
      return resultsKindOf(await headerOf(file)) !== undefined;
    case 'status':
      return startsWith(await headerOf(file), trackStatusColumns);
    case 'worklist':
      return startsWith(await headerOf(file), worklistColumns);
    case 'payloads':
      return looksLikePayloads(await headOf(file, 1024 * 1024));
    case 'page':
      return (await headOf(file, 4096)).toString('utf8').includes('<title>bulk-disputes track:');
    case 'review-store':
      return (await databaseKindOf(file))?.kind === 'review-store';
  }
}

function startsWith(header: readonly string[], columns: readonly string[]): boolean {
  return columns.every((column, position) => header[position] === column);
}

/**
 * The first row of a CSV or a workbook's first sheet, as far as a layout check needs it; none
 * when it reads as neither. A CSV's first line is split on each delimiter the tool writes in: the
 * columns a layout starts with are plain names, never quoted or holding a delimiter, so no parse
 * of the file (or its dialect sniffed from a sample) is needed to tell them.
 */
async function headerOf(file: string): Promise<readonly string[]> {
  try {
    const head = await headOf(file, sampleBytes);
    const kind = fileKindOf(head);
    if (kind === 'sqlite' || kind === 'xls') return [];
    if (kind === 'zip') return await workbookHeaderOf(file);
    const complete = head.length < sampleBytes;
    const text = decodeSample(head, encodingOf(head, complete), complete).replace(/^\uFEFF/, '');
    const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
    const candidates = delimiters.map((delimiter) =>
      firstLine.split(delimiter).map((cell) => cell.replace(/^"(.*)"$/, '$1')),
    );
    return candidates.find((cells) => cells.length > 1 && layouts.some((columns) => startsWith(cells, columns))) ?? [];
  } catch {
    return [];
  }
}

/** The delimiters a results file is written in: its input's (docs/import.md, "The results CSV"). */
const delimiters = [',', ';', '\t', '|'];

/** The first columns of the layouts a job's CSV starts with. */
const layouts: readonly (readonly string[])[] = [
  importStatusColumns.slice(0, 3),
  ...legacyStatusLayouts.map((columns) => columns.slice(0, 3)),
  migrateColumns.slice(0, 3),
  withdrawColumns.slice(0, 3),
  trackStatusColumns.slice(0, 3),
  worklistColumns.slice(0, 3),
];

async function workbookHeaderOf(file: string): Promise<readonly string[]> {
  let header: readonly string[] = [];
  const { rows } = tableRows({ file, shape: { kind: 'xlsx' } }, (names) => {
    header = names;
    return names;
  });
  // The header is told before the first row: one row read is enough.
  for await (const _row of rows) break;
  return header;
}

/** A line of `--payloads`: a claim's new_claim body, with its claim id and cases. */
function looksLikePayloads(head: Buffer): boolean {
  const firstLine = head.toString('utf8').split('\n')[0] ?? '';
  try {
    const body = JSON.parse(firstLine) as unknown;
    return typeof body === 'object' && body !== null && 'claim_id' in body && 'cases' in body;
  } catch {
    return false;
  }
}
