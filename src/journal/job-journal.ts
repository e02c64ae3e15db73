import { JournalMeta, metaTableOf, type MetaFields } from './meta.js';
import { openLockedDatabase, type JournalDatabase } from './open.js';
import { serviceMetaKey } from './service-binding.js';

/**
 * What every job's journal has in common, whatever its own tables: the database, opened locked
 * (open.ts); its `meta` values, through its kind's schema (the fingerprint, the format, the service it belongs to); and
 * forgetting the job on a restart while keeping the service (service-binding.ts). The import's,
 * migrate-v1's, withdraw's and track's journals extend it.
 */
export class JobJournal<Fields extends MetaFields> {
  readonly database: JournalDatabase;
  /** The `meta` values, typed and checked by the journal kind's fields (meta.ts). */
  readonly meta: JournalMeta<Fields>;

  constructor(database: JournalDatabase, fields: Fields, file: string) {
    this.database = database;
    this.meta = new JournalMeta(fields, metaTableOf(database), file);
    try {
      this.meta.checkAll();
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /**
   * Empties the job's tables in one transaction; with `meta`, its `meta` too, but for the service
   * the journal belongs to (a restart does not move a journal to another service) and the files
   * its runs wrote (still the job's, for `prune`).
   */
  protected empty(tables: readonly string[], options: { meta: boolean }): void {
    this.database.transaction(() => {
      for (const table of tables) this.database.exec(`DELETE FROM ${table};`);
      if (options.meta)
        this.database.prepare("DELETE FROM meta WHERE key NOT IN (?, 'written_files')").run(serviceMetaKey);
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
