import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/** Wire fixtures (test/fixtures/wire/), built from the service's documented examples and tables. */
export function fixture(name: string): unknown {
  const text = readFileSync(new URL(`../../fixtures/wire/${name}.json`, import.meta.url), 'utf8');
  const value: unknown = JSON.parse(text);
  return value;
}

/** A file under samples/, as a user would send it. */
export function sample(name: string): unknown {
  const value: unknown = JSON.parse(readFileSync(new URL(`../../../samples/${name}`, import.meta.url), 'utf8'));
  return value;
}

export type Path = readonly (string | number)[];

/** Marks a key to delete in `edit`. */
export const REMOVE = Symbol('remove');

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * A deep copy of `value` with the value at `path` replaced (or removed with REMOVE). Every step
 * of the path before the last must exist, and a removed key must exist, so a misspelt path
 * fails the test instead of quietly testing the unchanged fixture.
 */
export function edit(value: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(value);
  let container: unknown = copy;
  for (const step of path.slice(0, -1)) {
    if (!isContainer(container) || !(step in container))
      throw new Error(`edit: no ${String(step)} in ${path.join('.')}`);
    container = container[step];
  }
  const last = path.at(-1);
  if (last === undefined || !isContainer(container)) throw new Error(`edit: cannot reach ${path.join('.')}`);
  if (replacement !== REMOVE) {
    container[last] = replacement;
  } else if (Array.isArray(container) && typeof last === 'number' && last < container.length) {
    container.splice(last, 1);
  } else if (last in container) {
    Reflect.deleteProperty(container, last);
  } else {
    throw new Error(`edit: nothing to remove at ${path.join('.')}`);
  }
  return copy;
}

/** Several edits in a row. */
export function edits(value: unknown, changes: readonly (readonly [Path, unknown])[]): unknown {
  return changes.reduce((current, [path, replacement]) => edit(current, path, replacement), value);
}

/** The value at `path`, or undefined. */
export function at(value: unknown, path: Path): unknown {
  let current = value;
  for (const step of path) {
    if (!isContainer(current)) return undefined;
    current = current[step];
  }
  return current;
}

/** The issues of a parse that must fail; an empty list (which no issue expectation matches) if it passed. */
export function issuesOf(schema: z.ZodType, input: unknown): z.core.$ZodIssue[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues;
}

/** The issue paths of a parse, for `toEqual([[...]])` when exactly one thing is wrong. */
export function issuePaths(schema: z.ZodType, input: unknown): PropertyKey[][] {
  return issuesOf(schema, input).map((issue) => issue.path);
}

/** Parse or fail the test with zod's own explanation. */
export function parseOk<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success)
    throw new Error(`expected a successful parse, got:\n${JSON.stringify(result.error.issues, null, 2)}`);
  return result.data;
}

export const chars = (length: number, letter = 'x') => letter.repeat(length);
