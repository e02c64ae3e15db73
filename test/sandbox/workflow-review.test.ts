import { describe, expect, it } from 'vitest';
import { caseReviewSchema } from '../../src/api/schemas/index.js';
import { fraudClaim, startTestSandbox } from '../helpers/sandbox.js';

const flagOver10000 = {
  rules: [{ name: 'large', when: { amount_over: 10_000 }, outcome: 'flag_for_review' as const }],
  default: 'file_chargeback' as const,
};

describe('filing validation and review', () => {
  it('a complete case files; a fraud case with an active card does not, and its review says why', async () => {
    const { client } = await startTestSandbox();
    await client.claims.createWithCases(fraudClaim('ok'));
    const activeCard = {
      ...fraudClaim('bad'),
      issuer_evidence: { card: { is_active: true }, fraud: { was_reported: true } },
    };
    await client.claims.createWithCases(activeCard);

    expect((await client.claims.file('ok', { file_mode: 'auto' })).data.results).toEqual([
      { case_id: 'ok-case-1', success: true },
    ]);
    expect((await client.claims.file('bad', { file_mode: 'chargeback' })).data.results).toEqual([
      { case_id: 'bad-case-1', success: false },
    ]);
    const review = (await client.cases.review('bad-case-1')).data;
    expect(review).toMatchObject({
      status: 'complete',
      filing_errors: [
        {
          code: 'parameter_missing',
          details: { field: 'issuer_evidence.card.is_active' },
          message: 'fraud: the card must be cancelled (issuer_evidence.card.is_active false)',
        },
      ],
      fraud_liability: { liable_party: 'merchant' },
    });
    expect(caseReviewSchema.safeParse(review).error?.issues ?? []).toEqual([]);
  });

  it('auto mode with "amount over 10000 → flag for review" flags the large case and files the other', async () => {
    const { client } = await startTestSandbox({ rules: flagOver10000 });
    const claim = fraudClaim('mixed', 2);
    const cases = claim.cases.map((item, index) =>
      index === 1 ? { ...item, dispute: { amount: 15_000, currency: 'USD' } } : item,
    );
    await client.claims.createWithCases({ ...claim, cases });

    const filed = await client.claims.file('mixed', { file_mode: 'auto' });
    expect(filed.data.results).toEqual([
      { case_id: 'mixed-case-1', success: true },
      { case_id: 'mixed-case-2', success: false },
    ]);
    expect((await client.cases.retrieve('mixed-case-2')).data).toMatchObject({
      status: 'created',
      review_status: 'chargeback_needs_review',
    });
    expect((await client.cases.review('mixed-case-2')).data).toMatchObject({
      workflow: { outcome: 'flag_for_review' },
    });
    const types = (await client.events.list({ limit: 100 })).data.data.map(
      (event) => `${event.type} ${event.data.case_id}`,
    );
    expect(types).toContain('case.chargeback_needs_review mixed-case-2');
    // chargeback mode files regardless of the rules.
    expect((await client.cases.file('mixed-case-2', { file_mode: 'chargeback' })).data).toEqual({ success: true });
  });

  it('two concurrent run_workflow calls give one 202 and one 400; the review goes processing → complete', async () => {
    const { client, request } = await startTestSandbox({ workflowDelayMs: 2000 });
    await client.claims.createWithCases(fraudClaim('wf'));
    const answers = await Promise.all([
      request('POST', '/v2/issuer/cases/wf-case-1/run_workflow'),
      request('POST', '/v2/issuer/cases/wf-case-1/run_workflow'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toEqual({
      message: 'workflow is already running for this case',
    });
    expect((await client.cases.review('wf-case-1')).data).toEqual({ status: 'processing' });
    await expect.poll(async () => (await client.cases.review('wf-case-1')).data.status).toBe('complete');
    expect((await client.cases.retrieve('wf-case-1')).data.status).toBe('chargeback_filed');
  });

  it('a queue outcome leaves the case queued: run_workflow then says so', async () => {
    const { client, request } = await startTestSandbox({ rules: { rules: [], default: 'queue' }, workflowDelayMs: 10 });
    await client.claims.createWithCases(fraudClaim('q'));
    await client.cases.runWorkflow('q-case-1');
    await expect
      .poll(async () => (await request('POST', '/v2/issuer/cases/q-case-1/run_workflow')).body)
      .toEqual({ message: 'case is already queued for filing' });
    expect((await client.cases.retrieve('q-case-1')).data.status).toBe('created');
  });
});

describe('test-mode magic values (sandbox environment only)', () => {
  const magicClaim = (claimId: string, explanation: string) => ({
    ...fraudClaim(claimId),
    issuer_evidence: {
      card: { is_active: false },
      fraud: { was_reported: true },
      cardholder_explanation: 'not me',
      issuer_explanation: explanation,
    },
  });

  it('valid_evidence / invalid_evidence force the conditions; issuer_liable the liability; invalid_document the verdict', async () => {
    const { client } = await startTestSandbox();
    const upload = await client.files.upload({
      category: 'invalid_document',
      filename: 'x.pdf',
      contentType: 'application/pdf',
      content: Buffer.from(
        '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF',
      ),
    });
    const claim = magicClaim('m1', 'valid_evidence issuer_liable');
    await client.claims.createWithCases({
      ...claim,
      issuer_evidence: { ...claim.issuer_evidence, documentation: [upload.data.id] },
    });
    await client.claims.createWithCases(magicClaim('m2', 'invalid_evidence'));

    expect((await client.cases.review('m1-case-1')).data).toMatchObject({
      conditions_review: { meets_conditions: true, conditions_met: ['cardholder_dispute'], conditions_not_met: [] },
      fraud_liability: { liable_party: 'issuer' },
      documentation_review: { files: [{ id: upload.data.id, category: 'invalid_document', verdict: 'invalid' }] },
    });
    expect((await client.cases.review('m2-case-1')).data).toMatchObject({
      conditions_review: { meets_conditions: false, conditions_not_met: ['cardholder_dispute'] },
    });
  });

  it('has no effect for a live key', async () => {
    const { live } = await startTestSandbox();
    await live.claims.createWithCases(magicClaim('m3', 'invalid_evidence issuer_liable'));
    expect((await live.cases.review('m3-case-1')).data).toMatchObject({
      conditions_review: { meets_conditions: true },
      fraud_liability: { liable_party: 'merchant' },
    });
  });
});
