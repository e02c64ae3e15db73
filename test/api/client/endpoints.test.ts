import { describe, expect, it } from 'vitest';
import type { ClaimsClient } from '../../../src/api/client/index.js';
import { bodyOf, json, startScriptedServer } from '../../helpers/scripted-server.js';
import { clientFor } from '../../helpers/client.js';

const now = '2026-11-01T10:00:00Z';
const claim = { claim_id: 'claim_1', created: now, status: 'open', cases: [{ case_id: 'case_1' }] };
const fullCase = {
  case_id: 'case_1',
  claim_id: 'claim_1',
  created: now,
  status: 'created',
  dispute: { amount: 5000, currency: 'USD', reason: 'fraud' },
};
const success = { success: true };
const review = { status: 'complete', filing_errors: [], workflow: { outcome: 'file_chargeback' } };
const emptyPage = { data: [], has_more: false };
const newClaimCase = {
  dispute: { amount: 5000, currency: 'USD' },
  transaction: { amount: 5000, currency: 'USD', date: now, arn: '7453760422143100388' },
};
const newClaim = {
  card: { last4: '4242', network: 'visa' as const },
  dispute: { reason: 'fraud' as const },
  cases: [newClaimCase],
};
const v1Case = {
  cardholder: { name: 'Ada Lovelace' },
  dispute: { amount: 1999, currency: 'EUR', date: now },
  merchant: { name: 'Shop', category_code: '5732' },
  reason: 'duplicate' as const,
  transaction: {
    amount: 1999,
    currency: 'EUR',
    date: now,
    arn: '1234',
    card_last4: '4242',
    card_expiry_month: 12,
    card_expiry_year: 2028,
    card_network: 'visa' as const,
    card_type: 'credit' as const,
    system: 'dual_message' as const,
  },
};

interface Row {
  name: string;
  call: (client: ClaimsClient) => Promise<{ data: unknown }>;
  method: string;
  url: string;
  body?: unknown;
  answer: unknown;
}

const rows: Row[] = [
  {
    name: 'create claim',
    call: async (c) => c.claims.create({ case_ids: ['case_1'] }),
    method: 'POST',
    url: '/v2/issuer/claims',
    body: { case_ids: ['case_1'] },
    answer: claim,
  },
  {
    name: 'set claim cases',
    call: async (c) => c.claims.setCases('claim_1', { case_ids: ['case_1', 'case_2'] }),
    method: 'PUT',
    url: '/v2/issuer/claims/claim_1/cases',
    body: { case_ids: ['case_1', 'case_2'] },
    answer: { claim_id: 'claim_1', cases: [{ case_id: 'case_1' }, { case_id: 'case_2' }] },
  },
  {
    name: 'new_claim',
    call: async (c) => c.claims.createWithCases(newClaim),
    method: 'POST',
    url: '/v2/issuer/new_claim',
    body: newClaim,
    answer: { ...claim, updated: now, cases: [fullCase] },
  },
  {
    name: 'file claim',
    call: async (c) => c.claims.file('claim_1', { file_mode: 'auto' }),
    method: 'POST',
    url: '/v2/issuer/claims/claim_1/file',
    body: { file_mode: 'auto' },
    answer: { results: [{ case_id: 'case_1', success: true }] },
  },
  {
    name: 'withdraw claim',
    call: async (c) => c.claims.withdraw('claim_1'),
    method: 'POST',
    url: '/v2/issuer/claims/claim_1/withdraw',
    answer: success,
  },
  {
    name: 'list claims',
    call: async (c) => c.claims.list({ limit: 100, starting_after: 'claim_9' }),
    method: 'GET',
    url: '/v2/issuer/claims?limit=100&starting_after=claim_9',
    answer: emptyPage,
  },
  {
    name: 'retrieve claim',
    call: async (c) => c.claims.retrieve('claim 1/é'),
    method: 'GET',
    url: '/v2/issuer/claims/claim%201%2F%C3%A9',
    answer: claim,
  },
  {
    name: 'retrieve case',
    call: async (c) => c.cases.retrieve('case_1'),
    method: 'GET',
    url: '/v2/issuer/cases/case_1',
    answer: fullCase,
  },
  {
    name: 'update case',
    call: async (c) => c.cases.update('case_1', { custom_fields: { ref: 'A-1', old: null } }),
    method: 'PUT',
    url: '/v2/issuer/cases/case_1',
    body: { custom_fields: { ref: 'A-1', old: null } },
    answer: fullCase,
  },
  {
    name: 'list cases',
    call: async (c) => c.cases.list({ ending_before: 'case_5' }),
    method: 'GET',
    url: '/v2/issuer/cases?ending_before=case_5',
    answer: { data: [fullCase], has_more: false },
  },
  {
    name: 'delete case',
    call: async (c) => c.cases.delete('case_1'),
    method: 'DELETE',
    url: '/v2/issuer/cases/case_1',
    answer: success,
  },
  {
    name: 'withdraw case',
    call: async (c) => c.cases.withdraw('case_1'),
    method: 'POST',
    url: '/v2/issuer/cases/case_1/withdraw',
    answer: success,
  },
  {
    name: 'run workflow',
    call: async (c) => c.cases.runWorkflow('case_1'),
    method: 'POST',
    url: '/v2/issuer/cases/case_1/run_workflow',
    answer: success,
  },
  {
    name: 'file case',
    call: async (c) => c.cases.file('case_1', { file_mode: 'chargeback' }),
    method: 'POST',
    url: '/v2/issuer/cases/case_1/file',
    body: { file_mode: 'chargeback' },
    answer: success,
  },
  {
    name: 'review case',
    call: async (c) => c.cases.review('case_1'),
    method: 'GET',
    url: '/v2/issuer/cases/case_1/review',
    answer: review,
  },
  {
    name: 'list events',
    call: async (c) => c.events.list({ limit: 1 }),
    method: 'GET',
    url: '/v2/issuer/events?limit=1',
    answer: emptyPage,
  },
  {
    name: 'create v1 case',
    call: async (c) => c.v1.cases.create(v1Case),
    method: 'POST',
    url: '/v1/issuer/cases',
    body: v1Case,
    answer: { ...v1Case, case_id: 'case_9', status: 'created' },
  },
  {
    name: 'list v1 cases',
    call: async (c) => c.v1.cases.list({ status: 'won', limit: 20 }),
    method: 'GET',
    url: '/v1/issuer/cases?limit=20&status=won',
    answer: emptyPage,
  },
];

