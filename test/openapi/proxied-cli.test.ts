import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { runBin } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { writeDisputesCsv } from '../import/generate.js';
import { inPool, v1Case } from '../migrate/fixtures.js';
import { startValidatingProxy, type ValidatingProxy } from './validating-proxy.js';

/**
 * The CLI's jobs through Stoplight Prism's validating proxy in front of a sandbox: the import of
 * the bundled samples, a migrate-v1, an export of each resource, and an import and its withdrawal
 * against a sandbox failing requests with 503 and 429 (the chaos suite's requests; connection
 * resets are left out, as they are not answers a document describes). Every request the CLI sends
 * and every answer it gets must match openapi/claims-service.json.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const key = 'test_proxied_cli_0001';
const env = { CLAIMS_API_KEY: key };

let sandbox: Sandbox;
let proxy: ValidatingProxy;

beforeAll(async () => {
  sandbox = await createSandbox({ apiKeys: [key], workflowDelayMs: 20, control: true });
  proxy = await startValidatingProxy(sandbox.url);
}, 60_000);

afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

function rowsOf(csv: string): Record<string, string>[] {
  return parse<Record<string, string>>(csv, { columns: true, bom: true });
}

function violationsSince(mark: number): string[] {
  return proxy
    .exchanges()
    .slice(mark)
    .flatMap((exchange) =>
      exchange.violations.map(
        (violation) =>
          `${exchange.method} ${exchange.path} → ${exchange.status}: ${violation.location.join('.')}: ${violation.message}`,
      ),
    );
}

async function setFaults(config: object): Promise<void> {
  const answer = await fetch(`${sandbox.url}/_sandbox/faults`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(config),
  });
  expect(answer.status, await answer.text()).toBe(200);
}

describe("the CLI through Prism's validating proxy (openapi/claims-service.json)", () => {
  it(
    'imports the bundled samples with their evidence: every exchange matches the document',
    { timeout: 120_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-openapi-import-');
      const mark = proxy.exchanges().length;
      const run = await runBin(
        [
          'import',
          'samples/generic-export.csv',
          '--mapping',
          'mappings/generic.yaml',
          '--evidence-dir',
          'samples/evidence',
          '--base-url',
          proxy.url,
          '--results',
          join(folder, 'results.csv'),
          '--journal',
          join(folder, 'journal.sqlite'),
          '--log-level',
          'warn',
        ],
        env,
        { cwd: root },
      );
      // The sample's dates are fixed: as days pass, some filing windows close (exit 1, not_filed).
      expect([0, 1], run.stderr).toContain(run.exitCode);
      const rows = rowsOf(await readFile(join(folder, 'results.csv'), 'utf8'));
      expect(rows).toHaveLength(10);
      expect(
        rows
          .filter((row) => !['filed', 'not_filed'].includes(row.outcome ?? ''))
          .map((row) => `${row.line} ${row.outcome} ${row.error_message}`),
      ).toEqual([]);
      expect(
        proxy
          .exchanges()
          .slice(mark)
          .filter((exchange) => exchange.path === '/v2/issuer/files').length,
      ).toBeGreaterThan(0);
      expect(violationsSince(mark)).toEqual([]);
    },
  );

  it('migrates version 1 cases into claims', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder('bulk-disputes-openapi-migrate-');
    const seeding = new ClaimsClient({ baseUrl: proxy.url, apiKey: key, retry: { maxAttempts: 1 } });
    const mark = proxy.exchanges().length;
    await inPool(
      Array.from({ length: 12 }, (_, index) => `px_mig_${index}`),
      4,
      async (caseId) => seeding.v1.cases.create(v1Case(caseId, caseId)),
    );
    await seeding.close();
    const run = await runBin(
      [
        'migrate-v1',
        '--base-url',
        proxy.url,
        '--journal',
        join(folder, 'journal.sqlite'),
        '--results',
        join(folder, 'results.csv'),
        '--log-level',
        'warn',
      ],
      env,
      { cwd: folder },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      rowsOf(await readFile(join(folder, 'results.csv'), 'utf8')).filter((row) => row.outcome === 'migrated').length,
    ).toBeGreaterThanOrEqual(12);
    expect(violationsSince(mark)).toEqual([]);
  });

  it('exports cases, claims and events, walking every page', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder('bulk-disputes-openapi-export-');
    const mark = proxy.exchanges().length;
    for (const resource of ['cases', 'claims', 'events']) {
      const run = await runBin(
        [
          'export',
          resource,
          '--base-url',
          proxy.url,
          '--out',
          join(folder, `${resource}.csv`),
          '--state',
          join(folder, `${resource}.state.json`),
          '--log-level',
          'warn',
        ],
        env,
        { cwd: folder },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(rowsOf(await readFile(join(folder, `${resource}.csv`), 'utf8')).length).toBeGreaterThan(10);
    }
    expect(violationsSince(mark)).toEqual([]);
  });

  it(
    'an import and its withdrawal against a sandbox answering 503 and 429: every refusal matches the document too',
    { timeout: 180_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-openapi-chaos-');
      const input = join(folder, 'disputes.csv');
      await writeDisputesCsv(
        input,
        Array.from({ length: 40 }, (_, claim) => ({ claim: 1000 + claim, transaction: claim % 2 })),
      );
      const mark = proxy.exchanges().length;
      await setFaults({
        seed: 31,
        failRate: 0.2,
        rateLimitPerSecond: 40,
        latencyMs: { min: 0, max: 5 },
        retryAfterSeconds: 0,
      });
      try {
        const common = ['--base-url', proxy.url, '--concurrency', '8', '--log-level', 'warn'];
        const imported = await runBin(
          [
            'import',
            input,
            '--mapping',
            join(root, 'mappings/generic.yaml'),
            '--file-mode',
            'chargeback',
            '--results',
            join(folder, 'results.csv'),
            '--journal',
            join(folder, 'journal.sqlite'),
            ...common,
          ],
          env,
          { cwd: folder },
        );
        expect([0, 1], imported.stderr).toContain(imported.exitCode);
        const withdrawn = await runBin(
          [
            'withdraw',
            join(folder, 'journal.sqlite'),
            '--results',
            join(folder, 'withdraw.csv'),
            '--journal',
            join(folder, 'withdraw.journal.sqlite'),
            ...common,
          ],
          env,
          { cwd: folder },
        );
        // Every claim the import created is taken back. A claim whose create the import could not
        // settle (exit 1: its attempts ran out) is looked up, and, never made, is not_found (exit 1).
        const created = new Set(
          rowsOf(await readFile(join(folder, 'results.csv'), 'utf8'))
            .filter((row) => ['created', 'filed', 'not_filed'].includes(row.outcome ?? ''))
            .map((row) => row.claim_id),
        );
        const notWithdrawn = rowsOf(await readFile(join(folder, 'withdraw.csv'), 'utf8')).filter(
          (row) => row.outcome !== 'withdrawn',
        );
        expect(
          notWithdrawn
            .filter((row) => row.outcome !== 'not_found' || created.has(row.claim_id))
            .map((row) => `${row.claim_id} ${row.outcome} ${row.error_message}`),
          withdrawn.stderr,
        ).toEqual([]);
        expect(withdrawn.exitCode, withdrawn.stderr).toBe(notWithdrawn.length === 0 ? 0 : 1);
      } finally {
        await setFaults({});
      }
      const statuses = new Set(
        proxy
          .exchanges()
          .slice(mark)
          .map((exchange) => exchange.status),
      );
      // The faults did strike, and their answers went through the same check.
      expect(statuses.has(503)).toBe(true);
      expect(violationsSince(mark)).toEqual([]);
    },
  );
});
