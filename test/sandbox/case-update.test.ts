import { describe, expect, it } from 'vitest';
import { fraudClaim, startTestSandbox } from '../helpers/sandbox.js';
import { createClaim, createFileableCase, expectSimpleError } from './table-helpers.js';

/**
 * PUT /v2/issuer/cases/{case_id} as the service enforces it (a feed-back relies on it): a created
 * case takes the fields sent, nested objects merged field by field; a filed or closed case refuses
 * any change and keeps what it had (the service's filing rules: cases cannot be modified once
 * filed; docs/sandbox.md).
 */

const fix = {
  issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true } },
  merchant: { name: 'Voltmart GmbH' },
};

describe('PUT /v2/issuer/cases/{case_id}', () => {
  it('a created case: 200, only the fields sent change, nested objects merged', async () => {
    const t = await startTestSandbox();
    const body = fraudClaim('upd_created');
    await createClaim(t, { ...body, issuer_evidence: { card: { is_active: true }, cardholder_explanation: 'not me' } });
    const answer = await t.request('PUT', '/v2/issuer/cases/upd_created-case-1', fix);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const { body: held } = await t.request('GET', '/v2/issuer/cases/upd_created-case-1');
    expect(held).toMatchObject({
      status: 'created',
      issuer_evidence: { card: { is_active: false }, fraud: { was_reported: true }, cardholder_explanation: 'not me' },
      merchant: { name: 'Voltmart GmbH', category_code: '5732' },
    });
  });

  it("a filed case: 400 with the service's message, and the case as it was", async () => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'upd_filed');
    expect((await t.request('POST', '/v2/issuer/claims/upd_filed/file', { file_mode: 'chargeback' })).status).toBe(202);
    const before = (await t.request('GET', `/v2/issuer/cases/${caseId}`)).body;
    expectSimpleError(
      await t.request('PUT', `/v2/issuer/cases/${caseId}`, fix),
      400,
      'case has been filed with the card network and cannot be modified',
    );
    expect((await t.request('GET', `/v2/issuer/cases/${caseId}`)).body).toEqual(before);
  });

  it('a closed (withdrawn) case: 400, unchanged', async () => {
    const t = await startTestSandbox();
    const caseId = await createFileableCase(t, 'upd_closed');
    expect((await t.request('POST', '/v2/issuer/claims/upd_closed/withdraw')).status).toBe(202);
    const before = (await t.request('GET', `/v2/issuer/cases/${caseId}`)).body;
    expectSimpleError(
      await t.request('PUT', `/v2/issuer/cases/${caseId}`, fix),
      400,
      'case is closed and cannot be modified',
    );
    expect((await t.request('GET', `/v2/issuer/cases/${caseId}`)).body).toEqual(before);
  });
});
