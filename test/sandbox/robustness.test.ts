import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { SandboxCore } from '../../src/sandbox/core.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { pngBytes } from './files/fixtures.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

describe('background work never ends the process', () => {
  it('reports a failing delayed job instead of throwing, and schedules nothing after close', async () => {
    const errors: unknown[] = [];
    const core = new SandboxCore({
      database: openDatabase(':memory:'),
      onBackgroundError: (error) => errors.push(error),
    });
    onTestFinished(() => {
      core.database.close();
    });
    core.later(1, () => {
      throw new Error('database is locked');
    });
    await expect.poll(() => errors.length).toBe(1);
    core.close();
    let ran = false;
    core.later(1, () => (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(false);
  });

  it('a sandbox that fails to listen files nothing and releases its database', async () => {
    const db = join(await temporaryFolder('bulk-disputes-sandbox-'), 'sandbox.db');
    const first = await createSandbox({ db, apiKeys: [sandboxKey], workflowDelayMs: 60_000 });
    const client = new ClaimsClient({ baseUrl: first.url, apiKey: sandboxKey, retry: { maxAttempts: 1 } });
    await client.claims.createWithCases(fraudClaim('claim_r'));
    await client.cases.runWorkflow('claim_r-case-1');
    await client.close();
    await first.close();

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      async () =>
        new Promise<void>((resolve) =>
          blocker.close(() => {
            resolve();
          }),
        ),
    );
    const { port } = blocker.address() as AddressInfo;
    await expect(createSandbox({ db, port, apiKeys: [sandboxKey], workflowDelayMs: 5 })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const database = new Database(db, { readonly: true });
    const row = database.prepare("SELECT status, workflow_state FROM cases WHERE case_id = 'claim_r-case-1'").get();
    database.close();
    expect(row).toEqual({ status: 'created', workflow_state: 'running' });
  });
});

describe('rules the first review found missing', () => {
  it('a filed case cannot leave its claim, and the claim stays filed', async () => {
    const { client, request } = await startTestSandbox();
    await client.claims.createWithCases(fraudClaim('claim_f', 2));
    await client.cases.file('claim_f-case-1', { file_mode: 'chargeback' });
    const answer = await request('PUT', '/v2/issuer/claims/claim_f/cases', { case_ids: ['claim_f-case-2'] });
    expect(answer).toEqual({
      status: 400,
      body: { message: 'case claim_f-case-1 has been filed or closed and cannot leave its claim' },
      headers: expect.anything() as unknown,
    });
    expect((await client.claims.retrieve('claim_f')).data).toMatchObject({
      status: 'filed',
      cases: [{ case_id: 'claim_f-case-1' }, { case_id: 'claim_f-case-2' }],
    });
  });

  it('test-mode file categories are refused for a live key, accepted for a test key', async () => {
    const { client, live } = await startTestSandbox();
    const upload = {
      category: 'valid_document' as const,
      filename: 'a.png',
      contentType: 'image/png',
      content: pngBytes(),
    };
    await expect(live.files.upload(upload)).rejects.toMatchObject({
      status: 400,
      errors: [{ code: 'category_invalid' }],
    });
    expect((await client.files.upload(upload)).data).toMatchObject({ category: 'valid_document', type: 'image/png' });
  });

  it('a cursor naming a deleted case still pages from where it stood', async () => {
    const { client, request } = await startTestSandbox();
    for (const name of ['d1', 'd2', 'd3', 'd4']) await client.claims.createWithCases(fraudClaim(name));
    await client.cases.delete('d3-case-1');
    const older = await request('GET', '/v2/issuer/cases?starting_after=d3-case-1');
    expect(older).toMatchObject({
      status: 200,
      body: { data: [{ case_id: 'd2-case-1' }, { case_id: 'd1-case-1' }], has_more: false },
    });
    const newer = await request('GET', '/v2/issuer/cases?ending_before=d3-case-1');
    expect(newer).toMatchObject({ status: 200, body: { data: [{ case_id: 'd4-case-1' }], has_more: false } });
  });

  it('while the workflow owns a case, it is neither updated nor deleted', async () => {
    const { client, request } = await startTestSandbox({ workflowDelayMs: 2000 });
    await client.claims.createWithCases(fraudClaim('claim_o'));
    await client.cases.runWorkflow('claim_o-case-1');
    const running = { status: 400, body: { message: 'workflow is already running for this case' } };
    expect(await request('PUT', '/v2/issuer/cases/claim_o-case-1', { custom_fields: { a: 'b' } })).toMatchObject(
      running,
    );
    expect(await request('DELETE', '/v2/issuer/cases/claim_o-case-1')).toMatchObject(running);
  });
});
