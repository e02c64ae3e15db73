import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { operations } from '../../src/api/openapi/operations.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { fraudClaim, liveKey, recentDate, sandboxKey } from '../helpers/sandbox.js';
import { v1Case } from '../migrate/fixtures.js';
import { deliberatelyInvalid, startValidatingProxy, type ValidatingProxy } from './validating-proxy.js';

/**
 * The service's flows and the document's tables, through Stoplight Prism's validating proxy in
 * front of a sandbox. Every request is checked against openapi/claims-service.json, and so is every
 * answer, errors included; a violation fails the test that caused it. The requests sent invalid on
 * purpose are marked, and Prism must find them invalid while their 400 still matches the validation
 * shape.
 */

const sample = async (path: string) => readFile(new URL(`../../samples/evidence/${path}`, import.meta.url));
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

let sandbox: Sandbox;
let proxy: ValidatingProxy;
let client: ClaimsClient;

interface Answer {
  status: number;
  body: unknown;
}

/** A raw request through the proxy; `invalid` marks one sent invalid on purpose. */
async function send(
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null; invalid?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.key !== null) headers.authorization = basic(options.key ?? sandboxKey);
  if (options.invalid === true) headers[deliberatelyInvalid] = '1';
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await fetch(`${proxy.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Fails the test with every violation its own exchanges caused. */
function expectNoViolationsSince(mark: number): void {
  const exchanges = proxy.exchanges().slice(mark);
  expect(exchanges.length).toBeGreaterThan(0);
  const found = exchanges.flatMap((exchange) =>
    exchange.violations
      .filter((violation) => !(exchange.deliberatelyInvalid && violation.location[0] === 'request'))
      .map(
        (violation) =>
          `${exchange.method} ${exchange.path} → ${exchange.status}: ${violation.location.join('.')}: ${violation.message}`,
      ),
  );
  expect(found).toEqual([]);
}

beforeAll(async () => {
  // Long enough for a second run_workflow to meet the first one still evaluating, however busy the machine.
  sandbox = await createSandbox({ apiKeys: [sandboxKey, liveKey], workflowDelayMs: 1500, control: true });
  proxy = await startValidatingProxy(sandbox.url);
  client = new ClaimsClient({ baseUrl: proxy.url, apiKey: sandboxKey, retry: { maxAttempts: 1 } });
}, 60_000);

afterAll(async () => {
  await client.close();
  await proxy.close();
  await sandbox.close();
});

// Prism's first answers compile its validators: on a busy machine, seconds.
describe("through Prism's validating proxy (openapi/claims-service.json)", { timeout: 60_000 }, () => {
  it("a claim's life through the client: new_claim, retrieve, lists paged both ways, review, file, events, withdraw", async () => {
    const mark = proxy.exchanges().length;
    const created = await client.claims.createWithCases(fraudClaim('px_life', 2));
    expect(created.data.cases).toHaveLength(2);
    await client.claims.createWithCases({ ...fraudClaim('px_other'), reason: 'fraud', dispute: undefined });
    expect((await client.claims.retrieve('px_life')).data.status).toBe('open');
    const first = await client.claims.list({ limit: 1 });
    const older = await client.claims.list({ limit: 1, starting_after: first.data.data[0]?.claim_id ?? '' });
    await client.claims.list({ limit: 100, ending_before: older.data.data[0]?.claim_id ?? '' });
    const cases = await client.cases.list({ limit: 2 });
    expect(cases.data.data.length).toBe(2);
    await client.cases.retrieve('px_life-case-1');
    expect((await client.cases.review('px_life-case-1')).data.status).toBe('complete');
    const filed = await client.claims.file('px_life', { file_mode: 'chargeback' });
    expect(filed.data.results.every((result) => result.success)).toBe(true);
    const events = await client.events.list({ limit: 5 });
    await client.events.list({ limit: 5, ending_before: events.data.data[0]?.event_id ?? '' });
    await client.claims.withdraw('px_life');
    expect((await client.cases.retrieve('px_life-case-1')).data).toMatchObject({
      status: 'lost',
      closed_reason: 'withdrawn',
    });
    expectNoViolationsSince(mark);
  });

  it('version 1 cases into a claim: v1 create and list, create claim, set its cases, file a case, run_workflow, review', async () => {
    const mark = proxy.exchanges().length;
    for (const id of ['px_v1_a', 'px_v1_b', 'px_v1_c']) await client.v1.cases.create(v1Case(id, id));
    await client.v1.cases.create({
      ...v1Case('px_v1_filed'),
      reason: 'fraud',
      file: 'chargeback',
      issuer_evidence: { card: { active: false }, fraud: { was_reported: true } },
    });
    expect((await client.v1.cases.list({ limit: 10 })).data.data.length).toBeGreaterThanOrEqual(4);
    await client.v1.cases.list({ status: 'created', limit: 2 });
    await client.claims.create({ claim_id: 'px_from_v1', case_ids: ['px_v1_a', 'px_v1_b'] });
    await client.claims.setCases('px_from_v1', { case_ids: ['px_v1_a', 'px_v1_c'] });
    await client.cases.retrieve('px_v1_a');
    await client.cases.file('px_v1_c', { file_mode: 'auto' });
    await client.claims.createWithCases(fraudClaim('px_workflow'));
    await client.cases.runWorkflow('px_workflow-case-1');
    // The review while the workflow evaluates, and after.
    await client.cases.review('px_workflow-case-1');
    await expect.poll(async () => (await client.cases.review('px_workflow-case-1')).data.status).toBe('complete');
    expectNoViolationsSince(mark);
  });

  it('update, delete and withdraw a case; evidence uploads of every kind', async () => {
    const mark = proxy.exchanges().length;
    await client.claims.createWithCases(fraudClaim('px_edit', 3));
    const pdf = await client.files.upload({
      category: 'transaction_receipt',
      filename: 'receipt.pdf',
      contentType: 'application/pdf',
      content: await sample('receipts/cafe-lumiere-receipt.pdf'),
    });
    const png = await client.files.upload({
      category: 'merchant_correspondence',
      filename: 'email.png',
      contentType: 'image/png',
      content: await sample('correspondence/fenwick-furniture-email.png'),
    });
    const jpeg = await client.files.upload({
      category: 'invalid_document',
      filename: 'receipt.jpg',
      contentType: 'image/jpeg',
      content: await sample('receipts/harbour-lane-receipt.jpg'),
    });
    await client.cases.update('px_edit-case-1', {
      custom_fields: { desk: 'b', gone: null },
      issuer_evidence: {
        documentation: [pdf.data.id, png.data.id, jpeg.data.id],
        issuer_explanation: 'valid_evidence merchant_liable',
        card: { is_active: false },
      },
      merchant: { name: 'Voltmart Online' },
    });
    expect((await client.cases.review('px_edit-case-1')).data.documentation_review?.files).toHaveLength(3);
    await client.cases.delete('px_edit-case-2');
    await client.cases.withdraw('px_edit-case-3');
    expectNoViolationsSince(mark);
  });

  it("the Errors table and the sandbox's refusals: valid requests refused, every answer one of the two error shapes", async () => {
    const mark = proxy.exchanges().length;
    await client.claims.createWithCases(fraudClaim('px_err'));
    await client.claims.createWithCases({
      ...fraudClaim('px_err_invalid'),
      issuer_evidence: { card: { is_active: true } },
    });
    const caseId = 'px_err-case-1';
    expect((await send('POST', `/v2/issuer/cases/${caseId}/run_workflow`)).status).toBe(202);
    expect(await send('POST', `/v2/issuer/cases/${caseId}/run_workflow`)).toEqual({
      status: 400,
      body: { message: 'workflow is already running for this case' },
    });
    expect(await send('PUT', `/v2/issuer/cases/${caseId}`, { body: { merchant: { name: 'x' } } })).toMatchObject({
      status: 400,
    });
    expect(await send('POST', '/v2/issuer/cases/px_err_invalid-case-1/run_workflow')).toMatchObject({
      status: 400,
      body: { message: 'case failed validation' },
    });
    expect(await send('POST', '/v2/issuer/cases/case_nobody/run_workflow')).toEqual({
      status: 404,
      body: { message: 'case not found' },
    });
    await fetch(`${sandbox.url}/_sandbox/cases/px_err_invalid-case-1/unavailable`, {
      method: 'POST',
      headers: { authorization: basic(sandboxKey), 'content-type': 'application/json' },
      body: '{"unavailable":true}',
    });
    expect((await send('POST', '/v2/issuer/cases/px_err_invalid-case-1/run_workflow')).status).toBe(503);
    expect(await send('POST', '/v2/issuer/claims/claim_nobody/withdraw')).toEqual({
      status: 404,
      body: { message: 'claim not found' },
    });
    expect((await send('POST', '/v2/issuer/claims/px_err_invalid/withdraw')).status).toBe(202);
    expect(await send('POST', '/v2/issuer/claims/px_err_invalid/withdraw')).toEqual({
      status: 400,
      body: { message: 'cannot withdraw a claim that is already closed' },
    });
    expect(await send('POST', '/v2/issuer/cases/px_err_invalid-case-1/withdraw')).toEqual({
      status: 400,
      body: { message: 'cannot withdraw a case that is already closed' },
    });
    expect(await send('POST', '/v2/issuer/cases/case_nobody/withdraw')).toEqual({
      status: 404,
      body: { message: 'case not found' },
    });
    await expect
      .poll(async () => (await send('GET', `/v2/issuer/cases/${caseId}`)).body)
      .toMatchObject({ status: 'chargeback_filed' });
    expect(await send('DELETE', `/v2/issuer/cases/${caseId}`)).toEqual({
      status: 400,
      body: { message: 'case has been filed with the card network and cannot be deleted' },
    });
    expect((await send('POST', '/v2/issuer/new_claim', { body: fraudClaim('px_err') })).status).toBe(409);
    expect((await send('POST', '/v2/issuer/claims', { body: { case_ids: [caseId] } })).status).toBe(409);
    expect((await send('POST', '/v2/issuer/claims', { body: { case_ids: ['case_nobody'] } })).status).toBe(400);
    expect((await send('GET', '/v2/issuer/claims', { key: 'test_unknown_key' })).status).toBe(401);
    expect((await send('GET', '/v2/issuer/claims?starting_after=claim_nobody')).status).toBe(400);
    expectNoViolationsSince(mark);
  });

  // Malformed JSON is not among them: Prism answers it itself, without forwarding it (test/sandbox covers the sandbox's answer).
  it('requests invalid on purpose: Prism finds each one invalid, and each 400 matches the validation shape', async () => {
    const mark = proxy.exchanges().length;
    const invalid = { invalid: true };
    const answers = [
      await send('POST', '/v2/issuer/new_claim', { ...invalid, body: { ...fraudClaim('px_bad'), cases: [] } }),
      await send('POST', '/v2/issuer/new_claim', { ...invalid, body: { ...fraudClaim('px_bad'), surprise: true } }),
      await send('POST', '/v2/issuer/claims/px_bad/file', { ...invalid, body: { file_mode: 'now' } }),
      await send('PUT', '/v2/issuer/claims/px_bad/cases', { ...invalid, body: { case_ids: [] } }),
      await send('GET', '/v2/issuer/claims?limit=0', invalid),
      await send('GET', '/v2/issuer/events?limit=101', invalid),
      await send('GET', '/v1/issuer/cases?status=pending', invalid),
      await send('POST', '/v1/issuer/cases', {
        ...invalid,
        body: { ...v1Case('px_bad_v1'), transaction: { ...v1Case('px_bad_v1').transaction, date: '2026-11-20' } },
      }),
      await send('PUT', '/v2/issuer/cases/px_bad', { ...invalid, body: { dispute: { amount: -1, date: recentDate } } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 400));
    const upload = new FormData();
    upload.set(
      'file',
      new Blob([await sample('receipts/cafe-lumiere-receipt.pdf')], { type: 'application/pdf' }),
      'receipt.pdf',
    );
    const noCategory = await fetch(`${proxy.url}/v2/issuer/files`, {
      method: 'POST',
      headers: { authorization: basic(sandboxKey), [deliberatelyInvalid]: '1' },
      body: upload,
    });
    expect(noCategory.status).toBe(400);
    await noCategory.text();
    expect((await send('GET', '/v2/issuer/claims', { key: null, invalid: true })).status).toBe(401);

    const marked = proxy.exchanges().slice(mark);
    expect(marked.every((exchange) => exchange.deliberatelyInvalid)).toBe(true);
    // Prism saw every one of them as invalid: the proxy does check requests.
    expect(
      marked
        .filter((exchange) => !exchange.violations.some((violation) => violation.location[0] === 'request'))
        .map((exchange) => `${exchange.method} ${exchange.path}`),
    ).toEqual([]);
    expectNoViolationsSince(mark);
  });

  it('every operation of the document went through the proxy with a valid request', () => {
    const templates = operations.map((operation) => ({
      id: operation.operationId,
      method: operation.method.toUpperCase(),
      path: new RegExp(`^${operation.path.replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
    const reached = new Set(
      proxy
        .exchanges()
        .filter((exchange) => !exchange.deliberatelyInvalid && exchange.status < 400)
        .flatMap((exchange) =>
          templates
            .filter((template) => template.method === exchange.method && template.path.test(exchange.path))
            .map((template) => template.id),
        ),
    );
    expect(operations.map((operation) => operation.operationId).filter((id) => !reached.has(id))).toEqual([]);
    expect(proxy.unexpected()).toEqual([]);
  });
});
