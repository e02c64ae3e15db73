import { describe, expect, it } from 'vitest';
import { fraudClaim, startTestSandbox } from '../helpers/sandbox.js';

async function withClaims(count: number) {
  const test = await startTestSandbox();
  for (let index = 1; index <= count; index++)
    await test.client.claims.createWithCases(fraudClaim(`claim_${String(index).padStart(2, '0')}`));
  return test;
}

const ids = (body: unknown) => (body as { data: { claim_id: string }[] }).data.map((claim) => claim.claim_id);

describe('lists: newest first, limit 1..100 (default 10), stable cursors', () => {
  it('defaults to 10, newest first, with has_more', async () => {
    const { request } = await withClaims(12);
    const page = await request('GET', '/v2/issuer/claims');
    expect(ids(page.body)).toEqual([
      'claim_12',
      'claim_11',
      'claim_10',
      'claim_09',
      'claim_08',
      'claim_07',
      'claim_06',
      'claim_05',
      'claim_04',
      'claim_03',
    ]);
    expect(page.body).toMatchObject({ has_more: true });
  });

  it('walks older with starting_after and newer with ending_before', async () => {
    const { request } = await withClaims(7);
    const older = await request('GET', '/v2/issuer/claims?limit=3&starting_after=claim_05');
    expect(ids(older.body)).toEqual(['claim_04', 'claim_03', 'claim_02']);
    expect(older.body).toMatchObject({ has_more: true });
    const last = await request('GET', '/v2/issuer/claims?limit=3&starting_after=claim_02');
    expect(last.body).toEqual({ data: [expect.objectContaining({ claim_id: 'claim_01' })], has_more: false });
    const newer = await request('GET', '/v2/issuer/claims?limit=2&ending_before=claim_03');
    expect(ids(newer.body)).toEqual(['claim_05', 'claim_04']);
    expect(newer.body).toMatchObject({ has_more: true });
    const newest = await request('GET', '/v2/issuer/claims?limit=5&ending_before=claim_05');
    expect(ids(newest.body)).toEqual(['claim_07', 'claim_06']);
    expect(newest.body).toMatchObject({ has_more: false });
  });

  it('does not shift a walk when records are added meanwhile', async () => {
    const { client } = await withClaims(6);
    const seen: string[] = [];
    let added = 0;
    for await (const claim of client.claims.listAll({ limit: 2 })) {
      seen.push(claim.claim_id);
      if (added < 3) await client.claims.createWithCases(fraudClaim(`claim_new_${String(added++)}`));
    }
    expect(seen).toEqual(['claim_06', 'claim_05', 'claim_04', 'claim_03', 'claim_02', 'claim_01']);
  });

  it.each([
    ['limit=0', 'limit', 'limit: expected an integer from 1 to 100, got "0"'],
    ['limit=101', 'limit', 'limit: expected an integer from 1 to 100, got "101"'],
    ['limit=ten', 'limit', 'limit: expected an integer from 1 to 100, got "ten"'],
    [
      'starting_after=claim_nope',
      'starting_after',
      'starting_after: expected the id of an existing record, got "claim_nope"',
    ],
    [
      'starting_after=claim_01&ending_before=claim_02',
      'ending_before',
      'ending_before: expected starting_after or ending_before, not both',
    ],
  ])('refuses ?%s with the validation shape naming %s', async (query, field, message) => {
    const { request } = await withClaims(2);
    const answer = await request('GET', `/v2/issuer/claims?${query}`);
    expect(answer).toMatchObject({
      status: 400,
      body: { errors: [{ code: 'parameter_invalid', details: { field }, message }] },
    });
  });

  it('pages cases, events and v1 cases the same way', async () => {
    const { request } = await withClaims(3);
    const cases = await request('GET', '/v2/issuer/cases?limit=2');
    expect(cases.body).toMatchObject({
      has_more: true,
      data: [{ case_id: 'claim_03-case-1' }, { case_id: 'claim_02-case-1' }],
    });
    const events = await request('GET', '/v2/issuer/events?limit=1');
    expect(events.body).toMatchObject({
      has_more: true,
      data: [{ type: 'case.created', data: { case_id: 'claim_03-case-1' } }],
    });
    const v1 = await request('GET', '/v1/issuer/cases?limit=100');
    expect(v1.body).toEqual({ data: [], has_more: false });
  });
});
