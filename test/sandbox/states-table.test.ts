import { describe, expect, it } from 'vitest';
import { fraudClaim, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  activeCardClaim,
  caseState,
  claimStatus,
  createClaim,
  createFileableCase,
  expectSimpleError,
  expectSuccess,
  expectValidationError,
  waitForReview,
} from './table-helpers.js';

/**
 * The case states and transitions the service names, one real-HTTP test per row of its table
 * (plus the claim status moves the sandbox decides where the service is silent, docs/sandbox.md:
 * open → filed → closed). Every answer is checked for status and whole body, and the resulting
 * case status is read back with retrieve case.
 */

const post = async (t: TestSandbox, path: string, body?: unknown) => t.request('POST', path, body);

/** Files the claim with file_mode chargeback and checks every case succeeded. */
async function fileClaim(t: TestSandbox, claimId: string, caseIds: string[]): Promise<void> {
  const answer = await post(t, `/v2/issuer/claims/${claimId}/file`, { file_mode: 'chargeback' });
  expect({ status: answer.status, body: answer.body }).toEqual({
    status: 202,
    body: { results: caseIds.map((case_id) => ({ case_id, success: true })) },
  });
}

describe('States and transitions', () => {
  it('row 1: created + withdraw claim → closed, closed_reason withdrawn; claim open → closed', async () => {
    const t = await startTestSandbox();
    await createClaim(t, fraudClaim('st_r1', 2));
    expect(await claimStatus(t, 'st_r1')).toBe('open');

    expectSuccess(await post(t, '/v2/issuer/claims/st_r1/withdraw'), 202);
    for (const caseId of ['st_r1-case-1', 'st_r1-case-2']) {
      expect(await caseState(t, caseId)).toEqual({ status: 'closed', closed_reason: 'withdrawn' });
    }
    expect(await claimStatus(t, 'st_r1')).toBe('closed');
  });

  it('row 2: filed case + withdraw claim → lost, closed_reason withdrawn; claim open → filed → closed', async () => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'st_r2');
    expect(await claimStatus(t, 'st_r2')).toBe('open');
    await fileClaim(t, 'st_r2', [caseId]);
    expect(await caseState(t, caseId)).toEqual({ status: 'chargeback_filed', closed_reason: null });
    expect(await claimStatus(t, 'st_r2')).toBe('filed');

    expectSuccess(await post(t, '/v2/issuer/claims/st_r2/withdraw'), 202);
    expect(await caseState(t, caseId)).toEqual({ status: 'lost', closed_reason: 'withdrawn' });
    expect(await claimStatus(t, 'st_r2')).toBe('closed');
  });

  it('rows 1 and 2 together: a claim with one filed and one unfiled case', async () => {
    const t = await startTestSandbox();
    const body = fraudClaim('st_mix', 2);
    // The second case's transaction is outside the 120-day fraud window: it fails validation.
    const old = new Date(Date.now() - 200 * 24 * 60 * 60 * 1000).toISOString();
    await createClaim(t, {
      ...body,
      cases: body.cases.map((item, index) =>
        index === 1 ? { ...item, transaction: { ...item.transaction, date: old } } : item,
      ),
    });
    const filed = await post(t, '/v2/issuer/claims/st_mix/file', { file_mode: 'chargeback' });
    expect({ status: filed.status, body: filed.body }).toEqual({
      status: 202,
      body: {
        results: [
          { case_id: 'st_mix-case-1', success: true },
          { case_id: 'st_mix-case-2', success: false },
        ],
      },
    });
    expect(await claimStatus(t, 'st_mix')).toBe('filed');

    expectSuccess(await post(t, '/v2/issuer/claims/st_mix/withdraw'), 202);
    expect(await caseState(t, 'st_mix-case-1')).toEqual({ status: 'lost', closed_reason: 'withdrawn' });
    expect(await caseState(t, 'st_mix-case-2')).toEqual({ status: 'closed', closed_reason: 'withdrawn' });
    expect(await claimStatus(t, 'st_mix')).toBe('closed');
  });

  it.each([
    // Next state "not shown": the sandbox uses the claim withdrawal's outcome for each.
    { from: 'created', file: false, next: { status: 'closed', closed_reason: 'withdrawn' } },
    { from: 'chargeback_filed', file: true, next: { status: 'lost', closed_reason: 'withdrawn' } },
  ])('row 3: $from + withdraw case → success true, then $next.status', async ({ from, file, next }) => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'st_r3');
    if (file) await fileClaim(t, 'st_r3', [caseId]);
    expect((await caseState(t, caseId)).status).toBe(from);

    expectSuccess(await post(t, `/v2/issuer/cases/${caseId}/withdraw`), 202);
    expect(await caseState(t, caseId)).toEqual(next);
  });

  it.each([
    { how: 'by withdrawing the case', path: '/v2/issuer/cases/st_r4-case-1/withdraw' },
    { how: 'by withdrawing its claim', path: '/v2/issuer/claims/st_r4/withdraw' },
  ])('row 4: closed ($how) + withdraw case → 400, unchanged', async ({ path }) => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'st_r4');
    expectSuccess(await post(t, path), 202);
    const closed = { status: 'closed', closed_reason: 'withdrawn' };
    expect(await caseState(t, caseId)).toEqual(closed);

    expectSimpleError(
      await post(t, `/v2/issuer/cases/${caseId}/withdraw`),
      400,
      'cannot withdraw a case that is already closed',
    );
    expect(await caseState(t, caseId)).toEqual(closed);
  });

  it('row 5: created + delete case → success true, and the case is gone', async () => {
    const t = await startTestSandbox();
    await createClaim(t, fraudClaim('st_r5', 2));

    expectSuccess(await t.request('DELETE', '/v2/issuer/cases/st_r5-case-1'), 200);
    expectSimpleError(await t.request('GET', '/v2/issuer/cases/st_r5-case-1'), 404, 'case not found');
    const claim = await t.request('GET', '/v2/issuer/claims/st_r5');
    expect(claim.status).toBe(200);
    expect((claim.body as { cases: { case_id: string }[] }).cases.map((item) => item.case_id)).toEqual([
      'st_r5-case-2',
    ]);
  });

  it('row 6: filed case + delete case → 400, unchanged', async () => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'st_r6');
    await fileClaim(t, 'st_r6', [caseId]);

    expectSimpleError(
      await t.request('DELETE', `/v2/issuer/cases/${caseId}`),
      400,
      'case has been filed with the card network and cannot be deleted',
    );
    expect(await caseState(t, caseId)).toEqual({ status: 'chargeback_filed', closed_reason: null });
  });

  describe('row 7: created + run workflow or file claim, case passes validation → filed', () => {
    it('run workflow: 202 success true, review processing, then chargeback_filed; claim open → filed', async () => {
      const t = await startTestSandbox();
      const caseId = await createFileableCase(t, 'st_r7w');

      expectSuccess(await post(t, `/v2/issuer/cases/${caseId}/run_workflow`), 202);
      // 202 "does not mean the case was filed": still created while the evaluation runs.
      expect(await caseState(t, caseId)).toEqual({ status: 'created', closed_reason: null });
      const review = await waitForReview(t, caseId);
      expect(review).toMatchObject({ status: 'complete', filing_errors: [], workflow: { outcome: 'file_chargeback' } });
      expect(await caseState(t, caseId)).toEqual({ status: 'chargeback_filed', closed_reason: null });
      expect(await claimStatus(t, 'st_r7w')).toBe('filed');
    });

    it.each(['chargeback', 'auto'])(
      'file claim (file_mode %s): result success true, chargeback_filed; claim → filed',
      async (mode) => {
        const t = await startTestSandbox();
        const caseId = await createFileableCase(t, 'st_r7f');

        const answer = await post(t, '/v2/issuer/claims/st_r7f/file', { file_mode: mode });
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 202,
          body: { results: [{ case_id: caseId, success: true }] },
        });
        expect(await caseState(t, caseId)).toEqual({ status: 'chargeback_filed', closed_reason: null });
        expect(await claimStatus(t, 'st_r7f')).toBe('filed');
      },
    );

    it('file claim, case failing validation (fraud, card still active): success false, not filed; claim stays open', async () => {
      const t = await startTestSandbox();
      await createClaim(t, activeCardClaim('st_r7x'));

      const answer = await post(t, '/v2/issuer/claims/st_r7x/file', { file_mode: 'chargeback' });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 202,
        body: { results: [{ case_id: 'st_r7x-case-1', success: false }] },
      });
      expect(await caseState(t, 'st_r7x-case-1')).toEqual({ status: 'created', closed_reason: null });
      expect(await claimStatus(t, 'st_r7x')).toBe('open');
    });
  });

  describe('row 8: created + run workflow → 400, unchanged', () => {
    it('workflow already running', async () => {
      // A longer evaluation, so the second call surely lands inside it.
      const t = await startTestSandbox({ workflowDelayMs: 2000 });
      const caseId = await createFileableCase(t, 'st_r8r');
      expectSuccess(await post(t, `/v2/issuer/cases/${caseId}/run_workflow`), 202);

      expectSimpleError(
        await post(t, `/v2/issuer/cases/${caseId}/run_workflow`),
        400,
        'workflow is already running for this case',
      );
      expect(await caseState(t, caseId)).toEqual({ status: 'created', closed_reason: null });
      // The refused call leaves the first evaluation alone: it still files the case.
      await waitForReview(t, caseId);
      expect((await caseState(t, caseId)).status).toBe('chargeback_filed');
    });

    it('case already queued for filing', async () => {
      // A rules file whose outcome is `queue`: the evaluation leaves the case queued.
      const t = await startTestSandbox({ rules: { rules: [], default: 'queue' }, workflowDelayMs: 10 });
      const caseId = await createFileableCase(t, 'st_r8q');
      expectSuccess(await post(t, `/v2/issuer/cases/${caseId}/run_workflow`), 202);
      await waitForReview(t, caseId);

      expectSimpleError(
        await post(t, `/v2/issuer/cases/${caseId}/run_workflow`),
        400,
        'case is already queued for filing',
      );
      expect(await caseState(t, caseId)).toEqual({ status: 'created', closed_reason: null });
    });

    it('case already closed', async () => {
      const t = await startTestSandbox();
      const caseId = await createFileableCase(t, 'st_r8c');
      expectSuccess(await post(t, `/v2/issuer/cases/${caseId}/withdraw`), 202);

      expectSimpleError(await post(t, `/v2/issuer/cases/${caseId}/run_workflow`), 400, 'case is already closed');
      expect(await caseState(t, caseId)).toEqual({ status: 'closed', closed_reason: 'withdrawn' });
    });

    it('validation failure (fraud, card still active)', async () => {
      const t = await startTestSandbox();
      await createClaim(t, activeCardClaim('st_r8v'));

      const body = expectValidationError(await post(t, '/v2/issuer/cases/st_r8v-case-1/run_workflow'), [
        'issuer_evidence.card.is_active',
      ]);
      expect(body.message).toBe('case failed validation');
      expect(body.errors).toEqual([
        {
          code: 'parameter_missing',
          details: { field: 'issuer_evidence.card.is_active' },
          message: 'fraud: the card must be cancelled (issuer_evidence.card.is_active false)',
        },
      ]);
      expect(await caseState(t, 'st_r8v-case-1')).toEqual({ status: 'created', closed_reason: null });
      expect(await claimStatus(t, 'st_r8v')).toBe('open');
    });
  });
});
