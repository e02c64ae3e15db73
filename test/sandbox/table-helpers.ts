import { expect } from 'vitest';
import { validationErrorSchema } from '../../src/api/schemas/errors.js';
import { fraudClaim, recentDate, type TestSandbox } from '../helpers/sandbox.js';

/** Shared by the table tests: raw answers, the two error shapes, and case/claim lookups. */

export type Answer = Awaited<ReturnType<TestSandbox['request']>>;

/** The status and the whole body: the simple error shape, word for word. */
export function expectSimpleError(answer: Answer, status: number, message: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { message } });
}

/** The status and the whole body: `{success: true}`. */
export function expectSuccess(answer: Answer, status: number): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { success: true } });
}

/**
 * A 400 with the validation shape (`message` + `errors[{code, details, message}]`, nothing else),
 * naming each of `fields` in some item's `details.field`. Returns the items for closer checks.
 */
export function expectValidationError(answer: Answer, fields: string[]) {
  expect(answer.status).toBe(400);
  const parsed = validationErrorSchema.safeParse(answer.body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  const body = validationErrorSchema.parse(answer.body);
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const item of body.errors) expect(item.message.length).toBeGreaterThan(0);
  const named = body.errors.map((item) => item.details.field);
  for (const field of fields) expect(named).toContain(field);
  return body;
}

export interface CaseSummary {
  status: unknown;
  closed_reason: unknown;
}

/** GET /v2/issuer/cases/{id}: 200, and the fields the tables are about. */
export async function caseState(t: TestSandbox, caseId: string): Promise<CaseSummary> {
  const answer = await t.request('GET', `/v2/issuer/cases/${caseId}`);
  expect(answer.status).toBe(200);
  const body = answer.body as Record<string, unknown>;
  expect(body.case_id).toBe(caseId);
  return { status: body.status, closed_reason: body.closed_reason };
}

/** GET /v2/issuer/claims/{id}: 200, and the claim's status. */
export async function claimStatus(t: TestSandbox, claimId: string): Promise<unknown> {
  const answer = await t.request('GET', `/v2/issuer/claims/${claimId}`);
  expect(answer.status).toBe(200);
  return (answer.body as Record<string, unknown>).status;
}

/** new_claim through raw HTTP, expecting 201. */
export async function createClaim(t: TestSandbox, body: object): Promise<void> {
  const answer = await t.request('POST', '/v2/issuer/new_claim', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

/** A one-case fraud claim that passes filing validation; returns the case id. */
export async function createFileableCase(t: TestSandbox, claimId: string): Promise<string> {
  await createClaim(t, fraudClaim(claimId));
  return `${claimId}-case-1`;
}

/** A one-case claim whose reason needs a transaction receipt, with no documentation attached. */
export function receiptlessClaim(claimId: string) {
  return {
    ...fraudClaim(claimId),
    dispute: { reason: 'product_not_as_described' as const, raised_by: 'cardholder' as const, date: recentDate },
    issuer_evidence: {},
  };
}

/** A fraud claim whose card is still active: fails filing validation. */
export function activeCardClaim(claimId: string) {
  return { ...fraudClaim(claimId), issuer_evidence: { card: { is_active: true }, fraud: { was_reported: true } } };
}

/** Polls the review until it is no longer `processing` (run_workflow evaluates for workflowDelayMs). */
export async function waitForReview(t: TestSandbox, caseId: string): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        const answer = await t.request('GET', `/v2/issuer/cases/${caseId}/review`);
        expect(answer.status).toBe(200);
        body = answer.body as Record<string, unknown>;
        return body.status;
      },
      { timeout: 5_000, interval: 20 },
    )
    .toBe('complete');
  return body;
}

/** A string one character over the 126-character id limit. */
export const idOver126 = 'x'.repeat(127);
export const idAt126 = 'y'.repeat(126);
