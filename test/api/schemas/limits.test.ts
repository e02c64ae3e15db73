import { describe, expect, it } from 'vitest';
import {
  caseSchema,
  createClaimBody,
  fileBody,
  listQuery,
  newClaimBody,
  setClaimCasesBody,
  updateCaseBody,
  v1CreateCaseBody,
  v1ListQuery,
} from '../../../src/api/schemas/index.js';
import { chars, edit, fixture, issuePaths } from './helpers.js';

/** The service's limits as docs/interface.md reads them: ids, custom fields, filing mode, pagination. */

describe('identifiers: claim_id, case_id, program_id at most 126 characters', () => {
  it.each([
    [
      'createClaimBody claim_id',
      createClaimBody,
      (id: string) => ({ case_ids: ['CASE-1'], claim_id: id }),
      ['claim_id'],
    ],
    ['createClaimBody case_ids item', createClaimBody, (id: string) => ({ case_ids: ['CASE-1', id] }), ['case_ids', 1]],
    ['setClaimCasesBody case_ids item', setClaimCasesBody, (id: string) => ({ case_ids: [id] }), ['case_ids', 0]],
    ['updateCaseBody case_id', updateCaseBody, (id: string) => ({ case_id: id }), ['case_id']],
    ['updateCaseBody program_id', updateCaseBody, (id: string) => ({ program_id: id }), ['program_id']],
    ['caseSchema case_id', caseSchema, (id: string) => ({ case_id: id }), ['case_id']],
  ] as const)('%s: 126 accepted, 127 refused', (_name, schema, build, path) => {
    expect(issuePaths(schema, build(chars(126)))).toEqual([]);
    expect(schema.safeParse(build(chars(126))).success).toBe(true);
    expect(issuePaths(schema, build(chars(127)))).toEqual([path]);
  });

  it('an empty identifier is refused too', () => {
    expect(issuePaths(createClaimBody, { case_ids: [''] })).toEqual([['case_ids', 0]]);
  });
});

describe('case_ids: at least 1 element (create claim, set claim cases)', () => {
  it.each([
    ['createClaimBody', createClaimBody],
    ['setClaimCasesBody', setClaimCasesBody],
  ] as const)('%s', (_name, schema) => {
    expect(schema.safeParse({ case_ids: ['CASE-2024-000184-1'] }).success).toBe(true);
    expect(issuePaths(schema, { case_ids: [] })).toEqual([['case_ids']]);
    expect(issuePaths(schema, {})).toEqual([['case_ids']]);
  });

  it('setClaimCasesBody takes no claim_id (the claim is in the path)', () => {
    expect(setClaimCasesBody.safeParse({ case_ids: ['CASE-1'], claim_id: 'CLM-1' }).success).toBe(false);
  });
});

const fieldsOf = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`field_${index}`, 'value']));

describe('custom fields: 25 keys, keys <= 50, values <= 250; null only on update', () => {
  const newClaim = fixture('new-claim-body');
  const holders = [
    ['updateCaseBody', updateCaseBody, (fields: unknown) => ({ custom_fields: fields }), ['custom_fields']],
    ['caseSchema', caseSchema, (fields: unknown) => ({ case_id: 'CASE-1', custom_fields: fields }), ['custom_fields']],
    [
      'newClaimBody case',
      newClaimBody,
      (fields: unknown) => edit(newClaim, ['cases', 0, 'custom_fields'], fields),
      ['cases', 0, 'custom_fields'],
    ],
    [
      'v1CreateCaseBody',
      v1CreateCaseBody,
      (fields: unknown) => edit(fixture('v1-create-case-body'), ['custom_fields'], fields),
      ['custom_fields'],
    ],
  ] as const;

  it.each(holders)('%s: 25 keys accepted, 26 refused', (_name, schema, build, path) => {
    expect(issuePaths(schema, build(fieldsOf(25)))).toEqual([]);
    expect(issuePaths(schema, build(fieldsOf(26)))).toEqual([path]);
  });

  it.each(holders)('%s: a 50-character key accepted, 51 refused', (_name, schema, build, path) => {
    expect(issuePaths(schema, build({ [chars(50, 'k')]: 'v' }))).toEqual([]);
    expect(issuePaths(schema, build({ [chars(51, 'k')]: 'v' }))).toEqual([[...path, chars(51, 'k')]]);
  });

  it.each(holders)('%s: a 250-character value accepted, 251 refused', (_name, schema, build, path) => {
    expect(issuePaths(schema, build({ branch: chars(250) }))).toEqual([]);
    expect(issuePaths(schema, build({ branch: chars(251) }))).toEqual([[...path, 'branch']]);
  });

  it.each(holders)('%s: a value that is a number is refused', (_name, schema, build, path) => {
    expect(issuePaths(schema, build({ branch: 4 }))).toEqual([[...path, 'branch']]);
  });

  it.each(holders.filter(([name]) => name !== 'updateCaseBody'))(
    '%s: null is refused',
    (_name, schema, build, path) => {
      expect(issuePaths(schema, build({ branch: null }))).toEqual([[...path, 'branch']]);
    },
  );

  it('updateCaseBody: null removes a key, so it is accepted', () => {
    expect(updateCaseBody.parse({ custom_fields: { branch: null, agent: 'mkovacs' } })).toEqual({
      custom_fields: { branch: null, agent: 'mkovacs' },
    });
  });
});

describe('fileBody: file_mode `auto` or `chargeback`, required', () => {
  it.each(['auto', 'chargeback'])('accepts %s', (mode) => {
    expect(fileBody.parse({ file_mode: mode })).toEqual({ file_mode: mode });
  });

  it.each([
    ['missing (the document allows an empty body, the public reference requires the mode)', {}],
    ['unknown', { file_mode: 'manual' }],
    ['under the v1 name `file`', { file: 'auto' }],
  ])('refuses a mode that is %s', (_name, body) => {
    expect(fileBody.safeParse(body).success).toBe(false);
  });
});

describe('list queries: limit 1..100, one cursor at most', () => {
  it.each([
    ['listQuery', listQuery],
    ['v1ListQuery', v1ListQuery],
  ] as const)('%s', (_name, schema) => {
    for (const limit of [1, 10, 100]) expect(schema.safeParse({ limit }).success).toBe(true);
    for (const limit of [0, 101, 10.5, -1]) expect(issuePaths(schema, { limit })).toEqual([['limit']]);
    expect(schema.safeParse({}).success).toBe(true);
    expect(schema.safeParse({ limit: 25, starting_after: 'evt_1PQw2kR8n3dZa1' }).success).toBe(true);
    expect(schema.safeParse({ ending_before: 'evt_1PQx7rT2m9cVb4' }).success).toBe(true);
    const both = schema.safeParse({ starting_after: 'evt_1PQw2kR8n3dZa1', ending_before: 'evt_1PQx7rT2m9cVb4' });
    expect(both.error?.issues.map((issue) => issue.message)).toEqual([
      'expected starting_after or ending_before, not both',
    ]);
    expect(schema.safeParse({ cursor: 'evt_1' }).success).toBe(false);
  });

  it('v1ListQuery filters by a v1 case status', () => {
    expect(v1ListQuery.safeParse({ status: 'chargeback_filed' }).success).toBe(true);
    expect(issuePaths(v1ListQuery, { status: 'withdrawn' })).toEqual([['status']]);
    expect(listQuery.safeParse({ status: 'created' }).success).toBe(false);
  });
});
