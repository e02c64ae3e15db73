import Database from 'better-sqlite3';
import { isNotADatabase, openOwnDatabase } from '../files/own-database.js';
import { notAJournal } from '../journal/open.js';
import { maskCells } from '../mapping/card-number-columns.js';
import type { Mapping } from '../mapping/schema.js';

/**
 * The review's own store beside the journal (`<journal>.review.sqlite`, 0600: it holds cardholder
 * data): each edited row's cells, written when the reviewer changes a cell, so that nothing is lost
 * when the browser or the server is closed mid-review; the next `review` brings the edits back.
 * The journal itself is never written by a review.
 */
export class ReviewStore {
  private readonly database: Database.Database;

  /** `mapping`: its `not_card_numbers` columns are kept as read, as the import keeps them; every other cell is masked. */
  constructor(
    readonly file: string,
    private readonly mapping: Pick<Mapping, 'not_card_numbers'> = {},
  ) {
    // Owner-only, never through a link (own-database.ts): SQLite would create it 0644 under the usual umask.
    this.database = openOwnDatabase(
      file,
      (path) => new Database(path),
      (reason) => notAJournal(file, reason, "a review's store"),
    );
    try {
      this.database.pragma('journal_mode = WAL');
      this.database.exec(
        'CREATE TABLE IF NOT EXISTS edits (line INTEGER PRIMARY KEY, cells TEXT NOT NULL, updated_at TEXT NOT NULL)',
      );
    } catch (error) {
      this.database.close();
      throw isNotADatabase(error) ? notAJournal(file, error, "a review's store") : error;
    }
  }

  static fileFor(journal: string): string {
    return `${journal}.review.sqlite`;
  }

  /** The edits kept; masked as they are read too, since a store of a version before masking may hold card numbers. */
  edits(): Map<number, Record<string, string>> {
    const rows = this.database.prepare('SELECT line, cells FROM edits ORDER BY line').all() as {
      line: number;
      cells: string;
    }[];
    return new Map(rows.map((row) => [row.line, this.masked(JSON.parse(row.cells) as Record<string, string>)]));
  }

  /** A row's edited cells, each card number in them masked (docs/review.md): never kept whole. */
  save(line: number, cells: Readonly<Record<string, string>>): void {
    this.database
      .prepare(
        'INSERT INTO edits (line, cells, updated_at) VALUES (?, ?, ?) ON CONFLICT (line) DO UPDATE SET cells ' +
          '= excluded.cells, updated_at = excluded.updated_at',
      )
      .run(line, JSON.stringify(this.masked(cells)), new Date().toISOString());
  }

  readonly masked: CellMasking = (cells) => ({ ...maskCells(cells, this.mapping) });

  discard(line: number): void {
    this.database.prepare('DELETE FROM edits WHERE line = ?').run(line);
  }

  close(): void {
    this.database.close();
  }
}

/**
 * Cells with every card number in them masked, first six and last four, as the import masks every
 * cell it reads (but the mapping's `not_card_numbers` columns): what a reviewer types goes no further whole.
 */
export type CellMasking = (cells: Readonly<Record<string, string>>) => Record<string, string>;
