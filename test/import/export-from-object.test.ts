import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseObjectAddress } from '../../src/storage/object-address.js';
import { objectSource } from '../../src/storage/object-source.js';
import { ObjectStore } from '../../src/storage/object-store.js';
import { storeSettingsOf } from '../../src/storage/store-settings.js';
import { cbnotFile } from '../helpers/fixed-width-files.js';
import { startImportProcess } from '../helpers/import-process.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';
import {
  countIn,
  csvOf,
  fraudRow,
  genericColumns,
  genericMapping,
  makeWorkspace,
  readResults,
  repoRoot,
  runBin,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * An export read where the bank keeps it, `s3://bucket/key`, from a real S3-compatible store that
 * checks signatures itself (test/helpers/swift-s3.ts): the same results and the same claims as the
 * file on disk; a fixed-width report and a workbook too; refused in words naming the object and
 * the store when the credentials or the object are wrong; its journal bound to the object's
 * identity, so a replaced object is refused as a changed file is; resumed after a killed run.
 */

const bucket = 'bank-exports';
let swift: SwiftS3;
let writer: S3Client;

beforeAll(async () => {
  swift = await startSwiftS3();
  writer = swift.client();
  await writer.send(new CreateBucketCommand({ Bucket: bucket }));
}, 60_000);

afterAll(async () => {
  writer.destroy();
  await swift.stop();
});

async function put(key: string, body: string | Uint8Array): Promise<string> {
  await writer.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  return `s3://${bucket}/${key}`;
}

/** The CLI's environment: the store as the AWS tools name it, credentials for the SDK's default chain. */
function envFor(workspace: Workspace, secret = swift.secretAccessKey): NodeJS.ProcessEnv {
  return { ...swift.cliEnvironment(workspace.dir, { secret }), CLAIMS_API_KEY: sandboxKey };
}

/** Six rows, four claims (two of two cases), none with evidence. */
function exportCsv(prefix: string): string {
  return csvOf([
    fraudRow(`${prefix}-1`, 'T-1'),
    fraudRow(`${prefix}-2`, 'T-2'),
    fraudRow(`${prefix}-2`, 'T-3'),
    fraudRow(`${prefix}-3`, 'T-4'),
    fraudRow(`${prefix}-4`, 'T-5'),
    fraudRow(`${prefix}-4`, 'T-6'),
  ]);
}

function journalMeta(file: string): Record<string, string> {
  const database = new Database(file, { readonly: true });
  try {
    const rows = database.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  } finally {
    database.close();
  }
}

const claimsAt = (sandbox: Parameters<typeof countIn>[0]) =>
  (sandbox.core.database.prepare('SELECT claim_id FROM claims ORDER BY claim_id').all() as { claim_id: string }[]).map(
    (row) => row.claim_id,
  );

const quiet = ['--log-level', 'warn'];

describe('import s3://bucket/key', () => {
  it(
    'imports as the same file on disk does: the same results row for row, the same claims; results and journal named after the key, here',
    { timeout: 120_000 },
    async () => {
      const workspace = await makeWorkspace();
      const csv = exportCsv('NIGHT');
      const onDisk = await workspace.write('disk/night.csv', csv);
      const address = await put('exports/night.csv', csv);
      const fromDisk = await startTestSandbox();
      const fromObject = await startTestSandbox();
      const env = envFor(workspace);

      const disk = await runBin(
        [
          'import',
          onDisk,
          '--mapping',
          genericMapping,
          '--base-url',
          fromDisk.sandbox.url,
          '--results',
          join(workspace.dir, 'disk.results.csv'),
          '--journal',
          join(workspace.dir, 'disk.journal.sqlite'),
          ...quiet,
        ],
        env,
      );
      expect(disk.exitCode, disk.stderr).toBe(0);
      const here = join(workspace.dir, 'here');
      await mkdir(here);
      const object = await runBin(
        ['import', address, '--mapping', genericMapping, '--base-url', fromObject.sandbox.url, ...quiet],
        env,
        { cwd: here },
      );
      expect(object.exitCode, object.stderr).toBe(0);

      const diskResults = await readResults(join(workspace.dir, 'disk.results.csv'));
      const objectResults = await readResults(join(here, 'night.results.csv'));
      expect(objectResults.rows).toHaveLength(6);
      expect(objectResults.rows).toEqual(diskResults.rows);
      expect(claimsAt(fromObject.sandbox)).toEqual(claimsAt(fromDisk.sandbox));
      expect(claimsAt(fromObject.sandbox)).toHaveLength(4);
      expect(countIn(fromObject.sandbox, 'cases')).toBe(6);

      // The journal binds the object by its identity and names it as given; a file's stays its sha256.
      const meta = journalMeta(join(here, 'night.journal.sqlite'));
      expect(meta.made_with_input).toBe(address);
      expect(meta.evidence_dir).toBe(`s3://${bucket}/exports/`);
      expect((JSON.parse(meta.fingerprint ?? '{}') as { input: string }).input).toMatch(
        new RegExp(`^s3://${bucket}/exports/night\\.csv etag="[0-9a-f]{32}" size=${String(Buffer.byteLength(csv))}$`),
      );
      const diskMeta = journalMeta(join(workspace.dir, 'disk.journal.sqlite'));
      expect((JSON.parse(diskMeta.fingerprint ?? '{}') as { input: string }).input).toMatch(/^[0-9a-f]{64}$/);
      expect(diskMeta.made_with_input).toBe(onDisk);
    },
  );

  it(
    'a fixed-width bank report from the bucket reads as from disk, its trailers checked',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const report = cbnotFile({ blocks: [2, 1] });
      const onDisk = await workspace.write('cbnot.txt', report);
      const address = await put('reports/cbnot.txt', report);
      const mapping = join(repoRoot, 'mappings/amex-cbnot.yaml');
      const env = envFor(workspace);
      const dryRun = async (input: string, name: string) =>
        runBin(
          ['import', input, '--mapping', mapping, '--dry-run', '--results', join(workspace.dir, name), ...quiet],
          env,
        );
      const checked = await runBin(['mapping', 'check', mapping, '--input', address], env);
      expect(checked.exitCode, checked.stderr).toBe(0);
      expect(checked.stdout).toContain(`${address}: the export's header has every column`);
      expect(checked.stdout).toContain("its trailers' control figures agree with what each block holds");
      const disk = await dryRun(onDisk, 'disk.results.csv');
      const object = await dryRun(address, 'object.results.csv');
      expect(object.exitCode, object.stderr).toBe(disk.exitCode);
      const results = await readResults(join(workspace.dir, 'object.results.csv'));
      expect(results.rows.map((row) => [row.line, row.error_field, row.case_number])).toEqual([
        ['2', 'case.transaction.arn', 'C2604100000'],
        ['3', 'case.transaction.arn', 'C2604100001'],
        ['6', 'case.transaction.arn', 'C2604100002'],
      ]);
      expect(results.text).toBe((await readResults(join(workspace.dir, 'disk.results.csv'))).text);

      // A report cut short in transfer: its trailer disagrees, nothing is written.
      const cut = await put('reports/cbnot-cut.txt', cbnotFile({ blocks: [2, 1], trailerCounts: [4, 9] }));
      const refused = await dryRun(cut, 'cut.results.csv');
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(cut);
      expect(existsSync(join(workspace.dir, 'cut.results.csv'))).toBe(false);
    },
  );

  it(
    'a workbook from the bucket is read by ranged reads, within the workbook limits, as from disk',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const book = new ExcelJS.Workbook();
      book.addWorksheet('Cover').addRow(['Disputes export, November']);
      const sheet = book.addWorksheet('Disputes');
      sheet.addRow([...genericColumns]);
      for (const row of [fraudRow('WB-1', 'T-1'), fraudRow('WB-2', 'T-2'), fraudRow('WB-2', 'T-3')])
        sheet.addRow(genericColumns.map((column) => row[column] ?? ''));
      const bytes = new Uint8Array(await book.xlsx.writeBuffer());
      const onDisk = await workspace.write('book.xlsx', bytes);
      const address = await put('exports/book.xlsx', bytes);
      const env = envFor(workspace);
      const dryRun = async (input: string, name: string) =>
        runBin(
          [
            'import',
            input,
            '--mapping',
            genericMapping,
            '--sheet',
            'Disputes',
            '--dry-run',
            '--results',
            join(workspace.dir, `${name}.results.csv`),
            '--payloads',
            join(workspace.dir, `${name}.jsonl`),
            ...quiet,
          ],
          env,
        );
      const disk = await dryRun(onDisk, 'disk');
      expect(disk.exitCode, disk.stderr).toBe(0);
      const object = await dryRun(address, 'object');
      expect(object.exitCode, object.stderr).toBe(0);
      const results = await readResults(join(workspace.dir, 'object.results.csv'));
      expect(results.rows.map((row) => row.outcome)).toEqual(['valid', 'valid', 'valid']);
      expect(results.text).toBe((await readResults(join(workspace.dir, 'disk.results.csv'))).text);
      expect(await readFile(join(workspace.dir, 'object.jsonl'), 'utf8')).toBe(
        await readFile(join(workspace.dir, 'disk.jsonl'), 'utf8'),
      );

      // No zip at all: refused as a workbook that does not read, as a file is.
      const notZip = await put('exports/not-a-zip.xlsx', 'dispute_ref\nX-1\n');
      const refused = await dryRun(notZip, 'not-zip');
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('workbook_unreadable');
    },
  );

  it(
    'a wrong secret: exit 5, naming the object and the store; no journal, no results, nothing sent',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const address = await put('exports/refused.csv', exportCsv('REFUSED'));
      const { sandbox } = await startTestSandbox();
      const run = await runBin(
        ['import', address, '--mapping', genericMapping, '--base-url', sandbox.url, ...quiet],
        envFor(workspace, 'not-the-secret'),
        { cwd: workspace.dir },
      );
      expect(run.exitCode, run.stderr).toBe(5);
      expect(run.stderr).toContain('OBJECT_STORE_CREDENTIALS');
      expect(run.stderr).toContain(`${address} (${swift.endpoint})`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(workspace.dir, 'refused.journal.sqlite'))).toBe(false);
      expect(existsSync(join(workspace.dir, 'refused.results.csv'))).toBe(false);
      expect(countIn(sandbox, 'claims')).toBe(0);
    },
  );

  it('a missing object, or an address that is none: exit 2 in words, nothing made', { timeout: 60_000 }, async () => {
    const workspace = await makeWorkspace();
    const env = envFor(workspace);
    const missing = await runBin(
      ['import', `s3://${bucket}/exports/none.csv`, '--mapping', genericMapping, '--dry-run', ...quiet],
      env,
      { cwd: workspace.dir },
    );
    expect(missing.exitCode, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('OBJECT_NOT_FOUND');
    expect(missing.stderr).toContain(`s3://${bucket}/exports/none.csv (${swift.endpoint}): expected an object there`);
    expect(existsSync(join(workspace.dir, 'none.results.csv'))).toBe(false);

    const badAddress = await runBin(['import', 's3://B/night.csv', '--mapping', genericMapping, '--dry-run'], env, {
      cwd: workspace.dir,
    });
    expect(badAddress.exitCode, badAddress.stderr).toBe(2);
    expect(badAddress.stderr).toContain('OBJECT_ADDRESS');
    expect(badAddress.stderr).toContain('input: expected s3://bucket/key');
  });

  it(
    'the object replaced between two runs: the journal refuses it, naming the object and its ETag',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const address = await put('exports/replaced.csv', exportCsv('REPL'));
      const { sandbox } = await startTestSandbox();
      const env = envFor(workspace);
      const args = [
        'import',
        address,
        '--mapping',
        genericMapping,
        '--base-url',
        sandbox.url,
        '--log-format',
        'pretty',
      ];
      const first = await runBin(args, env, { cwd: workspace.dir });
      expect(first.exitCode, first.stderr).toBe(0);
      await put('exports/replaced.csv', csvOf([fraudRow('REPL-9', 'T-9')]));
      const second = await runBin(args, env, { cwd: workspace.dir });
      expect(second.exitCode, second.stderr).toBe(2);
      expect(second.stderr).toContain('JOURNAL_MISMATCH');
      expect(second.stderr).toMatch(
        new RegExp(
          `an input object that differs from the one this journal was made with \\(it was replaced since\\): ${address} \\(ETag "[0-9a-f]{32}" vs "[0-9a-f]{32}", size \\d+ vs \\d+ bytes\\)`,
        ),
      );
      expect(countIn(sandbox, 'claims')).toBe(4);
    },
  );

  it('killed mid-run, the same command resumes from the object: every claim once', { timeout: 180_000 }, async () => {
    const workspace = await makeWorkspace();
    const claims = 60;
    const rows = Array.from({ length: claims }, (_, claim) => fraudRow(`KILL-${String(claim)}`, `T-${String(claim)}`));
    const address = await put('exports/killed.csv', csvOf(rows));
    const { sandbox } = await startTestSandbox();
    const journal = join(workspace.dir, 'killed.journal.sqlite');
    const results = join(workspace.dir, 'killed.results.csv');
    const args = [
      cliBin,
      'import',
      address,
      '--mapping',
      genericMapping,
      '--base-url',
      sandbox.url,
      '--journal',
      journal,
      '--results',
      results,
      // Slow enough to be killed part way: each claim is a create and a filing.
      '--max-rps',
      '10',
      ...quiet,
    ];
    const env = envFor(workspace);
    const run = startImportProcess(args, 120_000, env);
    while (countIn(sandbox, 'claims') < 10) {
      const exited = run.exited();
      if (exited !== undefined) throw new Error(`the import ended before it was killed:\n${exited.stderr}`);
      await sleep(50);
    }
    expect((await run.kill()).signal).toBe('SIGKILL');
    expect(countIn(sandbox, 'claims')).toBeLessThan(claims);

    const again = await runBin(args.slice(1), env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(claimsAt(sandbox)).toEqual([...new Set(claimsAt(sandbox))]);
    expect(countIn(sandbox, 'claims')).toBe(claims);
    const read = await readResults(results);
    expect(read.rows.map((row) => row.line)).toEqual(rows.map((_, index) => String(index + 2)));
    expect(read.rows.every((row) => row.outcome === read.rows[0]?.outcome && row.error_code === '')).toBe(true);
  });
});

