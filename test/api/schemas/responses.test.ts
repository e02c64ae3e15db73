import { describe, expect, it } from 'vitest';
import {
  caseResponse,
  caseReviewResponse,
  caseReviewSchema,
  caseSchema,
  claimResponse,
  claimSchema,
  claimSummaryResponse,
  claimSummarySchema,
  errorBodyResponse,
  eventResponse,
  eventSchema,
  fileClaimResultResponse,
  fileResponse,
  fileSchema,
  listPage,
  simpleErrorSchema,
  successResponse,
  validationErrorSchema,
} from '../../../src/api/schemas/index.js';
import { REMOVE, at, edit, edits, fixture, issuePaths, parseOk } from './helpers.js';

/** What the service answers, as its documented examples show it (endpoints, errors). */

describe('claim with cases (POST /v2/issuer/new_claim response)', () => {
  const claim = fixture('claim-with-cases');
  /** The claim as parsed: each case also carries the reason at the top level. */
  const mirrored = edits(claim, [
    [['cases', 0, 'reason'], 'product_not_received'],
    [['cases', 1, 'reason'], 'product_not_received'],
  ]);

  it.each([
    ['claimResponse (tolerant)', claimResponse],
    ['claimSchema (strict)', claimSchema],
  ] as const)('parses with %s, keeping every field and mirroring the reason to the top level', (_name, schema) => {
    expect(parseOk(schema, claim)).toEqual(mirrored);
  });

  it('gives the merged dispute, the shared card inside each transaction and the visa network details', () => {
    const parsed = parseOk(claimResponse, claim);
    const [first, second] = parsed.cases ?? [];
    expect(first?.dispute).toEqual({
      amount: 12999,
      currency: 'USD',
      date: '2024-05-14T09:30:00Z',
      raised_by: 'cardholder',
      reason: 'product_not_received',
    });
    expect(first?.reason).toBe(first?.dispute?.reason);
    expect(second?.transaction?.card).toEqual(at(claim, ['cases', 0, 'transaction', 'card']));
    expect(second?.transaction?.network_details?.visa).toMatchObject({
      transaction_id: '584102937499871',
      cvv_check: 'pass',
    });
    expect(parsed.cases?.map((item) => item.status)).toEqual(['created', 'created']);
  });

  it('refuses a case whose dispute amount is not an integer (strict), which the tolerant reading lets through', () => {
    const decimal = edit(claim, ['cases', 0, 'dispute', 'amount'], 129.99);
    expect(issuePaths(claimSchema, decimal)).toEqual([['cases', 0, 'dispute', 'amount']]);
    expect(claimResponse.safeParse(decimal).success).toBe(true);
  });
});

describe('claim from existing cases (POST /v2/issuer/claims, PUT .../cases)', () => {
  it('reads cases that hold only case_id, strictly and tolerantly, without inventing a reason', () => {
    const created = {
      claim_id: 'CLM-2024-000190',
      created: '2024-05-22T09:00:00Z',
      status: 'open',
      cases: [{ case_id: 'CASE-2024-000177-1' }],
    };
    expect(parseOk(claimSchema, created)).toEqual(created);
    expect(parseOk(claimResponse, created)).toEqual(created);
    const replaced = {
      claim_id: 'CLM-2024-000190',
      cases: [{ case_id: 'CASE-2024-000171-1' }, { case_id: 'CASE-2024-000177-1' }],
    };
    expect(parseOk(claimSchema, replaced)).toEqual(replaced);
  });
});

describe('GET /v2/issuer/claims and GET /v2/issuer/cases list pages', () => {
  it('reads the claims page with listPage(claimSummaryResponse) and listPage(claimSummarySchema)', () => {
    const page = fixture('claims-page');
    const parsed = parseOk(listPage(claimSummaryResponse), page);
    expect(parsed.has_more).toBe(true);
    expect(parsed.data.map((claim) => claim.status)).toEqual(['open', 'filed', 'open']);
    expect(parseOk(listPage(claimSummarySchema), page)).toEqual(page);
  });

  it('refuses a claims page whose has_more is missing', () => {
    const truncated = edit(fixture('claims-page'), ['has_more'], REMOVE);
    expect(issuePaths(listPage(claimSummaryResponse), truncated)).toEqual([['has_more']]);
  });

  it('reads the cases page with resolution_due_date, and mirrors the reason both ways', () => {
    const page = fixture('cases-page');
    for (const schema of [listPage(caseResponse), listPage(caseSchema)]) {
      const [filed, withdrawn] = parseOk(schema, page).data;
      expect(filed?.resolution_due_date).toBe('2024-06-01T10:20:31Z');
      // Older style: top-level reason only, copied into the dispute.
      expect(filed?.dispute?.reason).toBe('fraud');
      // Newer style: dispute.reason only, copied to the top level.
      expect(withdrawn?.reason).toBe('product_not_as_described');
      expect(withdrawn).toMatchObject({ status: 'closed', closed_reason: 'withdrawn', program_id: null });
      expect(filed?.issuer_evidence?.card?.possession_at_transaction).toBe('had_possession');
    }
  });

  it('prefers dispute.reason, the newer place, when the two disagree', () => {
    const [filed] = parseOk(listPage(caseResponse), fixture('cases-page')).data;
    const disagreeing = { ...filed, reason: 'fraud', dispute: { ...filed?.dispute, reason: 'duplicate_charge' } };
    expect(parseOk(caseResponse, disagreeing)).toMatchObject({
      reason: 'duplicate_charge',
      dispute: { reason: 'duplicate_charge' },
    });
  });
});

