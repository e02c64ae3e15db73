import { describe, expect, it } from 'vitest';
import {
  caseResponse,
  caseSchema,
  claimResponse,
  claimSchema,
  claimSummaryResponse,
  errorBodyResponse,
  eventResponse,
  eventSchema,
  fileResponse,
  listPage,
  v1CaseResponse,
} from '../../../src/api/schemas/index.js';
import { REMOVE, at, edit, edits, fixture, issuePaths, parseOk } from './helpers.js';

/**
 * The client is liberal in what it accepts (docs/interface.md): new fields, new
 * enum values and nulls never fail a run, and nothing read is lost; types and required fields
 * still do fail.
 */

const claim = fixture('claim-with-cases');
const listedCase = at(fixture('cases-page'), ['data', 0]);
const event = at(fixture('events-page'), ['data', 0]);

describe('unknown fields survive with their values', () => {
  it('at the top level of a claim and deep inside a case (transaction.card)', () => {
    const extended = edits(claim, [
      [['risk_score'], 12],
      [['cases', 0, 'transaction', 'card', 'bin_country'], 'US'],
      [['cases', 1, 'issuer_evidence', 'fraud'], { reported_channel: 'phone' }],
    ]);
    const parsed = parseOk(claimResponse, extended);
    expect(parsed.risk_score).toBe(12);
    expect(at(parsed, ['cases', 0, 'transaction', 'card', 'bin_country'])).toBe('US');
    expect(at(parsed, ['cases', 1, 'issuer_evidence', 'fraud'])).toEqual({ reported_channel: 'phone' });
    // The strict description of the same claim refuses them.
    expect(claimSchema.safeParse(extended).success).toBe(false);
  });

  it('in a network_details entry for a network the schemas do not know', () => {
    const jcb = { transaction_id: 'J00912', authorization_route: 'direct' };
    const extended = edit(listedCase, ['transaction', 'network_details', 'jcb'], jcb);
    expect(at(parseOk(caseResponse, extended), ['transaction', 'network_details', 'jcb'])).toEqual(jcb);
    expect(caseSchema.safeParse(extended).success).toBe(false);
  });

  it('in list pages, around the items as well as inside them', () => {
    const page = edits(fixture('events-page'), [
      [['next_cursor'], 'evt_1PQw2kR8n3dZa1'],
      [['data', 1, 'data', 'claim_id'], 'CLM-2024-000177'],
    ]);
    const parsed = parseOk(listPage(eventResponse), page);
    expect(parsed).toMatchObject({ next_cursor: 'evt_1PQw2kR8n3dZa1' });
    expect(parsed.data[1]?.data).toEqual({ case_id: 'CASE-2024-000177-1', claim_id: 'CLM-2024-000177' });
  });

  it('in an error body', () => {
    const body = { message: 'case not found', request_id: 'req_77QK' };
    expect(parseOk(errorBodyResponse, body)).toEqual(body);
  });
});

describe('unknown enumeration values parse and are kept as strings', () => {
  it.each([
    ['case status', caseResponse, listedCase, ['status'], 'prearb_escalated'],
    ['case closed_reason', caseResponse, listedCase, ['closed_reason'], 'written_off'],
    ['case dispute reason', caseResponse, listedCase, ['reason'], 'digital_goods_not_delivered'],
    ['card network', caseResponse, listedCase, ['transaction', 'card', 'network'], 'unionpay'],
    ['claim status', claimSummaryResponse, at(fixture('claims-page'), ['data', 0]), ['status'], 'archived'],
    ['event type', eventResponse, event, ['type'], 'case.something_new'],
    ['file category', fileResponse, fixture('file'), ['category'], 'bank_statement'],
    ['v1 case status', v1CaseResponse, fixture('v1-case'), ['status'], 'prearb_received'],
  ] as const)('%s', (_name, schema, resource, path, value) => {
    expect(at(parseOk(schema, edit(resource, path, value)), path)).toBe(value);
  });

  it('while the strict schemas refuse the same values', () => {
    expect(issuePaths(caseSchema, edit(listedCase, ['status'], 'prearb_escalated'))).toEqual([['status']]);
    expect(issuePaths(eventSchema, edit(event, ['type'], 'case.something_new'))).toEqual([['type']]);
  });
});

describe('null for an optional field parses', () => {
  it.each([
    ['claim updated', claimResponse, claim, ['updated']],
    ['claim cases', claimResponse, claim, ['cases']],
    ['case merchant', caseResponse, listedCase, ['merchant']],
    ['case custom_fields', caseResponse, listedCase, ['custom_fields']],
    ['cardholder email', caseResponse, listedCase, ['cardholder', 'email']],
    ['transaction card issuer_id', caseResponse, listedCase, ['transaction', 'card', 'issuer_id']],
    ['evidence documentation', caseResponse, listedCase, ['issuer_evidence', 'documentation']],
    ['error errors', errorBodyResponse, fixture('error-simple'), ['errors']],
  ] as const)('%s', (_name, schema, resource, path) => {
    expect(at(parseOk(schema, edit(resource, path, null)), path)).toBeNull();
  });

  it('and a null dispute with a top-level reason still mirrors the reason into a dispute', () => {
    const parsed = parseOk(caseResponse, edit(listedCase, ['dispute'], null));
    expect(parsed.dispute).toEqual({ reason: 'fraud' });
  });
});

describe('types and required fields are still enforced', () => {
  it.each([
    ['claim_id: 5', claimResponse, claim, ['claim_id'], 5],
    ['claim_id: null (required)', claimResponse, claim, ['claim_id'], null],
    ['claim_id missing', claimResponse, claim, ['claim_id'], REMOVE],
    ['case_id missing in a case', claimResponse, claim, ['cases', 1, 'case_id'], REMOVE],
    ['an amount as a string', claimResponse, claim, ['cases', 0, 'transaction', 'amount'], '129.99'],
    ['cases not an array', claimResponse, claim, ['cases'], { case_id: 'CASE-2024-000184-1' }],
    [
      'a boolean evidence field as a string',
      caseResponse,
      listedCase,
      ['issuer_evidence', 'fraud', 'was_reported'],
      'yes',
    ],
    ['a status that is a number', caseResponse, listedCase, ['status'], 3],
    ['an event without created', eventResponse, event, ['created'], REMOVE],
  ] as const)('%s fails', (_name, schema, resource, path, value) => {
    expect(issuePaths(schema, edit(resource, path, value))).toEqual([path]);
  });
});
