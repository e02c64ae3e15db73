import { util, type $ZodType } from 'zod/v4/core';
import type { z } from 'zod';

/**
 * A precompiled check derived from a zod schema: a drop-in for `schema.safeParse` that
 * gives the same answer, and on values that pass (nearly all of them: every staged row, every
 * request the sandbox answers) skips zod's parse, which copies the value as it goes.
 *
 * The zod schema stays the single source. Its definition tree is walked once into predicates:
 * the types, shapes and enum values come from the tree, and every check (min/max, formats,
 * regexes, refinements) is run through the check's own function (`check._zod.check`), so no rule
 * is restated here. Anything the walk does not know (transforms, defaults, unions, coercion, loose
 * objects) is decided by that sub-schema's own `safeParse`. A value the predicate refuses is
 * parsed by zod in full, so errors, messages and paths are always zod's own.
 *
 * On success the data is the value itself, not a copy: equal to zod's output, with the value's
 * own key order (zod's follows the schema's).
 */

/**
 * True only when zod would succeed; false when it would not, or when the walk cannot tell (an
 * absent key that a default would fill, a key a plain object would strip): zod then decides.
 */
type Predicate = (value: unknown) => boolean;

interface CompiledNode {
  test: Predicate;
  /** zod's output equals its input whenever `test` passes (nothing in the tree changes values). */
  exact: boolean;
}

type AnySchema = $ZodType;
type Check = AnySchema['_zod']['def'] extends { checks?: (infer C)[] } ? C : never;

export function precompiledSafeParse<Schema extends z.ZodType>(
  schema: Schema,
): (value: unknown) => z.ZodSafeParseResult<z.output<Schema>> {
  const { test, exact } = compile(schema);
  return (value) =>
    exact && test(value) ? { success: true, data: value as z.output<Schema> } : schema.safeParse(value);
}

const compiledBySchema = new WeakMap<z.ZodType, (value: unknown) => z.ZodSafeParseResult<unknown>>();

/** `schema.safeParse(value)` through the schema's precompiled check, made at its first use. */
export function checkedParse<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.ZodSafeParseResult<z.output<Schema>> {
  let compiled = compiledBySchema.get(schema);
  if (compiled === undefined) {
    compiled = precompiledSafeParse(schema);
    compiledBySchema.set(schema, compiled);
  }
  return compiled(value) as z.ZodSafeParseResult<z.output<Schema>>;
}

/** Whether `schema.safeParse(value)` succeeds, with zod's parse only for values the predicate refuses. */
export function precompiledCheck(schema: z.ZodType): Predicate {
  const { test } = compile(schema);
  return (value) => test(value) || schema.safeParse(value).success;
}

function compile(schema: AnySchema): CompiledNode {
  const checks: Check[] = [
    ...(schema._zod.traits.has('$ZodCheck') ? [schema as unknown as Check] : []),
    ...(schema._zod.def.checks ?? []),
  ];
  // An overwrite (trim, toLowerCase) changes the value as it checks it.
  if (checks.some((check) => check._zod.def.check === 'overwrite')) return delegated(schema);
  const base = compileType(schema);
  if (base === undefined) return delegated(schema);
  if (checks.length === 0) return base;
  // Checks run on zod's output; only where that is the input may they run on the input.
  if (!base.exact) return delegated(schema);
  return { exact: true, test: allOf(base.test, checks.map(checkRunner)) };
}

/**
 * `first`, then each of `rest`: for the usual one or two checks without a loop, and with no
 * closure made per value (a new_claim body runs some thirty checks).
 */
function allOf(first: Predicate, rest: readonly Predicate[]): Predicate {
  const [second, third] = rest;
  if (rest.length === 1 && second !== undefined) return (value) => first(value) && second(value);
  if (rest.length === 2 && second !== undefined && third !== undefined)
    return (value) => first(value) && second(value) && third(value);
  return (value) => {
    if (!first(value)) return false;
    for (const predicate of rest) if (!predicate(value)) return false;
    return true;
  };
}

interface CheckPayload {
  value: unknown;
  issues: unknown[];
}

/**
 * Runs one check as zod runs it; an asynchronous one is left to zod. The payload is kept and
 * emptied after each run rather than made per value: a check that passes adds
 * nothing to it, so a passing body allocates nothing here. A run that starts inside another of
 * the same check (a refinement that checks a value against its own schema), or after one that
 * threw, gets a payload of its own.
 */
function checkRunner(check: Check): Predicate {
  const zod = check._zod;
  let idle: CheckPayload | undefined = { value: undefined, issues: [] };
  return (value) => {
    const payload = idle ?? { value: undefined, issues: [] };
    idle = undefined;
    payload.value = value;
    const result: unknown = zod.check(payload as never);
    // An asynchronous check may still write to its payload later: it is not kept.
    if (result instanceof Promise) return false;
    const passed = payload.issues.length === 0;
    // Neither the value nor an issue naming it outlives the run.
    payload.value = undefined;
    if (!passed) payload.issues = [];
    idle = payload;
    return passed;
  };
}

