import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { updateCaseBody } from '../../../src/api/schemas/case.js';
import {
  createClaimBody,
  fileBody,
  newClaimBody,
  newClaimCaseSchema,
  setClaimCasesBody,
} from '../../../src/api/schemas/claim.js';
import { checkedParse, precompiledCheck, precompiledSafeParse } from '../../../src/api/schemas/precompiled.js';
import { fixture } from './helpers.js';

/**
 * The precompiled check (2-2.5x faster than zod on a passing body) agrees with zod on every
 * value: the same success, the same data, and on failure zod's own issues. Property tests mutate
 * valid bodies at random places (wrong types, bad formats, extra and missing keys, boundary
 * lengths); table tests pin each kind of schema node, including those the check leaves to zod.
 */

const seed = Number(process.env.BULK_DISPUTES_SEED ?? Date.now() % 2 ** 31);

/** Values that break, or just pass, the rules of the wire schemas' fields. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    '',
    'x',
    'USD',
    'usd',
    'EUR1',
    '4242',
    '424',
    'visa',
    'fraud',
    'nope',
    '2026-03-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-03-01',
    'a@b.co',
    'not-an-email',
  ),
  fc.constantFrom(0, -1, 1, 12, 13, 31, 32, 1970, 2199, 2200, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  fc.constantFrom(true, false, [], {}, ['x'], { unknown: 1 }, 'x'.repeat(126), 'x'.repeat(127), 'x'.repeat(251)),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);

interface Mutation {
  path: readonly (string | number)[];
  /** Delete the key, or put a value there (possibly a key the schema does not know). */
  change: { remove: true } | { value: unknown };
}

