import { describe, expect, it } from 'vitest';
import type { Claim } from '../../../src/api/schemas/claim.js';
import { claimOwnership, intendedFromRows } from '../../../src/job-files/claims/identity.js';
import { sameDay } from '../../../src/job-files/claims/transaction-identity.js';
import type { RowRecord } from '../../../src/job-files/import/records.js';

/**
 * A claim found under our id is adopted only when it holds the rows' own transactions.
 * The rows as the journal holds them; the claim as a retrieve returns it (the card inside each
 * case's transaction, times as date-times).
 */

const shared = JSON.stringify({ card: { last4: '4242', network: 'visa' }, dispute: { reason: 'fraud' } });
const transaction = { amount: 1000, currency: 'EUR', date: '2026-10-01T00:00:00.000Z', arn: '74123456789012345678901' };

function row(idx: number, caseId: string, overrides: { transaction?: object; reported?: string } = {}): RowRecord {
  return {
    idx,
    line: idx + 2,
    case_id: caseId,
    case_json: JSON.stringify({
      dispute: { amount: 1000, currency: 'EUR' },
      transaction: { ...transaction, ...overrides.transaction },
    }),
    reported_case_id: overrides.reported ?? null,
    outcome: null,
  } as RowRecord;
}

function held(cases: { case_id: string; transaction?: object; last4?: string }[]): Claim {
  return {
    claim_id: 'clm_x',
    status: 'filed',
    cases: cases.map((item) => ({
      case_id: item.case_id,
      transaction: {
        ...transaction,
        date: '2026-10-01T00:00:00Z',
        ...item.transaction,
        card: { last4: item.last4 ?? '4242', network: 'visa' },
      },
    })),
  };
}

const ownership = (found: Claim, rows: RowRecord[]) => claimOwnership(found, intendedFromRows(rows, shared), rows);

describe('claimOwnership', () => {
  it("adopts a claim holding the rows' transactions, the dates as the service writes them", () => {
    expect(ownership(held([{ case_id: 'c-1' }, { case_id: 'c-2' }]), [row(0, 'c-1'), row(1, 'c-2')])).toEqual({
      ours: true,
    });
  });

  it('refuses another dispute under the key, field by field, on every row of the claim', () => {
    const found = held([
      { case_id: 'c-1', transaction: { amount: 2500, arn: '74999999999999999999999' }, last4: '1111' },
      { case_id: 'c-2' },
    ]);
    const result = ownership(found, [row(0, 'c-1'), row(1, 'c-2')]);
    expect(result.ours).toBe(false);
    if (result.ours) return;
    expect(result.problems.get(0)).toMatchObject({ code: 'claim_key_taken', field: 'claim.key' });
    expect(result.problems.get(0)?.message).toContain(
      'differs in case.transaction.arn, case.transaction.amount, shared.card.last4',
    );
    // The row whose case agrees is not reported on the claim either: it is refused with the claim.
    expect(result.problems.get(1)?.message).toContain(
      "this row's case agrees, but line 2's case c-1 is another transaction there",
    );
    expect(result.claimProblem.message).toContain(
      "claim clm_x: expected this claim's transactions, got another dispute",
    );
  });

  it("refuses a claim that holds none of the rows' cases", () => {
    const result = ownership(held([{ case_id: 'other-1' }]), [row(0, 'c-1')]);
    expect(result).toMatchObject({ ours: false, claimProblem: { code: 'claim_key_taken', field: 'claim.key' } });
  });

  it("adopts a claim that lacks a later row's case when the others agree (claim_exists_without_case decides that row)", () => {
    expect(ownership(held([{ case_id: 'c-1' }]), [row(0, 'c-1'), row(1, 'c-2')])).toEqual({ ours: true });
  });

  it("takes a fed-back row's corrected amount and ARN as fixes of the case its results line reported, never another card", () => {
    const corrected = row(0, 'c-1', {
      transaction: { amount: 100_000, arn: '74123456789012345678999' },
      reported: 'c-1',
    });
    expect(ownership(held([{ case_id: 'c-1' }]), [corrected])).toEqual({ ours: true });
    // The same correction without a results line naming the case proves nothing.
    expect(ownership(held([{ case_id: 'c-1' }]), [{ ...corrected, reported_case_id: null }]).ours).toBe(false);
    // Nor does a results line, when the card is another.
    expect(ownership(held([{ case_id: 'c-1', last4: '0001' }]), [corrected]).ours).toBe(false);
  });

  it('compares a switch serial number when there is no ARN, and a field the service lacks cannot prove anything', () => {
    const serialRow = {
      ...row(0, 'c-1'),
      case_json: JSON.stringify({
        transaction: {
          amount: 1000,
          currency: 'EUR',
          date: '2026-10-01T00:00:00Z',
          network_details: { mastercard: { switch_serial_number: 'SSN1' } },
        },
      }),
    };
    const withSerial = (serial: string) =>
      ({
        claim_id: 'clm_x',
        cases: [
          {
            case_id: 'c-1',
            transaction: {
              amount: 1000,
              currency: 'EUR',
              date: '2026-10-01T00:00:00Z',
              network_details: { mastercard: { switch_serial_number: serial } },
              card: { last4: '4242' },
            },
          },
        ],
      }) as Claim;
    expect(ownership(withSerial('SSN1'), [serialRow])).toEqual({ ours: true });
    expect(ownership(withSerial('SSN2'), [serialRow]).ours).toBe(false);
    expect(ownership({ claim_id: 'clm_x', cases: [{ case_id: 'c-1' }] }, [row(0, 'c-1')]).ours).toBe(false);
  });
});

describe('sameDay', () => {
  it.each([
    ['2026-10-01', '2026-10-01T00:00:00Z', true],
    ['2026-10-01', '2026-10-01T00:00:00+02:00', true],
    ['2026-10-01T00:00:00.000Z', '2026-10-01T02:00:00+02:00', true],
    ['2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z', false],
    ['2026-10-01', '2026-10-02', false],
  ])('%s and %s: %s', (ours, theirs, same) => {
    expect(sameDay(ours, theirs)).toBe(same);
  });
});
