import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  caseDocument,
  caseDocumentWriter,
  type NewClaim,
  type NewClaimCase,
} from '../../src/sandbox/handlers/case-document.js';

/**
 * new_claim writes each case's JSON without building the merged object: it must be byte for byte
 * what JSON.stringify of that object gives, for any body, valid or not (the writer does not rely on
 * validation), with fields absent, in any order, and with the keys a spread would overwrite in
 * place.
 */

const text = fc.string({ unit: 'binary', maxLength: 12 });
/** Objects as JSON.parse makes them: any keys (`__proto__` included), JSON values. */
const jsonObject = fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const isoDate = fc
  .date({ min: new Date('1970-01-01'), max: new Date('2199-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString());
const optional = <Value>(arbitrary: fc.Arbitrary<Value>) => fc.option(arbitrary, { nil: undefined });

/** A body's shared fields and its cases, keys in a shuffled order, some absent. */
const shuffled = (record: Record<string, unknown>) =>
  fc
    .shuffledSubarray(Object.keys(record), { minLength: Object.keys(record).length })
    .map((keys) =>
      Object.fromEntries(keys.filter((key) => record[key] !== undefined).map((key) => [key, record[key]])),
    );

const caseItem = fc
  .record({
    case_id: optional(text),
    program_id: optional(fc.option(text, { nil: null })),
    custom_fields: optional(fc.dictionary(text, text, { maxKeys: 3 })),
    dispute: optional(
      fc.oneof(
        jsonObject,
        fc.record({ amount: fc.integer(), currency: text, date: optional(isoDate), reason: optional(text) }),
      ),
    ),
    merchant: optional(jsonObject),
    transaction: fc.oneof(
      fc.record({ amount: fc.integer(), currency: text, date: fc.oneof(isoDate, text), arn: optional(text) }),
      fc.record({ date: isoDate, card: jsonObject, system: text }),
    ),
  })
  .chain(shuffled);

const body = fc
  .record({
    claim_id: optional(text),
    card: optional(jsonObject),
    cardholder: optional(jsonObject),
    dispute: optional(fc.record({ date: optional(isoDate), raised_by: optional(text), reason: optional(text) })),
    reason: optional(text),
    issuer_evidence: optional(jsonObject),
    cases: fc.array(caseItem, { minLength: 1, maxLength: 3 }),
  })
  .chain(shuffled);

describe('caseDocumentWriter', () => {
  it('writes JSON.stringify(caseDocument(...)) byte for byte', () => {
    fc.assert(
      fc.property(body, text, isoDate, (generated, claimId, created) => {
        const claim = generated as unknown as NewClaim;
        const write = caseDocumentWriter(claim, claimId, created);
        claim.cases.forEach((item: NewClaimCase, index) => {
          const caseId = item.case_id ?? `case_${index}`;
          expect(write(item, caseId)).toBe(JSON.stringify(caseDocument(claim, item, { caseId, claimId, created })));
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the stored shape of a typical case', () => {
    const claim = {
      claim_id: 'CLM-1',
      card: { last4: '4242', network: 'visa' },
      dispute: { date: '2026-11-01T00:00:00.000Z', raised_by: 'cardholder', reason: 'fraud' },
      cases: [
        {
          case_id: 'CASE-1',
          dispute: { amount: 1250, currency: 'USD' },
          transaction: { amount: 1250, currency: 'USD', date: '2026-10-01T00:00:00.000Z', arn: '7' },
        },
      ],
    } as NewClaim;
    const [item] = claim.cases;
    if (item === undefined) throw new Error('expected a case');
    expect(JSON.parse(caseDocumentWriter(claim, 'CLM-1', '2026-11-02T00:00:00.000Z')(item, 'CASE-1'))).toEqual({
      case_id: 'CASE-1',
      claim_id: 'CLM-1',
      created: '2026-11-02T00:00:00.000Z',
      status: 'created',
      closed_reason: null,
      review_status: null,
      resolution_due_date: '2027-01-29T00:00:00.000Z',
      program_id: null,
      reason: 'fraud',
      custom_fields: {},
      dispute: {
        amount: 1250,
        currency: 'USD',
        date: '2026-11-01T00:00:00.000Z',
        raised_by: 'cardholder',
        reason: 'fraud',
      },
      transaction: {
        amount: 1250,
        currency: 'USD',
        date: '2026-10-01T00:00:00.000Z',
        arn: '7',
        card: { last4: '4242', network: 'visa' },
      },
      issuer_evidence: {},
    });
  });
});
