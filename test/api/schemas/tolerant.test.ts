import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tolerant } from '../../../src/api/schemas/index.js';

/**
 * tolerant() derives the client's reading from a strict description (src/api/schemas/tolerant.ts):
 * unknown keys kept, enums and string formats opened to any string, optional fields also null,
 * number checks dropped; required fields and types enforced.
 */

interface Row {
  name: string;
  strict: z.ZodType;
  input: unknown;
  /** What the tolerant reading returns; the strict schema must refuse `input`. */
  output: unknown;
}

const strictIntPair = z.strictObject({ a: z.number().int(), b: z.number().int() });

const accepted: Row[] = [
  {
    name: 'an unknown key is kept',
    strict: z.strictObject({ id: z.string() }),
    input: { id: 'a', extra: [1, { x: true }] },
    output: { id: 'a', extra: [1, { x: true }] },
  },
  {
    name: 'a nested unknown key is kept',
    strict: z.strictObject({ card: z.strictObject({ last4: z.string() }) }),
    input: { card: { last4: '4242', bin: '424242' } },
    output: { card: { last4: '4242', bin: '424242' } },
  },
  {
    name: 'an enum opens to any string',
    strict: z.strictObject({ status: z.enum(['open', 'filed']) }),
    input: { status: 'archived' },
    output: { status: 'archived' },
  },
  {
    name: 'an optional field may be null',
    strict: z.strictObject({ note: z.string().optional() }),
    input: { note: null },
    output: { note: null },
  },
  {
    name: 'an optional object may be null',
    strict: z.strictObject({ card: z.strictObject({ last4: z.string() }).optional() }),
    input: { card: null },
    output: { card: null },
  },
  {
    name: 'a defaulted field may be null',
    strict: z.strictObject({ limit: z.number().default(10) }),
    input: { limit: null },
    output: { limit: null },
  },
  {
    name: 'an email format opens to any string',
    strict: z.strictObject({ email: z.email() }),
    input: { email: 'not-an-email' },
    output: { email: 'not-an-email' },
  },
  {
    name: 'a date-time format opens to any string',
    strict: z.strictObject({ at: z.iso.datetime() }),
    input: { at: '2024-05-20' },
    output: { at: '2024-05-20' },
  },
  {
    name: 'string length limits drop',
    strict: z.strictObject({ id: z.string().max(3) }),
    input: { id: 'abcdef' },
    output: { id: 'abcdef' },
  },
  { name: 'number checks drop', strict: strictIntPair, input: { a: 1.5, b: -2 }, output: { a: 1.5, b: -2 } },
  { name: 'array elements are loosened', strict: z.array(z.enum(['a'])), input: ['a', 'b'], output: ['a', 'b'] },
  { name: 'array length limits drop', strict: z.array(z.string()).min(1), input: [], output: [] },
  {
    name: 'record values are loosened and keys opened',
    strict: z.partialRecord(z.enum(['visa']), z.strictObject({ id: z.string() })),
    input: { jcb: { id: 'j', more: 1 } },
    output: { jcb: { id: 'j', more: 1 } },
  },
  {
    name: 'union options are loosened',
    strict: z.union([z.strictObject({ kind: z.literal('a') }), z.number().int()]),
    input: { kind: 'z', extra: 1 },
    output: { kind: 'z', extra: 1 },
  },
  { name: 'a string literal opens to any string', strict: z.literal('v2'), input: 'v3', output: 'v3' },
  {
    name: 'a transform runs on the loosened input',
    strict: z.strictObject({ n: z.number().int() }).transform((value) => value.n * 2),
    input: { n: 1.5 },
    output: 3,
  },
];

const refused: Omit<Row, 'output'>[] = [
  { name: 'a required field missing', strict: z.strictObject({ id: z.string() }), input: {} },
  { name: 'a required field null', strict: z.strictObject({ id: z.string() }), input: { id: null } },
  { name: 'a string field given a number', strict: z.strictObject({ id: z.string() }), input: { id: 5 } },
  { name: 'an enum given a number', strict: z.strictObject({ status: z.enum(['open']) }), input: { status: 1 } },
  { name: 'a number field given a numeric string', strict: strictIntPair, input: { a: '1', b: 2 } },
  { name: 'a boolean given a string', strict: z.strictObject({ ok: z.boolean() }), input: { ok: 'true' } },
  { name: 'an array given an object', strict: z.array(z.string()), input: { 0: 'a' } },
  { name: 'an array element of the wrong type', strict: z.array(z.string()), input: ['a', 2] },
  { name: 'a record value of the wrong type', strict: z.record(z.string(), z.string()), input: { k: 1 } },
  { name: 'a number literal given another number', strict: z.literal(2), input: 3 },
  { name: 'a null literal given a string', strict: z.null(), input: 'null' },
  { name: 'an object given an array', strict: z.strictObject({}), input: [] },
];

describe('tolerant(): what the reading of a strict schema accepts', () => {
  it.each(accepted)('$name', ({ strict, input, output }) => {
    expect(strict.safeParse(input).success).toBe(false);
    expect(tolerant(strict).parse(input)).toEqual(output);
  });

  it.each(refused)('refuses $name, like the strict schema', ({ strict, input }) => {
    expect(strict.safeParse(input).success).toBe(false);
    expect(tolerant(strict).safeParse(input).success).toBe(false);
  });

  it('still accepts what the strict schema accepts, unchanged', () => {
    const strict = z.strictObject({
      id: z.string().max(126),
      status: z.enum(['open', 'filed']),
      amount: z.number().int(),
      tags: z.array(z.string()).optional(),
      program_id: z.string().nullable().optional(),
    });
    const input = { id: 'CLM-1', status: 'filed', amount: 5000, tags: ['a'], program_id: null };
    expect(strict.parse(input)).toEqual(input);
    expect(tolerant(strict).parse(input)).toEqual(input);
  });

  it('leaves the strict schema strict', () => {
    const strict = z.strictObject({ status: z.enum(['open']) });
    tolerant(strict);
    expect(strict.safeParse({ status: 'open', extra: 1 }).success).toBe(false);
    expect(strict.safeParse({ status: 'archived' }).success).toBe(false);
  });

  it('keeps a nullable required field nullable but still required', () => {
    const reading = tolerant(z.strictObject({ due: z.string().nullable() }));
    expect(reading.parse({ due: null })).toEqual({ due: null });
    expect(reading.safeParse({}).success).toBe(false);
  });
});

describe('tolerant(): unsupported schemas fail loudly when the reading is derived', () => {
  it.each([
    ['date', z.date()],
    ['date inside an object', z.strictObject({ at: z.date() })],
    ['tuple', z.tuple([z.string(), z.number()])],
    ['intersection', z.intersection(z.strictObject({ a: z.string() }), z.strictObject({ b: z.string() }))],
  ])('%s', (_name, schema) => {
    expect(() => tolerant(schema)).toThrow(
      /^tolerant\(\): unsupported schema type: expected a plain resource schema, got \w+$/,
    );
  });

  it('names the unsupported type', () => {
    expect(() => tolerant(z.date())).toThrow('got date');
  });

  it('refuses a pipe into another schema rather than a transform', () => {
    expect(() => tolerant(z.string().pipe(z.email()))).toThrow(
      'tolerant(): unsupported pipe: expected a transform after the schema, got string',
    );
  });
});
