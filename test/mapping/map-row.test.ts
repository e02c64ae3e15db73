import { fileURLToPath } from 'node:url';
import { genericRow } from './generic-row.js';
import { describe, expect, it } from 'vitest';
import { newClaimBody } from '../../src/api/schemas/claim.js';
import { loadMapping } from '../../src/mapping/load.js';
import { mapRow, type MappedRow } from '../../src/mapping/map-row.js';

const mapping = await loadMapping(fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url)));

/** A row of the generic export, with some cells replaced. */
const row = genericRow;

function mapped(cells: Record<string, string>): MappedRow {
  const result = mapRow(cells, mapping);
  if (!result.ok) throw new Error(`expected a mapped row, got ${JSON.stringify(result.errors)}`);
  return result.row;
}

describe('mapRow through mappings/generic.yaml', () => {
  it('maps a row into shared and case fragments, custom fields and evidence', () => {
    const result = mapped(row());
    expect(result).toEqual({
      claimKey: '["D-100"]',
      claimId: 'CLM-D-100',
      shared: {
        card: { last4: '4242', network: 'visa', type: 'credit', expiry_month: 9, expiry_year: 2028 },
        cardholder: { name: 'Maya Lindqvist', email: 'maya@example.com', type: 'individual' },
        dispute: { reason: 'fraud', raised_by: 'cardholder', date: '2026-03-15T00:00:00.000Z' },
        issuer_evidence: {
          card: { is_active: false },
          fraud: { was_reported: true },
          cardholder_explanation: 'not me',
        },
      },
      case: {
        case_id: 'D-100-T1',
        dispute: { amount: 123456, currency: 'USD' },
        merchant: { name: 'Voltmart', category_code: '5732' },
        transaction: {
          amount: 123456,
          currency: 'USD',
          date: '2026-03-01T00:00:00.000Z',
          arn: '74537604152001234509876',
        },
      },
      customFields: { dispute_ref: 'D-100' },
      evidence: [
        { path: 'receipts/d-100.pdf', category: 'transaction_receipt', column: 'receipt_file' },
        { path: 'mail/1.png', category: 'merchant_correspondence', column: 'correspondence_files' },
        { path: 'mail/2.png', category: 'merchant_correspondence', column: 'correspondence_files' },
      ],
    });
  });

  it('assembles into a new_claim body the strict schema accepts', () => {
    const first = mapped(row());
    const second = mapped(row({ transaction_ref: 'T2', disputed_amount: '10.00', transaction_amount: '10.00' }));
    expect(second.claimKey).toBe(first.claimKey);
    const body = {
      claim_id: first.claimId,
      ...first.shared,
      cases: [first, second].map((item) => ({ ...item.case, custom_fields: item.customFields })),
    };
    const parsed = newClaimBody.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it.each([
    ['a bad amount', { disputed_amount: '9,99' }, 'case.dispute.amount', 'amount_format'],
    ['an unmapped reason code', { reason_code: 'XX' }, 'shared.dispute.reason', 'enum_unmapped'],
    ['a missing required cell', { arn: '  ' }, 'case.transaction.arn', 'required_missing'],
    ['an impossible date', { transaction_date: '2026-02-30' }, 'case.transaction.date', 'date_invalid'],
    ['a blank claim key', { dispute_ref: '' }, 'claim.key', 'required_missing'],
  ])('%s is a row error naming the field', (_name, overrides, field, code) => {
    const result = mapRow(row(overrides), mapping);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toContainEqual(
      expect.objectContaining({ field, code, message: expect.stringMatching(/expected/) as unknown }),
    );
  });

  it('leaves blank optional cells out, and says which column a file lacks', () => {
    expect(mapped(row({ cardholder_email: '', merchant_name: '' })).shared.cardholder).toEqual({
      name: 'Maya Lindqvist',
      type: 'individual',
    });
    const { mcc: _mcc, ...withoutMcc } = row();
    const result = mapRow(withoutMcc, mapping);
    expect(result).toMatchObject({
      ok: false,
      errors: [{ field: 'case.merchant.category_code', message: 'expected a column "mcc" in the file, got none' }],
    });
  });
});
