import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { fraudClaim, sandboxKey } from '../helpers/sandbox.js';
import { killHard, startSandboxProcess } from '../helpers/sandbox-process.js';
import { seededRandom, seedFrom, sized } from './size.js';

/**
 * The sandbox process SIGKILLed while 16 clients write to it at once (claims with cases, small
 * uploads), restarted on the same data file: every write it acknowledged (a 2xx that reached the
 * client) is still there. Writes in flight at the kill may or may not be; they are counted, not
 * asserted (docs/sandbox.md, "Storage": committed before the response is sent).
 */

const clients = 16;
/** How long the load runs before the kill, drawn from this range (ms). */
const loadMs = sized({ min: 1500, max: 6000 }, { min: 800, max: 2000 });
const rounds = sized(3, 1);

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Acknowledged {
  claims: Map<string, number>;
  files: Map<string, string>;
}

interface LoadReport {
  acknowledged: Acknowledged;
  /** Requests sent whose answer had not arrived when the kill came. */
  inFlightAtKill: number;
  /** Requests that failed after the kill (connection refused or reset). */
  failedAfterKill: number;
}

/** One writer: claims (1 to 3 cases) and uploads in turn, until the sandbox goes away. */
async function writer(
  client: ClaimsClient,
  round: number,
  id: number,
  random: () => number,
  acknowledged: Acknowledged,
  state: { inFlight: number; killed: boolean; failedAfterKill: number },
): Promise<void> {
  for (let sequence = 0; ; sequence++) {
    try {
      state.inFlight++;
      if (sequence % 2 === 0) {
        const claimId = `claim_r${round}_w${String(id).padStart(2, '0')}_${String(sequence).padStart(5, '0')}`;
        const caseCount = 1 + Math.floor(random() * 3);
        const response = await client.claims.createWithCases(fraudClaim(claimId, caseCount));
        if (response.status >= 200 && response.status < 300) acknowledged.claims.set(claimId, caseCount);
      } else {
        const content = Buffer.concat([
          pngSignature,
          Buffer.from(`writer ${id} upload ${sequence} ${random()}`),
          Buffer.alloc(64 + Math.floor(random() * 512), id),
        ]);
        const response = await client.files.upload({
          category: 'transaction_receipt',
          filename: `w${id}-${sequence}.png`,
          contentType: 'image/png',
          content,
        });
        if (response.status >= 200 && response.status < 300)
          acknowledged.files.set(response.data.id, createHash('sha256').update(content).digest('hex'));
      }
    } catch (error) {
      if (!state.killed) throw error;
      state.failedAfterKill++;
      return;
    } finally {
      state.inFlight--;
    }
  }
}

async function loadThenKill(
  round: number,
  url: string,
  kill: () => Promise<void>,
  random: () => number,
  loadForMs: number,
): Promise<LoadReport> {
  const acknowledged: Acknowledged = { claims: new Map(), files: new Map() };
  const state = { inFlight: 0, killed: false, failedAfterKill: 0 };
  // No retries: an answer is the one the sandbox gave, and a broken connection is not retried.
  const client = new ClaimsClient({
    baseUrl: url,
    apiKey: sandboxKey,
    concurrency: clients,
    retry: { maxAttempts: 1 },
  });
  onTestFinished(async () => client.close());
  const writers = Array.from({ length: clients }, async (_, id) =>
    writer(client, round, id, random, acknowledged, state),
  );
  const allDone = Promise.all(writers);
  // A write that fails before the kill fails the test (checked once the load time is up).
  let early: Error | undefined;
  allDone.catch((error: unknown) => (early = error instanceof Error ? error : new Error(String(error))));
  await sleep(loadForMs);
  if (early !== undefined) throw early;
  const inFlightAtKill = state.inFlight;
  state.killed = true;
  await kill();
  await allDone;
  return { acknowledged, inFlightAtKill, failedAfterKill: state.failedAfterKill };
}

