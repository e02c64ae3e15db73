import { open, stat, utimes } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { filesUnder } from './planted-search.js';

/**
 * Time passing for a job folder: every clock prune reads moved back by `days`. Plain SQL stands
 * for the days gone by (the tool's own code would write "now"): the import's `settled_by_run_at`,
 * the track journal's `track_cases.decided_at` and `track_runs.started` / `ended`, the review
 * store's `edits.updated_at`; then every file's modification time (journals with their `-wal` and
 * `-shm`), last, since writing a database touches it.
 */
export async function ageJobFolder(folder: { dir: string }, days: number): Promise<void> {
  const files = await filesUnder(folder.dir);
  const times = new Map(await Promise.all(files.map(async (file) => [file, await stat(file)] as const)));
  for (const file of files) if (!/-(wal|shm|journal)$/.test(file) && (await isSqlite(file))) ageDatabase(file, days);
  for (const file of await filesUnder(folder.dir)) {
    const before = times.get(file) ?? (await stat(file));
    const back = (date: Date) => new Date(date.getTime() - days * 86_400_000);
    await utimes(file, back(before.atime), back(before.mtime));
  }
}

/** Moved back by `days`, written as it was (with or without milliseconds); anything else left as is. */
export function shiftedTime(text: string | null, days: number): string | null {
  if (text === null) return null;
  const time = Date.parse(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(time)) return text;
  const shifted = new Date(time - days * 86_400_000).toISOString();
  return /\.\d+Z$/.test(text) ? shifted : shifted.replace(/\.\d+Z$/, 'Z');
}

const clocks: Readonly<Record<string, string>> = {
  meta: "UPDATE meta SET value = shifted(value) WHERE key = 'settled_by_run_at'",
  track_cases: 'UPDATE track_cases SET decided_at = shifted(decided_at)',
  track_runs: 'UPDATE track_runs SET started = shifted(started), ended = shifted(ended)',
  edits: 'UPDATE edits SET updated_at = shifted(updated_at)',
};

function ageDatabase(file: string, days: number): void {
  const database = new Database(file);
  try {
    database.function('shifted', (text: unknown) => shiftedTime(typeof text === 'string' ? text : null, days));
    const tables = new Set(
      database
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map(({ name }) => name),
    );
    database.transaction(() => {
      for (const [table, update] of Object.entries(clocks)) if (tables.has(table)) database.exec(update);
    })();
  } finally {
    database.close();
  }
}

async function isSqlite(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(16);
    await handle.read(header, 0, 16, 0);
    return header.toString('latin1') === 'SQLite format 3\0';
  } finally {
    await handle.close();
  }
}