describe('every endpoint of the service', () => {
  it.each(rows)('$name: $method $url', async (row) => {
    const server = await startScriptedServer([json(200, row.answer)]);
    const result = await row.call(clientFor(server.url));

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe(row.method);
    expect(request?.url).toBe(row.url);
    if (row.body === undefined) expect(request?.body.length).toBe(0);
    else {
      expect(request?.headers['content-type']).toBe('application/json');
      expect(bodyOf(request)).toEqual(row.body);
    }
    expect(result.data).toMatchObject(row.answer as object);
  });
});

describe('requests are built strictly and refused before sending', () => {
  it.each([
    ['an empty case_ids', async (c: ClaimsClient) => c.claims.create({ case_ids: [] }), 'case_ids'],
    [
      'an unknown file_mode',
      async (c: ClaimsClient) => c.claims.file('claim_1', { file_mode: 'later' as 'auto' }),
      'file_mode',
    ],
    ['a 127-character claim id', async (c: ClaimsClient) => c.claims.retrieve('c'.repeat(127)), 'claim_id'],
    ['an empty case id', async (c: ClaimsClient) => c.cases.review(''), 'case_id'],
    ['a limit of 101', async (c: ClaimsClient) => c.events.list({ limit: 101 }), 'limit'],
    ['both cursors', async (c: ClaimsClient) => c.claims.list({ starting_after: 'a', ending_before: 'b' }), ''],
    [
      'a decimal amount',
      async (c: ClaimsClient) =>
        c.claims.createWithCases({
          ...newClaim,
          cases: [{ ...newClaimCase, dispute: { amount: 50.5, currency: 'USD' } }],
        }),
      'cases.0.dispute.amount',
    ],
  ])('%s', async (_name, call, path) => {
    const server = await startScriptedServer([]);
    const error = await call(clientFor(server.url)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'CLAIMS_REQUEST_INVALID',
      attempts: 0,
      issues: [expect.objectContaining({ path })],
    });
    expect(server.requests).toHaveLength(0);
  });
});