function delegated(schema: AnySchema): CompiledNode {
  const parse = (schema as unknown as z.ZodType).safeParse.bind(schema);
  return { exact: false, test: (value) => parse(value).success };
}

/** The type's own test (before its checks), or undefined when zod decides (see the module's comment). */
function compileType(schema: AnySchema): CompiledNode | undefined {
  const def = schema._zod.def as AnySchema['_zod']['def'] & Record<string, unknown>;
  if (def.coerce === true) return undefined;
  switch (def.type) {
    case 'string':
      return { exact: true, test: (value) => typeof value === 'string' };
    case 'number':
      return { exact: true, test: (value) => typeof value === 'number' && Number.isFinite(value) };
    case 'boolean':
      return { exact: true, test: (value) => typeof value === 'boolean' };
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      return values === undefined ? undefined : { exact: true, test: (value) => values.has(value as util.Primitive) };
    }
    case 'optional':
      return schema._zod.optin === 'defaulted' ? undefined : wrapped(def.innerType as AnySchema, undefined);
    case 'nullable':
      return wrapped(def.innerType as AnySchema, null);
    case 'array':
      return compileArray(def.element as AnySchema);
    case 'object':
      return compileObject(def.shape as Record<string, AnySchema>, def.catchall as AnySchema | undefined);
    case 'record':
      return compileRecord(def.keyType as AnySchema, def.valueType as AnySchema, def.partial === true);
    default:
      return undefined;
  }
}

/**
 * optional / nullable: its own value (undefined / null) passes as is; anything else is the inner
 * schema's. One closure per kind, not a predicate for the own value (most fields of a body are
 * optional).
 */
function wrapped(inner: AnySchema, own: undefined | null): CompiledNode {
  const { exact, test } = compile(inner);
  return {
    exact,
    test: own === undefined ? (value) => value === undefined || test(value) : (value) => value === null || test(value),
  };
}

function compileArray(element: AnySchema): CompiledNode {
  const item = compile(element);
  return {
    exact: item.exact,
    test: (value) => {
      // A property beside the elements (never in JSON) would not be in zod's copy; nor would a
      // swapped prototype (`cases.__proto__ = {}`), under which a refinement's forEach is missing.
      if (
        !Array.isArray(value) ||
        Object.getPrototypeOf(value) !== Array.prototype ||
        Object.keys(value).length !== value.length
      )
        return false;
      // By index, as zod reads it: a hole is an undefined element, which `every` would skip.
      for (let index = 0; index < value.length; index++) if (!item.test(value[index])) return false;
      return true;
    },
  };
}

/**
 * A strict object (catchall never), or a plain one: a key outside the shape fails either way (a
 * plain object would strip it, so its output would not be its input; zod decides). A loose object
 * is zod's. An absent key passes only where the field is optional, as zod's object parse says.
 *
 * The value's keys are walked, not the shape's: a claim's body fills a few of
 * the many optional fields its schema knows, and asking for each absent one was half the check.
 * When a required field is not among the keys, the shape is walked as zod walks it (`in`, which
 * an inherited key would also satisfy), so the answer stays zod's.
 */
function compileObject(shape: Record<string, AnySchema>, catchall: AnySchema | undefined): CompiledNode | undefined {
  if (catchall !== undefined && catchall._zod.def.type !== 'never') return undefined;
  const fields = Object.entries(shape).map(([key, field]) => ({
    key,
    optional: field._zod.optin === 'optional',
    ...compile(field),
  }));
  const fieldByKey = new Map(fields.map((field) => [field.key, field]));
  const requiredCount = fields.filter((field) => !field.optional).length;
  const shapeWalk = (record: Record<string, unknown>) =>
    fields.every((field) => (field.key in record ? field.test(record[field.key]) : field.optional));
  return {
    exact: fields.every((field) => field.exact),
    test: (value) => {
      if (!util.isObject(value) || !hasPlainPrototype(value)) return false;
      const record = value as Record<string, unknown>;
      let requiredSeen = 0;
      for (const key in record) {
        const field = fieldByKey.get(key);
        if (field === undefined || !field.test(record[key])) return false;
        if (!field.optional) requiredSeen++;
      }
      return requiredSeen === requiredCount || shapeWalk(record);
    },
  };
}

/** A record keyed by any string, or partially by an enum's values; an exhaustive enum record is zod's. */
function compileRecord(keyType: AnySchema, valueType: AnySchema, partial: boolean): CompiledNode | undefined {
  if (keyType._zod.values !== undefined && !partial) return undefined;
  const key = compile(keyType);
  const item = compile(valueType);
  if (!key.exact) return undefined;
  return {
    exact: item.exact,
    test: (value) => {
      if (!util.isPlainObject(value) || !hasPlainPrototype(value)) return false;
      const record = value as Record<string, unknown>;
      for (const name in record) {
        // zod never copies a __proto__ key; let it say what that means.
        if (name === '__proto__' || !key.test(name) || !item.test(record[name])) return false;
      }
      return true;
    },
  };
}

/** Object.prototype (as JSON.parse makes) or none: zod reads inherited keys too, but copies them as own. */
function hasPlainPrototype(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