/** Every path to a value in `value`, containers included, so a mutation can land anywhere. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
}

function mutated(value: unknown, mutations: readonly Mutation[]): unknown {
  const copy = structuredClone(value);
  for (const { path, change } of mutations) {
    if (path.length === 0) continue;
    let container = copy as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) {
      const next = container[step];
      if (typeof next !== 'object' || next === null) break;
      container = next as Record<string | number, unknown>;
    }
    const last = path.at(-1) ?? '';
    if ('remove' in change) Reflect.deleteProperty(container, last);
    // A copy: fast-check hands out the same constant object (['x']) to several mutations, and
    // setting one as the other's __proto__ would make a cycle the mutator itself throws on.
    else container[last] = structuredClone(change.value);
  }
  return copy;
}

function mutationsOf(value: unknown): fc.Arbitrary<Mutation[]> {
  const paths = pathsOf(value).filter((path) => path.length > 0);
  const extraKey = fc.constantFrom('extra', 'case_id', 'reason', 'custom_fields', '__proto__', 'cases');
  const mutation = fc.oneof(
    fc.record({ path: fc.constantFrom(...paths), change: fc.record({ value: oddValue }) }),
    fc.record({ path: fc.constantFrom(...paths), change: fc.constant({ remove: true as const }) }),
    fc.record({
      path: fc.tuple(fc.constantFrom(...paths), extraKey).map(([path, key]) => [...path.slice(0, -1), key]),
      change: fc.record({ value: oddValue }),
    }),
  );
  return fc.array(mutation, { minLength: 0, maxLength: 3 });
}

function expectAgreement(schema: z.ZodType, value: unknown): void {
  const ours = precompiledSafeParse(schema)(value);
  const theirs = schema.safeParse(value);
  expect(ours.success).toBe(theirs.success);
  expect(precompiledCheck(schema)(value)).toBe(theirs.success);
  // Compiled once per schema and kept: every value of a run goes through the same checks, whose
  // payloads are reused, after values that failed them as well as passed.
  expect(checkedParse(schema, value).success).toBe(theirs.success);
  if (ours.success && theirs.success) expect(ours.data).toEqual(theirs.data);
  else expect(ours.error?.issues).toEqual(theirs.error?.issues);
}

const newClaim = fixture('new-claim-body') as Record<string, unknown>;
const withCustomFields = {
  ...newClaim,
  cases: (newClaim.cases as object[]).map((item) => ({ ...item, custom_fields: { ref: 'A-1', note: '' } })),
};

describe('precompiledSafeParse agrees with zod', () => {
  it.each([
    ['new_claim', newClaimBody, withCustomFields],
    ['a new_claim case', newClaimCaseSchema, (withCustomFields.cases as unknown[])[0]],
    ['create claim', createClaimBody, { case_ids: ['c1', 'c2'], claim_id: 'CLM-1' }],
    ['set claim cases', setClaimCasesBody, { case_ids: ['c1'] }],
    ['file', fileBody, { file_mode: 'auto' }],
    [
      'update case',
      updateCaseBody,
      {
        reason: 'fraud',
        custom_fields: { a: null, b: 'x' },
        transaction: { amount: 5, network_details: { visa: { cvv_check: 'M' } } },
      },
    ],
  ] as const)('on %s bodies mutated at random (fast-check)', (_name, schema, valid) => {
    expectAgreement(schema, valid);
    fc.assert(
      fc.property(mutationsOf(valid), (mutations) => {
        expectAgreement(schema, mutated(valid, mutations));
      }),
      { seed, numRuns: 1500 },
    );
  });
});

describe('precompiled nodes', () => {
  it.each([
    ['a trimmed string (an overwrite: zod decides)', z.string().trim(), [' a ', 'a', 3]],
    ['a default (zod decides)', z.strictObject({ a: z.string().default('x') }), [{}, { a: 'y' }, { a: 1 }]],
    ['a transform (zod decides)', z.string().transform((text) => text.length), ['abc', 1]],
    ['a union (zod decides)', z.union([z.string(), z.number()]), ['a', 1, true]],
    ['a plain object (strips unknown keys)', z.object({ a: z.string() }), [{ a: 'x' }, { a: 'x', b: 1 }, { b: 1 }]],
    ['a loose object', z.looseObject({ a: z.string() }), [{ a: 'x', b: 1 }, {}]],
    ['an exhaustive enum record', z.record(z.enum(['a', 'b']), z.number()), [{ a: 1, b: 2 }, { a: 1 }]],
    ['a partial enum record', z.partialRecord(z.enum(['a', 'b']), z.number()), [{ a: 1 }, { c: 1 }, {}, []]],
    [
      'a nullable optional field',
      z.strictObject({ a: z.number().int().nullable().optional() }),
      [{}, { a: null }, { a: undefined }, { a: 1.5 }],
    ],
    ['a required field absent or undefined', z.strictObject({ a: z.unknown() }), [{}, { a: undefined }, { a: 1 }]],
    ['an array with bounds', z.array(z.string().max(2)).min(1).max(2), [[], ['a'], ['a', 'b', 'c'], ['abc'], 'a']],
    [
      'an array with a swapped prototype',
      z.array(z.string()).refine((items) => items.every((item) => item !== 'x')),
      [Object.setPrototypeOf(['a'], {}), Object.setPrototypeOf(['x'], null)],
    ],
    [
      'a refined object',
      z.strictObject({ a: z.number(), b: z.number() }).refine((value) => value.a < value.b),
      [
        { a: 1, b: 2 },
        { a: 2, b: 1 },
      ],
    ],
    ['numbers', z.number().int().min(1), [1, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1']],
    ['a literal', z.literal('x'), ['x', 'y']],
  ] as const)('%s', (_name, schema, values) => {
    for (const value of values) expectAgreement(schema as z.ZodType, value);
  });

  it('keeps each answer its own when the same compiled checks run again and again', () => {
    const check = precompiledCheck(
      z.strictObject({
        code: z
          .string()
          .regex(/^[A-Z]{3}$/)
          .max(3),
        amount: z.number().int().min(0),
      }),
    );
    const values = [
      { code: 'USD', amount: 1 },
      { code: 'usd', amount: 1 },
      { code: 'USD', amount: -1 },
      { code: 'EUR', amount: 2 },
      { code: 'EURO', amount: 2 },
      { code: 'GBP', amount: 0 },
    ];
    expect(values.map(check)).toEqual([true, false, false, true, false, true]);
  });

  it('agrees with zod when a refinement checks a value against its own schema (a check run inside itself)', () => {
    type Node = { name: string; child?: unknown };
    const refined = z
      .strictObject({ name: z.string().min(1), child: z.unknown().optional() })
      .refine((node: Node) => node.child === undefined || refinedCheck(node.child));
    const refinedCheck = precompiledCheck(refined);
    for (const value of [
      { name: 'a', child: { name: 'b', child: { name: 'c' } } },
      { name: 'a', child: { name: '' } },
      { name: 'a', child: { name: 'b', child: { name: '' } } },
      { name: 'a' },
    ]) {
      expect(refinedCheck(value)).toBe(refined.safeParse(value).success);
      expect(checkedParse(refined, value).success).toBe(refined.safeParse(value).success);
    }
  });

  it('leaves an asynchronous refinement to zod, and the checks after it still answer', () => {
    const asynchronous = z.string().refine(async (text) => Promise.resolve(text.length > 1));
    expect(() => precompiledCheck(asynchronous)('ab')).toThrow(/async/i);
    expect(() => asynchronous.safeParse('ab')).toThrow(/async/i);
    const later = precompiledCheck(z.string().min(2));
    expect([later('ab'), later('a'), later('abc')]).toEqual([true, false, true]);
  });

  it('still answers after a check that threw', () => {
    let explode = true;
    const schema = z.number().refine((amount) => {
      if (explode) throw new Error('refinement failed to run');
      return amount > 0;
    });
    const check = precompiledCheck(schema);
    expect(() => check(1)).toThrow('refinement failed to run');
    explode = false;
    expect([check(1), check(-1), check(2)]).toEqual([true, false, true]);
  });

  it('returns the value itself when it passes a schema that changes nothing', () => {
    const value = { file_mode: 'auto' };
    const parsed = precompiledSafeParse(fileBody)(value);
    expect(parsed.success && parsed.data).toBe(value);
  });
});