describe('the sandbox process SIGKILLed under concurrent load, restarted on the same file', () => {
  it(
    `keeps every acknowledged claim and upload of ${clients} concurrent clients, ${rounds} kill(s)`,
    { timeout: sized(180_000, 60_000) },
    async () => {
      const seed = seedFrom(Math.floor(Math.random() * 0xffff_ffff));
      console.log(`sandbox-sigkill: seed ${seed} (replay the plan with BULK_DISPUTES_SEED=${seed})`);
      const random = seededRandom(seed);
      const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-reliability-'));
      onTestFinished(async () => rm(dir, { recursive: true, force: true }));
      const db = join(dir, 'sandbox.db');

      const all: Acknowledged = { claims: new Map(), files: new Map() };
      for (let round = 1; round <= rounds; round++) {
        const sandbox = await startSandboxProcess(['--db', db, '--api-key', sandboxKey]);
        const loadForMs = Math.floor(loadMs.min + random() * (loadMs.max - loadMs.min));
        const report = await loadThenKill(round, sandbox.url, async () => killHard(sandbox.child), random, loadForMs);
        console.log(
          `sandbox-sigkill round ${round}: killed after ${loadForMs} ms with ${report.inFlightAtKill} requests in flight; ` +
            `acknowledged ${report.acknowledged.claims.size} claims, ${report.acknowledged.files.size} uploads; ${report.failedAfterKill} requests cut by the kill`,
        );
        // The kill came mid-load: requests were waiting for their answers.
        expect(report.inFlightAtKill).toBeGreaterThan(0);
        expect(report.acknowledged.claims.size).toBeGreaterThan(0);
        expect(report.acknowledged.files.size).toBeGreaterThan(0);
        for (const [claimId, cases] of report.acknowledged.claims) all.claims.set(claimId, cases);
        for (const [fileId, sha] of report.acknowledged.files) all.files.set(fileId, sha);
      }

      // Restarted on the same file: every acknowledged write, from every round, is served.
      const sandbox = await startSandboxProcess(['--db', db, '--api-key', sandboxKey]);
      const client = new ClaimsClient({
        baseUrl: sandbox.url,
        apiKey: sandboxKey,
        concurrency: 8,
        retry: { maxAttempts: 1 },
      });
      onTestFinished(async () => client.close());
      const missing: string[] = [];
      const claimIds = [...all.claims.keys()];
      for (let start = 0; start < claimIds.length; start += 8) {
        await Promise.all(
          claimIds.slice(start, start + 8).map(async (claimId) => {
            try {
              const { data } = await client.claims.retrieve(claimId);
              const cases = (data.cases ?? []).map((item) => item.case_id).sort();
              const expected = Array.from(
                { length: all.claims.get(claimId) ?? 0 },
                (_, index) => `${claimId}-case-${index + 1}`,
              );
              if (JSON.stringify(cases) !== JSON.stringify(expected))
                missing.push(`${claimId}: expected cases ${expected.join(', ')}, got ${cases.join(', ')}`);
            } catch (error) {
              missing.push(`${claimId}: ${(error as Error).message}`);
            }
          }),
        );
      }
      expect(missing).toEqual([]);

      // Files have no GET route: a case that names every acknowledged file, and its review, show which exist.
      const probe = fraudClaim('claim_probe');
      const fileIds = [...all.files.keys()];
      const [probeCase] = probe.cases;
      if (probeCase === undefined) throw new Error('fraudClaim made no case');
      await client.claims.createWithCases({
        ...probe,
        issuer_evidence: { ...probe.issuer_evidence, documentation: fileIds },
      });
      const review = await client.cases.review(probeCase.case_id);
      const reviewed = (review.data.documentation_review?.files ?? []).map((file) => file.id);
      expect(
        fileIds.filter((fileId) => !reviewed.includes(fileId)),
        'acknowledged uploads the restarted sandbox does not know',
      ).toEqual([]);

      // ...and the bytes stored for each are the bytes sent.
      const database = new Database(db, { readonly: true, fileMustExist: true });
      onTestFinished(() => {
        database.close();
      });
      const lookup = database.prepare(
        "SELECT sha256 FROM files f JOIN blobs b USING (sha256) WHERE f.environment = 'sandbox' AND f.file_id = ?",
      );
      const wrong = fileIds.filter(
        (fileId) => (lookup.get(fileId) as { sha256: string } | undefined)?.sha256 !== all.files.get(fileId),
      );
      expect(wrong).toEqual([]);
      const stored = (database.prepare('SELECT count(*) AS n FROM claims').get() as { n: number }).n;
      console.log(
        `sandbox-sigkill: ${all.claims.size} acknowledged claims and ${fileIds.length} uploads all present after restart (${stored} claims stored, the probe and writes in flight included)`,
      );
      // Writes in flight may have landed, so the store holds at least what was acknowledged.
      expect(stored).toBeGreaterThanOrEqual(all.claims.size + 1);
    },
  );
});