describe('case review result (GET /v2/issuer/cases/{case_id}/review)', () => {
  const complete = fixture('review-complete');
  const processing = fixture('review-processing');

  it('reads the complete review with caseReviewResponse and caseReviewSchema', () => {
    expect(parseOk(caseReviewSchema, complete)).toEqual(complete);
    const parsed = parseOk(caseReviewResponse, complete);
    expect(parsed.workflow?.outcome).toBe('file_chargeback');
    expect(parsed.conditions_review?.conditions_met).toEqual(['cardholder_dispute', 'prior_transaction_details']);
  });

  it('reads the processing review, whose data is still incomplete', () => {
    expect(parseOk(caseReviewResponse, processing)).toEqual({ status: 'processing' });
    expect(caseReviewSchema.safeParse(processing).success).toBe(true);
  });

  it('reads filing_errors with the documented codes and details', () => {
    const failing = edit(
      complete,
      ['filing_errors'],
      [
        {
          code: 'parameter_missing',
          message: 'expected issuer_evidence.fraud.was_reported, got nothing',
          details: { field: 'issuer_evidence.fraud.was_reported' },
        },
        {
          code: 'documentation_missing',
          message: 'expected a transaction_receipt, got none',
          details: { file_category: 'transaction_receipt' },
        },
      ],
    );
    expect(parseOk(caseReviewSchema, failing).filing_errors?.map((error) => error.code)).toEqual([
      'parameter_missing',
      'documentation_missing',
    ]);
  });

  it('refuses a review without status, and a meets_conditions that is not a boolean', () => {
    expect(issuePaths(caseReviewResponse, edit(processing, ['status'], REMOVE))).toEqual([['status']]);
    const wrongType = edit(complete, ['conditions_review', 'meets_conditions'], 'yes');
    expect(issuePaths(caseReviewResponse, wrongType)).toEqual([['conditions_review', 'meets_conditions']]);
  });

  it('strictly refuses a condition type the document does not name', () => {
    const invented = edit(complete, ['conditions_review', 'conditions_not_met'], ['merchant_vanished']);
    expect(issuePaths(caseReviewSchema, invented)).toEqual([['conditions_review', 'conditions_not_met', 0]]);
  });
});

describe('error bodies (as the service documents them)', () => {
  const simple = fixture('error-simple');
  const validation = fixture('error-validation');

  it.each([
    'workflow is already running for this case',
    'case is already queued for filing',
    'case is already closed',
    'case not found',
    'case is temporarily unavailable for filing; retry later',
    'cannot withdraw a claim that is already closed',
    'claim not found',
    'cannot withdraw a case that is already closed',
    'case has been filed with the card network and cannot be deleted',
  ])('reads the simple body "%s" strictly and tolerantly', (message) => {
    expect(parseOk(simpleErrorSchema, { message })).toEqual({ message });
    expect(parseOk(errorBodyResponse, { message })).toEqual({ message });
  });

  it('reads the simple fixture', () => {
    expect(parseOk(simpleErrorSchema, simple)).toEqual(simple);
    expect(parseOk(errorBodyResponse, simple).errors).toBeUndefined();
  });

  it('reads the validation body "case failed validation" strictly and tolerantly', () => {
    expect(parseOk(validationErrorSchema, validation)).toEqual(validation);
    const parsed = parseOk(errorBodyResponse, validation);
    expect(parsed.message).toBe('case failed validation');
    expect(parsed.errors?.[0]).toMatchObject({
      code: 'documentation_missing',
      details: { file_category: 'transaction_receipt' },
    });
  });

  it('keeps the two shapes apart when strict', () => {
    expect(simpleErrorSchema.safeParse(validation).success).toBe(false);
    expect(issuePaths(validationErrorSchema, simple)).toEqual([['errors']]);
    expect(issuePaths(validationErrorSchema, edit(validation, ['errors', 0, 'code'], REMOVE))).toEqual([
      ['errors', 0, 'code'],
    ]);
  });

  it('refuses, even tolerantly, a message that is not a string', () => {
    expect(issuePaths(errorBodyResponse, { message: 404 })).toEqual([['message']]);
  });
});

describe('events, files and small answers', () => {
  it('reads the events page with listPage(eventResponse) and listPage(eventSchema)', () => {
    const page = fixture('events-page');
    expect(parseOk(listPage(eventSchema), page)).toEqual(page);
    const parsed = parseOk(listPage(eventResponse), page);
    expect(parsed.data.map((event) => event.type)).toEqual(['case.chargeback_filed', 'case.created']);
    expect(parsed.data[0]?.data.case_id).toBe('CASE-2024-000177-1');
  });

  it('refuses an event without data.case_id', () => {
    const event = at(fixture('events-page'), ['data', 0]);
    expect(issuePaths(eventResponse, edit(event, ['data', 'case_id'], REMOVE))).toEqual([['data', 'case_id']]);
  });

  it('reads the file object, and strictly refuses an undocumented category', () => {
    const file = fixture('file');
    expect(parseOk(fileSchema, file)).toEqual(file);
    expect(parseOk(fileResponse, file).category).toBe('transaction_receipt');
    expect(issuePaths(fileSchema, edit(file, ['category'], 'selfie'))).toEqual([['category']]);
  });

  it('reads the file-claim results and the success answer', () => {
    const results = {
      results: [
        { case_id: 'CASE-2024-000184-1', success: true },
        { case_id: 'CASE-2024-000184-2', success: false },
      ],
    };
    expect(parseOk(fileClaimResultResponse, results)).toEqual(results);
    expect(parseOk(successResponse, { success: true })).toEqual({ success: true });
    expect(issuePaths(successResponse, { success: 'true' })).toEqual([['success']]);
  });
});