/** A TCP pass-through in front of the store, counting the bytes the store sent towards the client. */
async function countingTunnel(
  target: string,
): Promise<{ endpoint: string; received: () => number; close: () => void }> {
  const { hostname, port } = new URL(target);
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    upstream.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    sockets.add(client).add(upstream);
    // Piped both ways with backpressure: the store's bytes come only as fast as the client takes them.
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${String(address.port)}`,
    received: () => received,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('an object read as an export', () => {
  it(
    'is streamed as it is pulled, never fetched whole: a reader that stops holds back the store',
    { timeout: 60_000 },
    async () => {
      const size = 48 * 1024 * 1024;
      const address = await put('exports/large.csv', Buffer.alloc(size, 'a'));
      const tunnel = await countingTunnel(swift.endpoint);
      const store = new ObjectStore(storeSettingsOf({ BULK_DISPUTES_S3_ENDPOINT: tunnel.endpoint }), {
        credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
      });
      try {
        const source = objectSource(store, await store.identify(parseObjectAddress(address)));
        expect(source.name).toBe(address);
        const stream = await source.open();
        const chunks = stream[Symbol.asyncIterator]();
        expect((await chunks.next()).done).toBe(false);
        // The reader pauses: what reached us is what the sockets' buffers hold, not the object.
        await sleep(500);
        expect(tunnel.received()).toBeLessThan(size / 3);
        for (let next = await chunks.next(); next.done !== true; next = await chunks.next());
        expect(stream.bytesRead).toBe(size);
        expect(tunnel.received()).toBeGreaterThan(size);

        // A part: a ranged read of those bytes alone; past the end, nothing asked.
        expect((await source.read(size - 3, 10)).toString()).toBe('aaa');
        expect((await source.read(size, 10)).length).toBe(0);
      } finally {
        store.close();
        tunnel.close();
      }
    },
  );
});
