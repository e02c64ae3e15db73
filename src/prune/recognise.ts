import { open } from 'node:fs/promises';
import { codeOf } from '../errors/coded-error.js';
import { fileKindOf } from '../files/file-kind.js';
import { isNotADatabase } from '../files/own-database.js';
import { resultsKindOf } from '../job-files/read/read-results.js';
import { tableRows } from '../job-files/read/read-table.js';
import { sourceShape } from '../job-files/read/source-bytes.js';
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

/** The first row of a CSV or a workbook's first sheet; none when it reads as neither. */
async function headerOf(file: string): Promise<readonly string[]> {
  try {
    const shape = await sourceShape(file);
    if (shape.kind === 'sqlite') return [];
    let header: readonly string[] = [];
    const { rows } = tableRows({ file, shape }, (names) => {
      header = names;
      return names;
    });
    // The header is told before the first row: one row read is enough.
    for await (const _row of rows) break;
    return header;
  } catch {
    return [];
  }
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

async function headOf(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(head, 0, bytes, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
