import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  repoRoot,
  runBin,
  type GenericRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * A whole night kept in a bucket, the export and its evidence under one prefix, imported with the
 * evidence folder left to its default (the export's prefix: docs/import.md, "Exports and evidence
 * in object storage or behind links"), against the same night on disk in a folder: row for row the
 * same results, the same claims and cases, the same files uploaded. The same command again sends
 * nothing; the export replaced in the bucket is refused by the journal.
 */

const bucket = 'night-bank';
const prefix = 'nights/2024-11-30/';
let swift: SwiftS3;
let writer: S3Client;

const invoice = 'receipts/northwind-invoice-NW-48213.pdf';
const cafe = 'receipts/cafe-lumiere-receipt.pdf';
const email = 'correspondence/fenwick-furniture-email.png';
const reply = 'correspondence/northwind-support-reply.png';
/** Text named as a PDF: not its type. */
const notes = 'receipts/notes.pdf';

/** The night's documents, as kept beside the export: path under the folder or prefix → bytes. */
async function documents(): Promise<Map<string, Buffer | string>> {
  const sample = async (path: string) => readFile(join(repoRoot, 'samples/evidence', path));
  return new Map<string, Buffer | string>([
    [invoice, await sample(invoice)],
    [cafe, await sample(cafe)],
    [email, await sample(email)],
    [reply, await sample(reply)],
    [notes, 'these are notes, not a PDF\n'],
  ]);
}

/**
 * Eight rows, seven claims: one without evidence over two cases, three with one document, one with
 * two, one whose document is missing, one whose document is not its type (those two not sent).
 */
const night: GenericRow[] = [
  fraudRow('NB-1', 'T-1'),
  fraudRow('NB-1', 'T-2'),
  duplicateChargeRow('NB-2', 'T-3', invoice),
  duplicateChargeRow('NB-3', 'T-4', cafe),
  fraudRow('NB-4', 'T-5', { correspondence_files: `${email};${reply}` }),
  duplicateChargeRow('NB-5', 'T-6', 'receipts/none.pdf'),
  duplicateChargeRow('NB-6', 'T-7', notes),
  fraudRow('NB-7', 'T-8', { correspondence_files: email }),
];

beforeAll(async () => {
  swift = await startSwiftS3();
  writer = swift.client();
  await writer.send(new CreateBucketCommand({ Bucket: bucket }));
  for (const [path, body] of await documents()) await put(path, body);
}, 90_000);

afterAll(async () => {
  writer.destroy();
  await swift.stop();
});

async function put(path: string, body: string | Uint8Array): Promise<string> {
  await writer.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}${path}`, Body: body }));
  return `s3://${bucket}/${prefix}${path}`;
}

/** The CLI's environment: the store as the AWS tools name it, credentials for the SDK's default chain. */
function envFor(workspace: Workspace): NodeJS.ProcessEnv {
  return { ...swift.cliEnvironment(workspace.dir), CLAIMS_API_KEY: sandboxKey };
}

const claimsAt = (sandbox: Sandbox) =>
  sandbox.core.database.prepare('SELECT claim_id FROM claims ORDER BY claim_id').all() as { claim_id: string }[];
const casesAt = (sandbox: Sandbox) =>
  sandbox.core.database.prepare('SELECT case_id FROM cases ORDER BY case_id').all() as { case_id: string }[];

