import type Database from 'better-sqlite3';
import { openLockedDatabase, type JournalDatabase } from './open.js';
import { serviceMetaKey } from './service-binding.js';

/**
 * What every job's journal has in common, whatever its own tables: the database, opened locked
 * (open.ts); its `meta` values (the fingerprint, the format, the service it belongs to); and
 * forgetting the job on a restart while keeping the service (service-binding.ts). The import's,
 * migrate-v1's, withdraw's and track's journals extend it.
 */
export class JobJournal {
  readonly database: JournalDatabase;
  readonly #getMeta: Database.Statement;
  readonly #setMeta: Database.Statement;

  constructor(database: JournalDatabase) {
    this.database = database;
    this.#getMeta = database.prepare('SELECT value FROM meta WHERE key = ?');
    this.#setMeta = database.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  meta(key: string): string | undefined {
    return (this.#getMeta.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.#setMeta.run(key, value);
  }

  /**
   * Empties the job's tables in one transaction; with `meta`, its `meta` too, but for the service
   * the journal belongs to (a restart does not move a journal to another service).
   */
  protected empty(tables: readonly string[], options: { meta: boolean }): void {
    this.database.transaction(() => {
      for (const table of tables) this.database.exec(`DELETE FROM ${table};`);
      if (options.meta) this.database.prepare('DELETE FROM meta WHERE key <> ?').run(serviceMetaKey);
    })();
  }

  close(): void {
    this.database.close();
  }
}

/** A job's journal database: opened locked, its tables made where missing. */
export function openJobDatabase(file: string, schema: string, what: string): JournalDatabase {
  const database = openLockedDatabase(file, what);
  database.exec(schema);
  return database;
}
