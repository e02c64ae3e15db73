import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newClaimBody, newClaimCaseSchema } from '../../src/api/schemas/claim.js';

/**
 * Staging checks a later row of a claim on its case alone once the claim's shared fields have
 * passed whole (src/import/stage.ts, WireCheck). That is only right if, for shared fields that
 * pass, the whole body's first issue is always the case's own first issue under `cases.0`: this
 * checks that against the schemas for arbitrary cases.
 */
const shared = {
  claim_id: 'CLM-D-100',
  card: { last4: '4242', network: 'visa', type: 'credit', expiry_month: 9, expiry_year: 2028 },
  cardholder: { name: 'Maya Lindqvist', email: 'maya@example.com', type: 'individual' },
  dispute: { reason: 'fraud', raised_by: 'cardholder', date: '2026-03-15T00:00:00.000Z' },
  issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true }, cardholder_explanation: 'not me' },
};

const firstIssue = (
  issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[],
  prefix: PropertyKey[],
) => {
  const [issue] = issues;
  return issue === undefined
    ? undefined
    : { path: [...prefix, ...issue.path].map(String), message: issue.message, code: issue.code };
};

describe('the wire schema on a claim whose shared fields pass', () => {
  it("gives the case's own first issue, under cases.0", () => {
    expect(
      newClaimBody.safeParse({
        ...shared,
        cases: [
          {
            case_id: 'placeholder',
            transaction: { amount: 1, currency: 'USD', date: '2026-03-01T00:00:00.000Z', arn: 'A' },
          },
        ],
      }).success,
    ).toBe(true);
    const anything = fc.oneof(
      fc.string({ maxLength: 5 }),
      fc.constantFrom('USD', 'usd', '5732', '2026-03-01T00:00:00.000Z', '2026-03-01', 'x'.repeat(300)),
      fc.integer({ min: -5, max: 100_000 }),
      fc.double(),
      fc.boolean(),
    );
    const part = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
    const caseItem = fc.record(
      {
        case_id: part(fc.constantFrom('placeholder', '', 'x'.repeat(200))),
        custom_fields: part(
          fc.dictionary(
            fc.string({ maxLength: 60 }),
            fc.oneof(fc.string({ maxLength: 3 }), fc.constant('y'.repeat(300)), fc.integer()),
            { maxKeys: 30 },
          ),
        ),
        dispute: part(fc.record({ amount: part(anything), currency: part(anything) }, { requiredKeys: [] })),
        merchant: part(
          fc.record(
            { name: part(anything), category_code: part(anything), unknown: part(anything) },
            { requiredKeys: [] },
          ),
        ),
        transaction: part(
          fc.record(
            { amount: part(anything), currency: part(anything), date: part(anything), arn: part(anything) },
            { requiredKeys: [] },
          ),
        ),
        surprise: part(anything),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(caseItem, (item) => {
        const whole = newClaimBody.safeParse({ ...shared, cases: [item] });
        const alone = newClaimCaseSchema.safeParse(item);
        expect(alone.success).toBe(whole.success);
        expect(firstIssue(alone.error?.issues ?? [], ['cases', 0])).toEqual(firstIssue(whole.error?.issues ?? [], []));
      }),
      { numRuns: 3000 },
    );
  });
});
