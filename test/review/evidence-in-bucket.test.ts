import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendState } from '../../src/review/send-fixes.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  genericMapping,
  makeWorkspace,
  readResults,
  repoRoot,
  runBin,
  type Workspace,
} from '../import/e2e-fixtures.js';
import { startReview } from '../helpers/review-process.js';

/**
 * A review of an import whose evidence was under an s3:// --evidence-dir: the page checks a row's
 * evidence in the bucket with the import's own remote checker, never in a folder of this machine
 * that the prefix's text would name as a path, and a fix sent from the page reads it there too.
 */

const bucket = 'review-evidence';
const prefix = `s3://${bucket}/night/`;
const invoice = 'receipts/northwind-invoice-NW-48213.pdf';
let swift: SwiftS3;

beforeAll(async () => {
  swift = await startSwiftS3();
  const writer = swift.client();
  await writer.send(new CreateBucketCommand({ Bucket: bucket }));
  const put = async (key: string, body: Buffer | string) =>
    writer.send(new PutObjectCommand({ Bucket: bucket, Key: `night/${key}`, Body: body }));
  await put(invoice, await readFile(join(repoRoot, 'samples/evidence', invoice)));
  await put('receipts/notes.pdf', 'these are notes, not a PDF\n');
  writer.destroy();
}, 90_000);

afterAll(async () => {
  await swift.stop();
});

function envFor(workspace: Workspace, secret = swift.secretAccessKey): Record<string, string> {
  return { ...swift.cliEnvironment(workspace.dir, { secret }), CLAIMS_API_KEY: sandboxKey };
}

/** The page's session, as a browser holds it after loading the printed address; JSON calls with it. */
async function pageAt(url: string) {
  const { origin } = new URL(url);
  const first = await request(url);
  await first.body.dump();
  const cookie = /^[^;]+/.exec(String(first.headers['set-cookie']))?.[0] ?? '';
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the answer's shape
  return async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
    const response = await request(`${origin}${path}`, {
      method,
      headers: {
        cookie,
        ...(method === 'GET' ? {} : { origin }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.statusCode, body: (await response.body.json()) as T };
  };
}

interface Check {
  ok: boolean;
  problems: { field: string; code: string; message: string }[];
}

describe('review of an import whose evidence was under an s3:// prefix', () => {
  it(
    "checks a row's evidence in the bucket, not in a folder the prefix's text names; a fix sent from the page reads it there",
    { timeout: 120_000 },
    async () => {
      const workspace = await makeWorkspace();
      const env = envFor(workspace);
      const input = await workspace.write(
        'disputes.csv',
        csvOf([duplicateChargeRow('RV-1', 'T1', 'receipts/none.pdf')]),
      );
      const { sandbox } = await startTestSandbox();
      const imported = await runBin(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--base-url',
          sandbox.url,
          '--results',
          workspace.results,
          '--journal',
          workspace.journal,
          '--evidence-dir',
          prefix,
          '--log-level',
          'warn',
        ],
        env,
      );
      expect(imported.exitCode, imported.stderr).toBe(1);
      expect((await readResults(workspace.results)).rows.map((row) => row.error_code)).toEqual(['evidence_not_found']);

      // What the prefix would be as a path from the review's folder: a file there that the bucket does not hold.
      const mangled = resolve(workspace.dir, prefix);
      await workspace.write(
        join(mangled.slice(workspace.dir.length + 1), 'receipts/here-only.pdf'),
        await readFile(join(repoRoot, 'samples/evidence', invoice)),
      );

      const url = await startReview(
        [workspace.journal, '--mapping', genericMapping, '--send', '--base-url', sandbox.url],
        workspace.dir,
        env,
      );
      const page = await pageAt(url);
      const check = async (receipt: string) =>
        (await page<Check>('POST', '/api/rows/2/check', { cells: { receipt_file: receipt } })).body;

      expect(await check(invoice)).toMatchObject({ ok: true, problems: [] });
      const hereOnly = await check('receipts/here-only.pdf');
      expect(hereOnly.problems.map((problem) => [problem.field, problem.code, problem.message])).toEqual([
        [
          'evidence.receipt_file',
          'evidence_not_found',
          `evidence receipts/here-only.pdf: expected an existing object, got no object ${prefix}receipts/here-only.pdf`,
        ],
      ]);
      expect((await check('receipts/notes.pdf')).problems.map((problem) => problem.code)).toEqual([
        'evidence_type_unsupported',
      ]);
      expect((await check('receipts/../../elsewhere.pdf')).problems.map((problem) => problem.message)).toEqual([
        'evidence receipts/../../elsewhere.pdf: expected a path inside the evidence directory ' +
          `the prefix ${prefix}, got one that leaves it`,
      ]);
      // The attach box lists no folder of this machine for a prefix.
      expect((await page<{ files: string[] }>('GET', '/api/evidence?q=here')).body.files).toEqual([]);

      // The fix sent from the page: the feed-back import reads the receipt from the bucket and files the claim.
      expect((await page('PUT', '/api/rows/2', { cells: { receipt_file: invoice } })).status).toBe(200);
      expect((await page('POST', '/api/send')).status).toBe(202);
      let state: SendState;
      for (;;) {
        state = (await page<SendState>('GET', '/api/send')).body;
        if (state.status === 'done' || state.status === 'failed') break;
        await new Promise((wait) => setTimeout(wait, 100));
      }
      expect(state, JSON.stringify(state)).toMatchObject({ status: 'done', outcomes: { filed: 1 } });
      expect(countIn(sandbox, 'claims')).toBe(1);
      expect(countIn(sandbox, 'files')).toBe(1);
    },
  );

  it(
    'a secret the store refuses: the review does not start, exit 5 naming the prefix',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const input = await workspace.write(
        'disputes.csv',
        csvOf([duplicateChargeRow('RV-2', 'T1', 'receipts/none.pdf')]),
      );
      const imported = await runBin(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--dry-run',
          '--results',
          workspace.results,
          '--journal',
          workspace.journal,
          '--evidence-dir',
          prefix,
        ],
        envFor(workspace),
      );
      expect(imported.exitCode, imported.stderr).toBe(1);
      const refused = await runBin(
        ['review', workspace.journal, '--mapping', genericMapping],
        envFor(workspace, 'not-the-secret'),
        { cwd: workspace.dir },
      );
      expect(refused.exitCode, refused.stderr).toBe(5);
      expect(refused.stderr).toContain(`OBJECT_STORE_CREDENTIALS: ${prefix} (${swift.endpoint})`);
      expect(refused.stderr).not.toContain('review: http');
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
