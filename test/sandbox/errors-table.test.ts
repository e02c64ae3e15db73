import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../helpers/sandbox.js';
import {
  caseState,
  createClaim,
  createFileableCase,
  expectSimpleError,
  expectSuccess,
  receiptlessClaim,
  waitForReview,
} from './table-helpers.js';

/**
 * The error cases the service names for run_workflow, withdraw and delete, one real-HTTP test per
 * case (11): the exact status and the exact body, messages word for word. Raw requests, so nothing
 * is hidden by the client.
 */

describe('Errors / Known cases', () => {
  describe('run_workflow', () => {
    it('400 workflow already owns the case: "workflow is already running for this case"', async () => {
      const t = await startTestSandbox({ workflowDelayMs: 60_000 });
      const caseId = await createFileableCase(t, 'er_running');
      expectSuccess(await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`), 202);

      expectSimpleError(
        await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`),
        400,
        'workflow is already running for this case',
      );
    });

    it('400 case already queued for filing: "case is already queued for filing"', async () => {
      // A rules file whose outcome is `queue`: the first evaluation leaves the case queued.
      const t = await startTestSandbox({ rules: { rules: [], default: 'queue' }, workflowDelayMs: 10 });
      const caseId = await createFileableCase(t, 'er_queued');
      expectSuccess(await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`), 202);
      await expect
        .poll(async () => (await t.request('GET', `/v2/issuer/cases/${caseId}/review`)).body)
        .toMatchObject({ status: 'complete' });

      expectSimpleError(
        await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`),
        400,
        'case is already queued for filing',
      );
      expect(await caseState(t, caseId)).toEqual({ status: 'created', closed_reason: null });
    });

    it('400 case already closed: "case is already closed"', async () => {
      const t = await startTestSandbox();
      const caseId = await createFileableCase(t, 'er_closed');
      expectSuccess(await t.request('POST', `/v2/issuer/cases/${caseId}/withdraw`), 202);

      expectSimpleError(
        await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`),
        400,
        'case is already closed',
      );
    });

    it('400 case failed validation: "case failed validation" with a documentation_missing item for transaction_receipt', async () => {
      const t = await startTestSandbox();
      // product_not_as_described needs the transaction receipt; no documentation is attached.
      await createClaim(t, receiptlessClaim('er_invalid'));

      const answer = await t.request('POST', '/v2/issuer/cases/er_invalid-case-1/run_workflow');
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: {
          message: 'case failed validation',
          errors: [
            {
              code: 'documentation_missing',
              details: { file_category: 'transaction_receipt' },
              message: 'product_not_as_described: a transaction receipt is required',
            },
          ],
        },
      });
      // The review reports the same problem as filing_errors.
      const review = await waitForReview(t, 'er_invalid-case-1');
      expect(review.filing_errors).toEqual((answer.body as { errors: unknown }).errors);
    });

    it('404 unknown case: "case not found"', async () => {
      const t = await startTestSandbox();
      expectSimpleError(await t.request('POST', '/v2/issuer/cases/case_nobody/run_workflow'), 404, 'case not found');
    });

    it('503 case temporarily unavailable: "case is temporarily unavailable for filing; retry later"', async () => {
      const t = await startTestSandbox({ control: true });
      const caseId = await createFileableCase(t, 'er_unavailable');
      const control = await t.request('POST', `/_sandbox/cases/${caseId}/unavailable`, { unavailable: true });
      expect({ status: control.status, body: control.body }).toEqual({
        status: 200,
        body: { case_id: caseId, unavailable: true },
      });

      expectSimpleError(
        await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`),
        503,
        'case is temporarily unavailable for filing; retry later',
      );
      expect(await caseState(t, caseId)).toEqual({ status: 'created', closed_reason: null });

      // Available again: the same call is accepted.
      await t.request('POST', `/_sandbox/cases/${caseId}/unavailable`, { unavailable: false });
      expectSuccess(await t.request('POST', `/v2/issuer/cases/${caseId}/run_workflow`), 202);
    });
  });

  describe('claim withdraw', () => {
    it('400 claim already closed: "cannot withdraw a claim that is already closed"', async () => {
      const t = await startTestSandbox();
      await createFileableCase(t, 'er_claim_closed');
      expectSuccess(await t.request('POST', '/v2/issuer/claims/er_claim_closed/withdraw'), 202);

      expectSimpleError(
        await t.request('POST', '/v2/issuer/claims/er_claim_closed/withdraw'),
        400,
        'cannot withdraw a claim that is already closed',
      );
    });

    it('404 unknown claim: "claim not found"', async () => {
      const t = await startTestSandbox();
      expectSimpleError(await t.request('POST', '/v2/issuer/claims/claim_nobody/withdraw'), 404, 'claim not found');
    });
  });

  describe('case withdraw', () => {
    it('400 case already closed: "cannot withdraw a case that is already closed"', async () => {
      const t = await startTestSandbox();
      const caseId = await createFileableCase(t, 'er_case_closed');
      expectSuccess(await t.request('POST', `/v2/issuer/cases/${caseId}/withdraw`), 202);

      expectSimpleError(
        await t.request('POST', `/v2/issuer/cases/${caseId}/withdraw`),
        400,
        'cannot withdraw a case that is already closed',
      );
    });

    it('404 unknown case: "case not found"', async () => {
      const t = await startTestSandbox();
      expectSimpleError(await t.request('POST', '/v2/issuer/cases/case_nobody/withdraw'), 404, 'case not found');
    });
  });

  describe('case delete', () => {
    it('400 case filed with the card network: "case has been filed with the card network and cannot be deleted"', async () => {
      const t = await startTestSandbox();
      const caseId = await createFileableCase(t, 'er_delete_filed');
      const filed = await t.request('POST', '/v2/issuer/claims/er_delete_filed/file', { file_mode: 'chargeback' });
      expect({ status: filed.status, body: filed.body }).toEqual({
        status: 202,
        body: { results: [{ case_id: caseId, success: true }] },
      });

      expectSimpleError(
        await t.request('DELETE', `/v2/issuer/cases/${caseId}`),
        400,
        'case has been filed with the card network and cannot be deleted',
      );
    });
  });
});
