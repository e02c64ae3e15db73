import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { RefusalError } from '../errors/coded-error.js';

/**
 * A journal's `meta` values, read through its kind's schema (src/job-files/<job>/meta.ts) as a
 * mapping is read through the mapping schema: every key named, each value checked when it is read,
 * so that a job never acts on a value no version of this tool wrote (a journal edited by hand, or
 * damaged).
 */

/** A meta value that does not parse: the journal is refused, naming its key (exit 2). */
export class JournalInvalidError extends RefusalError {
  readonly code = 'JOURNAL_INVALID';
}

/** One key of a journal kind's meta: how its value is stored, and what it must be. */
export interface MetaField<T> {
  /** Read back: the stored text (or the JSON it holds) checked and typed. */
  readonly schema: z.ZodType<T>;
  /** JSON, or the text as it is. */
  readonly stored: 'json' | 'text';
  /** Written: the text stored for the value. */
  readonly encode: (value: T) => string;
}

/** A value kept as the text itself, any text or what `schema` allows. */
export function textField(): MetaField<string>;
export function textField<T extends string>(schema: z.ZodType<T, string>): MetaField<T>;
export function textField(schema: z.ZodType<string, string> = z.string()): MetaField<string> {
  return { schema: z.string().pipe(schema), stored: 'text', encode: (value) => value };
}

/** A value kept as JSON. */
export function jsonField<T>(schema: z.ZodType<T>): MetaField<T> {
  return { schema, stored: 'json', encode: (value) => JSON.stringify(value) };
}

/**
 * "Staged": every row (or source) of the job is in the journal, so a later run resumes instead of
 * staging again. One meaning for every journal kind, written `1`; a migrate-v1 journal of an
 * earlier version wrote `complete`, read the same.
 */
export const stagedField: MetaField<true> = {
  schema: z.enum(['1', 'complete']).transform(() => true as const),
  stored: 'text',
  encode: () => '1',
};

/** Any field, whatever its value (what a kind's fields are checked against). */
interface SomeMetaField {
  readonly schema: z.ZodType;
  readonly stored: 'json' | 'text';
  readonly encode: (value: never) => string;
}

export type MetaFields = Readonly<Record<string, SomeMetaField>>;

/** The value a field holds. */
export type MetaValue<Field> = Field extends MetaField<infer T> ? T : never;

/** How the journal's `meta` table is read and written (a `SELECT` and an upsert on its connection). */
export interface MetaTable {
  read(key: string): string | undefined;
  write?: ((key: string, value: string) => void) | undefined;
  remove?: ((key: string) => void) | undefined;
}

/** One journal's meta values, typed by its kind's fields. */
export class JournalMeta<Fields extends MetaFields> {
  constructor(
    private readonly fields: Fields,
    private readonly table: MetaTable,
    /** The journal's file, for the messages. */
    private readonly file: string,
  ) {}

  /** The value under `key`, checked; undefined when none is recorded (a journal of an earlier version, or not yet). */
  get<Key extends keyof Fields & string>(key: Key): MetaValue<Fields[Key]> | undefined {
    const text = this.table.read(key);
    const field = this.fields[key] as unknown as MetaField<MetaValue<Fields[Key]>>;
    // Empty JSON: a key an earlier version cleared by writing nothing (track's sources, forgotten with its service).
    if (text === undefined || (text === '' && field.stored === 'json')) return undefined;
    let value: unknown = text;
    if (field.stored === 'json') {
      try {
        value = JSON.parse(text);
      } catch {
        throw this.invalid(key, text, 'not JSON');
      }
    }
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) throw this.invalid(key, text, describeIssue(parsed.error));
    return parsed.data;
  }

  /**
   * Every value recorded, checked: what a job does before it acts on its journal, so that a value no
   * version of this tool wrote stops it at the door, naming its key.
   */
  checkAll(): this {
    for (const key of Object.keys(this.fields) as (keyof Fields & string)[]) this.get(key);
    return this;
  }

  /** Whether anything is recorded under `key`, whatever it is. */
  has(key: keyof Fields & string): boolean {
    return this.table.read(key) !== undefined;
  }

  set<Key extends keyof Fields & string>(key: Key, value: MetaValue<Fields[Key]>): void {
    if (this.table.write === undefined) throw new Error(`${this.file}: opened for reading, its meta cannot be written`);
    const field = this.fields[key] as unknown as MetaField<MetaValue<Fields[Key]>>;
    this.table.write(key, field.encode(value));
  }

  /** Forgets the value under `key` (a restart onto another service forgets what was read from the last). */
  delete(key: keyof Fields & string): void {
    if (this.table.remove === undefined)
      throw new Error(`${this.file}: opened for reading, its meta cannot be written`);
    this.table.remove(key);
  }

  private invalid(key: string, text: string, why: string): JournalInvalidError {
    const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    return new JournalInvalidError(
      `${this.file}: meta "${key}": expected what this tool records there, got ${JSON.stringify(shown)} (${why}): the journal was changed ` +
        'by something other than this tool (edited, or damaged): move it away and run the job again',
    );
  }
}

/** The first problem zod found, in words: where in the value, and what it expected. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'not a valid value';
  return issue.path.length === 0 ? issue.message : `at ${issue.path.join('.')}: ${issue.message}`;
}

/**
 * Whether a recorded value (a fingerprint, the settings) is the one a run would record now: equal
 * as JSON values, whatever their keys' order.
 */
export function sameRecord(recorded: unknown, now: unknown): boolean {
  return isDeepStrictEqual(recorded, JSON.parse(JSON.stringify(now)));
}

/** The meta table of a database, read and written by key (the write prepared at the first: a copy opened to read has none). */
export function metaTableOf(database: {
  prepare(sql: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
}): Required<MetaTable> {
  const get = database.prepare('SELECT value FROM meta WHERE key = ?');
  let set: { run(...params: unknown[]): unknown } | undefined;
  return {
    read: (key) => (get.get(key) as { value: string } | undefined)?.value,
    write: (key, value) => {
      set ??= database.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      );
      set.run(key, value);
    },
    remove: (key) => {
      database.prepare('DELETE FROM meta WHERE key = ?').run(key);
    },
  };
}

/** A journal's meta, read (and, on a journal opened to write, written) through its kind's fields. */
export function journalMetaOf<Fields extends MetaFields>(
  fields: Fields,
  database: Parameters<typeof metaTableOf>[0],
  file: string,
): JournalMeta<Fields> {
  return new JournalMeta(fields, metaTableOf(database), file).checkAll();
}
