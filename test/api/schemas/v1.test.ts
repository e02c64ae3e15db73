import { describe, expect, it } from 'vitest';
import { v1CaseResponse, v1CaseSchema, v1CreateCaseBody, v1DisputeReasons } from '../../../src/api/schemas/index.js';
import { REMOVE, edit, edits, fixture, issuePaths, issuesOf, parseOk } from './helpers.js';
import type { Path } from './helpers.js';

/** Version 1 of the service's interface (how we read it: docs/interface.md). */
const body = fixture('v1-create-case-body');
const v1Case = fixture('v1-case');

describe('v1CreateCaseBody (POST /v1/issuer/cases)', () => {
  it('parses the fixture unchanged', () => {
    expect(parseOk(v1CreateCaseBody, body)).toEqual(body);
  });

  it('accepts a switch_serial_number instead of an ARN', () => {
    const singleMessage = edits(body, [
      [['transaction', 'arn'], REMOVE],
      [['transaction', 'switch_serial_number'], 'MCS1120934'],
      [['transaction', 'card_network'], 'mastercard'],
    ]);
    expect(v1CreateCaseBody.safeParse(singleMessage).success).toBe(true);
  });

  it('refuses a transaction with neither arn nor switch_serial_number', () => {
    expect(issuePaths(v1CreateCaseBody, edit(body, ['transaction', 'arn'], REMOVE))).toEqual([['transaction', 'arn']]);
  });

  it.each(v1DisputeReasons)('accepts the v1 reason %s', (reason) => {
    expect(v1CreateCaseBody.safeParse(edit(body, ['reason'], reason)).success).toBe(true);
  });

  it.each([
    ['missing', REMOVE],
    ['a version 2 reason only (product_not_as_described)', 'product_not_as_described'],
    ['a version 2 reason only (duplicate_charge)', 'duplicate_charge'],
  ])('refuses a reason that is %s', (_name, value) => {
    expect(issuePaths(v1CreateCaseBody, edit(body, ['reason'], value))).toEqual([['reason']]);
  });

  it('refuses the reason in dispute.reason, the version 2 place', () => {
    const moved = edits(body, [
      [['reason'], REMOVE],
      [['dispute', 'reason'], 'fraud'],
    ]);
    expect(issuePaths(v1CreateCaseBody, moved)).toEqual(expect.arrayContaining([['reason'], ['dispute']]));
  });

  const requiredFields: Path[] = [
    ['cardholder'],
    ['merchant'],
    ['dispute'],
    ['transaction'],
    ['dispute', 'amount'],
    ['dispute', 'currency'],
    ['dispute', 'date'],
    ['transaction', 'amount'],
    ['transaction', 'date'],
    ['transaction', 'card_last4'],
    ['transaction', 'card_network'],
    ['transaction', 'system'],
  ];

  it.each(requiredFields.map((path) => [path.join('.'), path] as const))('requires %s', (_name, path) => {
    expect(issuePaths(v1CreateCaseBody, edit(body, path, REMOVE))).toEqual([path]);
  });

  it.each<[string, Path, unknown]>([
    ['a file mode other than auto or chargeback', ['file'], 'manual'],
    ['a case_id of 127 characters', ['case_id'], 'c'.repeat(127)],
    ['a decimal amount', ['transaction', 'amount'], 159.0001],
    ['a two-digit card_last4', ['transaction', 'card_last4'], '19'],
    ['an expiry month of 13', ['transaction', 'card_expiry_month'], 13],
  ])('refuses %s', (_name, path, value) => {
    expect(issuePaths(v1CreateCaseBody, edit(body, path, value))).toEqual([path]);
  });

  it.each<[string, Path, string, unknown]>([
    ['the v2 evidence name cardholder_explanation', ['issuer_evidence'], 'cardholder_explanation', 'x'],
    ['the v2 card evidence name is_active', ['issuer_evidence', 'card'], 'is_active', false],
    ['the v2 nested transaction card', ['transaction'], 'card', { last4: '7719' }],
    ['an unknown top-level key', [], 'notes', 'x'],
  ])('refuses %s (v1 evidence uses flat names; strict)', (_name, objectPath, key, value) => {
    const changed = edit(body, [...objectPath, key], value);
    expect(issuesOf(v1CreateCaseBody, changed)).toMatchObject([
      { code: 'unrecognized_keys', path: objectPath, keys: [key] },
    ]);
  });

  it('accepts the other flat v1 evidence names of the document', () => {
    const flat = edit(body, ['issuer_evidence'], {
      correct_amount: 12900,
      correct_currency: 'USD',
      service_end_date: '2023-11-01T00:00:00Z',
      resolution: { offered: 'store_credit' },
      refund: { promised: true, promise_date: '2023-11-15T00:00:00Z' },
      card: { active: false },
    });
    expect(v1CreateCaseBody.safeParse(flat).success).toBe(true);
  });
});

describe('v1 case as returned', () => {
  it.each([
    ['v1CaseSchema (strict)', v1CaseSchema],
    ['v1CaseResponse (tolerant)', v1CaseResponse],
  ] as const)('parses the fixture with %s', (_name, schema) => {
    expect(parseOk(schema, v1Case)).toEqual(v1Case);
  });

  it('reads a closed case with closed_reason and a null chargeback_due_date', () => {
    const closed = edits(v1Case, [
      [['status'], 'closed'],
      [['closed_reason'], 'merchant_credited'],
      [['chargeback_due_date'], null],
    ]);
    expect(parseOk(v1CaseSchema, closed)).toMatchObject({
      status: 'closed',
      closed_reason: 'merchant_credited',
      chargeback_due_date: null,
    });
  });

  it('strictly refuses a status outside the v1 enumeration, which the client keeps', () => {
    const newer = edit(v1Case, ['status'], 'withdrawn');
    expect(issuePaths(v1CaseSchema, newer)).toEqual([['status']]);
    expect(parseOk(v1CaseResponse, newer).status).toBe('withdrawn');
  });

  it('requires status and case_id, even tolerantly', () => {
    expect(issuePaths(v1CaseResponse, edit(v1Case, ['status'], REMOVE))).toEqual([['status']]);
    expect(issuePaths(v1CaseResponse, edit(v1Case, ['case_id'], REMOVE))).toEqual([['case_id']]);
  });
});
