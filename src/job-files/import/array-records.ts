/**
 * A journal's records read as arrays (better-sqlite3's `.raw()`) and named in one object literal:
 * better-sqlite3 builds an object column by column otherwise, about a third of a read of claims or
 * rows, and half of the results' read. The literal is generated once from the list of names, so
 * one list says both which columns a SELECT reads and what the record calls them.
 */
export interface ArrayRecords<Row> {
  /** The record's names in the order the SELECT reads its columns. */
  readonly names: readonly (keyof Row & string)[];
  /** The record of one row read as an array, its columns in the order of `names`. */
  readonly recordOf: (columns: readonly unknown[]) => Row;
}

/** Names missing from a list of a record's names: none when the list is complete. */
type Missing<Row, Names extends readonly PropertyKey[]> = Exclude<keyof Row, Names[number]>;

/**
 * `arrayRecords<ClaimRecord>()(['claim_key', ...])`: the record named from every column read; a
 * name left out, or one the record does not have, does not compile.
 */
export function arrayRecords<Row>() {
  return <const Names extends readonly (keyof Row & string)[]>(
    names: [Missing<Row, Names>] extends [never] ? Names : { missing: Missing<Row, Names> },
  ): ArrayRecords<Row> => ({
    names: names as Names,
    recordOf: objectLiteralOf(names as Names) as (columns: readonly unknown[]) => Row,
  });
}

/**
 * `(columns) => ({ "idx": columns[0], ... })`. The names are the record's own, written in the
 * source, never read from a file, and spliced as JSON.stringify'd string literals, which cannot
 * end the literal they are in.
 */
function objectLiteralOf(names: readonly string[]): (columns: readonly unknown[]) => object {
  const properties = names.map((name, index) => `${JSON.stringify(name)}: columns[${index}]`).join(', ');
  // Code generation, as src/mapping/compile/code.ts does: see the comment above for why it is safe.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('columns', `'use strict';\nreturn { ${properties} };`) as (columns: readonly unknown[]) => object;
}