describe('a whole night from the bucket', () => {
  it(
    'imports row for row as the same night on disk; again, nothing is sent; the export replaced, the journal refuses it',
    { timeout: 180_000 },
    async () => {
      const workspace = await makeWorkspace();
      const csv = csvOf(night);
      const folder = join(workspace.dir, 'night');
      const onDisk = await workspace.write('night/night.csv', csv);
      for (const [path, body] of await documents()) await workspace.write(`night/${path}`, body);
      const address = await put('night.csv', csv);
      const env = envFor(workspace);

      const fromDisk = await startTestSandbox();
      const fromBucket = await startTestSandbox();
      // Every request the bucket's import makes of the service, so that a re-run sending nothing shows.
      const service = await startCountingProxy(fromBucket.sandbox.url);
      const outputs = (name: string) => [
        '--results',
        join(workspace.dir, `${name}.results.csv`),
        '--journal',
        join(workspace.dir, `${name}.journal.sqlite`),
        '--log-level',
        'warn',
      ];
      const disk = await runBin(
        ['import', onDisk, '--mapping', genericMapping, '--base-url', fromDisk.sandbox.url, ...outputs('disk')],
        env,
      );
      const bucketArgs = [
        'import',
        address,
        '--mapping',
        genericMapping,
        '--base-url',
        service.url,
        ...outputs('bucket'),
      ];
      const first = await runBin(bucketArgs, env);

      // Two rows invalid (the missing document, the one not its type): exit 1 for both.
      expect(disk.exitCode, disk.stderr).toBe(1);
      expect(first.exitCode, first.stderr).toBe(1);
      const diskResults = await readResults(join(workspace.dir, 'disk.results.csv'));
      const bucketResults = await readResults(join(workspace.dir, 'bucket.results.csv'));
      expect(bucketResults.rows).toHaveLength(night.length);
      expect(bucketResults.rows.map((row) => [row.line, row.outcome, row.error_code])).toEqual([
        ['2', 'filed', ''],
        ['3', 'filed', ''],
        ['4', 'filed', ''],
        ['5', 'filed', ''],
        ['6', 'filed', ''],
        ['7', 'invalid', 'evidence_not_found'],
        ['8', 'invalid', 'evidence_type_unsupported'],
        ['9', 'filed', ''],
      ]);
      // Every cell the same, the source cells with them, but two: the file ids, which each sandbox
      // makes (compared by their pattern: which rows share a file), and the messages naming where
      // evidence was looked for, the prefix in one and the folder in the other.
      const filePattern = (rows: readonly { file_ids?: string }[]) => {
        const seen = new Map<string, number>();
        return rows.map((row) =>
          (row.file_ids ?? '')
            .split(';')
            .filter((id) => id !== '')
            .map((id) => seen.get(id) ?? seen.set(id, seen.size).size - 1),
        );
      };
      expect(filePattern(bucketResults.rows)).toEqual(filePattern(diskResults.rows));
      expect(filePattern(bucketResults.rows)).toEqual([[], [], [0], [1], [2, 3], [], [], [2]]);
      const missingLine = 5;
      const comparable = (rows: typeof diskResults.rows, folderOrPrefix: string) =>
        rows.map((row, index) => ({
          ...row,
          file_ids: undefined,
          error_message: index === missingLine ? undefined : row.error_message.replaceAll(folderOrPrefix, '<night>/'),
        }));
      expect(comparable(bucketResults.rows, `s3://${bucket}/${prefix}`)).toEqual(
        comparable(diskResults.rows, `${folder}/`),
      );
      // The missing document: a file in the folder, an object under the prefix.
      expect(diskResults.rows[missingLine]?.error_message).toBe(
        'evidence receipts/none.pdf: expected an existing file in the evidence directory, got no such file in ' +
          `${folder} (the default, the export's folder; set another with --evidence-dir)`,
      );
      expect(bucketResults.rows[missingLine]?.error_message).toBe(
        `evidence receipts/none.pdf: expected an existing object, got no object s3://${bucket}/${prefix}receipts/none.pdf`,
      );
      expect(bucketResults.rows.map((row) => [row.receipt_file, row.correspondence_files])).toEqual(
        night.map((row) => [row.receipt_file, row.correspondence_files]),
      );
      expect(claimsAt(fromBucket.sandbox)).toEqual(claimsAt(fromDisk.sandbox));
      expect(claimsAt(fromBucket.sandbox)).toHaveLength(5);
      expect(casesAt(fromBucket.sandbox)).toEqual(casesAt(fromDisk.sandbox));
      expect(casesAt(fromBucket.sandbox)).toHaveLength(6);
      // The invoice, the café receipt, the two emails' images: the second email once, by its content.
      expect(countIn(fromBucket.sandbox, 'files')).toBe(countIn(fromDisk.sandbox, 'files'));
      expect(countIn(fromBucket.sandbox, 'files')).toBe(4);

      // The same command again: every row settled by the first run, nothing sent to the service.
      const sentBefore = service.requests().length;
      const again = await runBin(bucketArgs, env);
      expect(again.exitCode, again.stderr).toBe(1);
      expect(service.requests().slice(sentBefore)).toEqual([]);
      expect(again.stderr).toContain('nothing to send: all 8 rows were settled by the run of');
      expect(countIn(fromBucket.sandbox, 'claims')).toBe(5);
      expect(countIn(fromBucket.sandbox, 'files')).toBe(4);
      expect(await readFile(join(workspace.dir, 'bucket.results.csv'), 'utf8')).toBe(bucketResults.text);

      // The export replaced in the bucket: refused as a changed file is, exit 2, nothing sent.
      await put('night.csv', csvOf([...night, fraudRow('NB-8', 'T-9')]));
      const sentBeforeReplaced = service.requests().length;
      const replaced = await runBin(bucketArgs, env);
      expect(replaced.exitCode, replaced.stderr).toBe(2);
      expect(replaced.stderr).toContain('JOURNAL_MISMATCH');
      expect(replaced.stderr).toContain(address);
      expect(replaced.stderr).not.toMatch(/\n\s+at /);
      expect(service.requests().slice(sentBeforeReplaced)).toEqual([]);
      expect(countIn(fromBucket.sandbox, 'claims')).toBe(5);
    },
  );
});
