import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { fraudClaim, sandboxKey } from '../helpers/sandbox.js';
import { killHard, startSandboxProcess } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const pngBytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 1)]);

describe('persistence', () => {
  it('keeps every acknowledged write when the process is SIGKILLed, and serves it after a restart', async () => {
    const folder = await temporaryFolder('bulk-disputes-sandbox-');
    const db = join(folder, 'sandbox.db');
    const first = await startSandboxProcess(['--db', db, '--api-key', sandboxKey]);
    const before = new ClaimsClient({
      baseUrl: first.url,
      apiKey: sandboxKey,
      concurrency: 8,
      retry: { maxAttempts: 1 },
    });

    // Concurrent writes of every kind; each counts once its response has arrived.
    const claimIds = Array.from({ length: 20 }, (_, index) => `claim_${String(index).padStart(2, '0')}`);
    await Promise.all(claimIds.map(async (claimId) => before.claims.createWithCases(fraudClaim(claimId, 2))));
    await Promise.all(
      claimIds.slice(0, 10).map(async (claimId) => before.claims.file(claimId, { file_mode: 'chargeback' })),
    );
    await before.claims.withdraw('claim_19');
    const upload = await before.files.upload({
      category: 'transaction_receipt',
      filename: 'receipt.png',
      contentType: 'image/png',
      content: pngBytes,
    });
    await before.close();
    await killHard(first.child);

    const second = await startSandboxProcess(['--db', db, '--api-key', sandboxKey]);
    const after = new ClaimsClient({ baseUrl: second.url, apiKey: sandboxKey, retry: { maxAttempts: 1 } });
    try {
      const listed: string[] = [];
      for await (const claim of after.claims.listAll({ limit: 7 })) listed.push(claim.claim_id);
      // Created concurrently, so listed in commit order: compare as sets, and none twice.
      expect([...listed].sort()).toEqual(claimIds);
      expect((await after.claims.retrieve('claim_03')).data).toMatchObject({
        status: 'filed',
        cases: [{ status: 'chargeback_filed' }, { status: 'chargeback_filed' }],
      });
      expect((await after.claims.retrieve('claim_15')).data).toMatchObject({
        status: 'open',
        cases: [{ status: 'created' }, { status: 'created' }],
      });
      expect((await after.claims.retrieve('claim_19')).data).toMatchObject({
        status: 'closed',
        cases: [{ status: 'closed', closed_reason: 'withdrawn' }, {}],
      });
      let events = 0;
      for await (const _event of after.events.listAll()) events++;
      // 40 created, 20 filed, 2 withdrawn.
      expect(events).toBe(62);
    } finally {
      await after.close();
      await killHard(second.child);
    }
    // The uploaded bytes are stored once, by their hash, in the folder beside the database.
    const database = new Database(db, { readonly: true });
    const stored = database
      .prepare('SELECT f.sha256 FROM files f JOIN blobs b USING (sha256) WHERE f.file_id = ?')
      .get(upload.data.id) as { sha256: string };
    database.close();
    expect(Buffer.compare(await readFile(join(`${db}.blobs`, stored.sha256)), pngBytes)).toBe(0);
  });

  it('finishes a run_workflow that a restart interrupted, instead of leaving it running forever', async () => {
    const db = join(await temporaryFolder('bulk-disputes-sandbox-'), 'sandbox.db');
    const first = await createSandbox({ db, apiKeys: [sandboxKey], workflowDelayMs: 60_000 });
    const client = new ClaimsClient({ baseUrl: first.url, apiKey: sandboxKey, retry: { maxAttempts: 1 } });
    await client.claims.createWithCases(fraudClaim('claim_w'));
    await client.cases.runWorkflow('claim_w-case-1');
    expect((await client.cases.review('claim_w-case-1')).data.status).toBe('processing');
    await client.close();
    await first.close();

    const second = await createSandbox({ db, apiKeys: [sandboxKey], workflowDelayMs: 20 });
    const after = new ClaimsClient({ baseUrl: second.url, apiKey: sandboxKey, retry: { maxAttempts: 1 } });
    try {
      await expect
        .poll(async () => (await after.cases.retrieve('claim_w-case-1')).data.status)
        .toBe('chargeback_filed');
    } finally {
      await after.close();
      await second.close();
    }
  });
});
