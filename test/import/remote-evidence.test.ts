import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSizeLimitBytes } from '../../src/files/limits.js';
import { makeCertificates, type Certificates } from '../helpers/certificates.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  editedMapping,
  fraudRow,
  makeWorkspace,
  readResults,
  repoRoot,
  runBin,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * Evidence read from where banks keep it (docs/import.md, "Exports and evidence in object storage or behind
 * links"), by the built CLI against the sandbox: keys under an s3:// --evidence-dir in a real S3
 * API that checks signatures (Swift), objects in buckets and documents on hosts the mapping's
 * evidence_sources lists. What the mapping does not allow is refused with nothing fetched: the
 * store (through a counting proxy) and the document servers log every request they get.
 */

let swift: SwiftS3;
let certificates: Certificates;
let documents: Server;
let plain: HttpServer;
/** `host/path` of every request the HTTPS document server got. */
const documentRequests: string[] = [];
/** Every request the plain-HTTP server on loopback got: none may come. */
const plainRequests: string[] = [];

const sample = async (path: string) => readFile(join(repoRoot, 'samples/evidence', path));
const receipt = 'receipts/northwind-invoice-NW-48213.pdf';
const correspondence = 'correspondence/fenwick-furniture-email.png';

beforeAll(async () => {
  swift = await startSwiftS3();
  const setup = swift.client();
  const put = async (bucket: string, key: string, body: Buffer | string) =>
    setup.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  for (const bucket of ['bank-evidence', 'other-bank']) await setup.send(new CreateBucketCommand({ Bucket: bucket }));
  await put('bank-evidence', `night/${receipt}`, await sample(receipt));
  await put('bank-evidence', `night/${correspondence}`, await sample(correspondence));
  await put('bank-evidence', 'listed/receipt.pdf', await sample(receipt));
  // A JPEG's first bytes, then enough to reach the limit: too large by its size alone.
  await put(
    'bank-evidence',
    'listed/big.jpg',
    Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(fileSizeLimitBytes)]),
  );
  await put('bank-evidence', 'listed/notes.pdf', 'these are notes, not a PDF\n');
  await put('other-bank', 'secret.pdf', await sample(receipt));
  setup.destroy();

  certificates = await makeCertificates();
  const pdf = await sample(receipt);
  documents = createServer(
    { cert: await certificates.read(certificates.serverPem), key: await certificates.read(certificates.serverKey) },
    (request, response) => {
      documentRequests.push(`${request.headers.host ?? ''}${request.url ?? ''}`);
      const port = (documents.address() as AddressInfo).port;
      if (request.url === '/doc/receipt.pdf') response.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
      else if (request.url === '/to-loopback')
        response.writeHead(302, { location: `https://127.0.0.1:${String(port)}/doc/receipt.pdf` }).end();
      else if (request.url === '/to-metadata')
        response.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
      else response.writeHead(404).end();
    },
  );
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  plain = createHttpServer((request, response) => {
    plainRequests.push(request.url ?? '');
    response.writeHead(200).end('x');
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
}, 90_000);

afterAll(async () => {
  await new Promise((resolve) => documents.close(resolve));
  await new Promise((resolve) => plain.close(resolve));
  await certificates.remove();
  await swift.stop();
});

const documentHost = () => `localhost:${String((documents.address() as AddressInfo).port)}`;

/** The CLI's environment: the store's address and credentials as the AWS tools read them, the service key. */
function storeEnv(endpoint: string, secret = swift.secretAccessKey): NodeJS.ProcessEnv {
  return {
    CLAIMS_API_KEY: sandboxKey,
    AWS_ACCESS_KEY_ID: swift.accessKeyId,
    AWS_SECRET_ACCESS_KEY: secret,
    BULK_DISPUTES_S3_ENDPOINT: endpoint,
    AWS_REGION: 'us-east-1',
  };
}

function importArgs(workspace: Workspace, input: string, evidenceDir: string, extra: string[] = []): string[] {
  return [
    'import',
    input,
    '--results',
    workspace.results,
    '--journal',
    workspace.journal,
    '--evidence-dir',
    evidenceDir,
    ...extra,
  ];
}

const generic = join(repoRoot, 'mappings/generic.yaml');

describe('import: evidence under an s3:// --evidence-dir', () => {
  it('gives the same results as the same files on disk, and reads nothing it does not need', async () => {
    const rows = [
      fraudRow('S-1', 'T1'),
      duplicateChargeRow('S-2', 'T2', receipt),
      fraudRow('S-3', 'T3', { correspondence_files: correspondence }),
      duplicateChargeRow('S-4', 'T4', 'receipts/../../other-bank/secret.pdf'),
      duplicateChargeRow('S-5', 'T5', 'receipts/none.pdf'),
    ];
    const onDisk = await makeWorkspace();
    await onDisk.evidence(receipt, receipt);
    await onDisk.evidence(correspondence, correspondence);
    const diskInput = await onDisk.write('disputes.csv', csvOf(rows));
    const diskSandbox = await startTestSandbox();
    const diskRun = await runBin(
      [
        ...importArgs(onDisk, diskInput, onDisk.evidenceDir),
        '--mapping',
        generic,
        '--base-url',
        diskSandbox.sandbox.url,
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );

    const inStore = await makeWorkspace();
    const storeInput = await inStore.write('disputes.csv', csvOf(rows));
    const store = await startCountingProxy(swift.endpoint);
    const storeSandbox = await startTestSandbox();
    const storeRun = await runBin(
      [
        ...importArgs(inStore, storeInput, 's3://bank-evidence/night/'),
        '--mapping',
        generic,
        '--base-url',
        storeSandbox.sandbox.url,
      ],
      storeEnv(store.url),
    );

    expect(diskRun.exitCode, diskRun.stderr).toBe(1);
    expect(storeRun.exitCode, storeRun.stderr).toBe(1);
    const outcomes = async (file: string) =>
      (await readResults(file)).rows.map((row) => [row.line, row.outcome, row.error_code]);
    expect(await outcomes(inStore.results)).toEqual(await outcomes(onDisk.results));
    expect(await outcomes(inStore.results)).toEqual([
      ['2', 'filed', ''],
      ['3', 'filed', ''],
      ['4', 'filed', ''],
      ['5', 'invalid', 'evidence_path_outside'],
      ['6', 'invalid', 'evidence_not_found'],
    ]);
    const [, , , outside, missing] = (await readResults(inStore.results)).rows;
    expect(outside?.error_message).toBe(
      'evidence receipts/../../other-bank/secret.pdf: expected a path inside the evidence directory ' +
        'the prefix s3://bank-evidence/night/ (set by --evidence-dir), got one that leaves it',
    );
    expect(missing?.error_message).toBe(
      'evidence receipts/none.pdf: expected an existing object, got no object s3://bank-evidence/night/receipts/none.pdf',
    );
    expect(countIn(storeSandbox.sandbox, 'files')).toBe(countIn(diskSandbox.sandbox, 'files'));
    expect(countIn(storeSandbox.sandbox, 'files')).toBe(2);
    // The credentials asked once up front (a list), then one GET per object; never the other bucket.
    const requests = store.requests();
    expect(requests[0]).toBe('GET /bank-evidence/');
    expect(requests.slice(1).sort()).toEqual(
      [
        `GET /bank-evidence/night/${receipt}`,
        `GET /bank-evidence/night/${correspondence}`,
        'GET /bank-evidence/night/receipts/none.pdf',
      ].sort(),
    );
    expect(store.requests().filter((line) => line.includes('other-bank'))).toEqual([]);
    expect(storeRun.stderr).toContain(
      'evidence looked for in the prefix s3://bank-evidence/night/ (set by --evidence-dir)',
    );
  }, 120_000);

  it('a secret the store refuses stops the import with exit 5 before anything is staged or sent', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([duplicateChargeRow('W-1', 'T1', receipt)]));
    const { sandbox } = await startTestSandbox();
    const run = await runBin(
      [...importArgs(workspace, input, 's3://bank-evidence/night/'), '--mapping', generic, '--base-url', sandbox.url],
      storeEnv(swift.endpoint, 'not-the-secret'),
    );
    expect(run.exitCode, run.stderr).toBe(5);
    expect(run.stderr).toMatch(
      /OBJECT_STORE_CREDENTIALS: s3:\/\/bank-evidence\/night\/ \(http:\/\/127\.0\.0\.1:\d+\): expected the store to accept our credentials, got 403 \(SignatureDoesNotMatch\)/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(countIn(sandbox, 'claims')).toBe(0);
    expect(countIn(sandbox, 'files')).toBe(0);
    await expect(stat(workspace.journal)).rejects.toThrow(/ENOENT/);
  }, 60_000);
});

describe("import: evidence the mapping's evidence_sources allows, and what it does not", () => {
  it('uploads from a listed bucket and a listed host; refuses the rest row by row with nothing fetched', async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      edited.evidence_sources = { buckets: ['bank-evidence/listed/'], hosts: [documentHost()] } as never;
    });
    const plainPort = String((plain.address() as AddressInfo).port);
    const docs = `https://${documentHost()}`;
    const cells = [
      `${docs}/doc/receipt.pdf`,
      's3://bank-evidence/listed/receipt.pdf',
      's3://other-bank/secret.pdf',
      's3://bank-evidence/night/receipts/northwind-invoice-NW-48213.pdf',
      `https://127.0.0.1:${String((documents.address() as AddressInfo).port)}/doc/receipt.pdf`,
      `http://127.0.0.1:${plainPort}/doc/receipt.pdf`,
      'http://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/doc/receipt.pdf',
      `${docs}/to-loopback`,
      `${docs}/to-metadata`,
      's3://bank-evidence/listed/big.jpg',
      's3://bank-evidence/listed/notes.pdf',
      's3://bank-evidence/listed/none.pdf',
      `${docs}/doc/none.pdf`,
    ];
    const input = await workspace.write(
      'disputes.csv',
      csvOf(cells.map((cell, index) => duplicateChargeRow(`L-${String(index)}`, `T${String(index)}`, cell))),
    );
    const store = await startCountingProxy(swift.endpoint);
    const { sandbox } = await startTestSandbox();
    const documentsBefore = documentRequests.length;

    const run = await runBin(
      [
        ...importArgs(workspace, input, workspace.evidenceDir),
        '--mapping',
        mapping,
        '--base-url',
        sandbox.url,
        '--ca-file',
        certificates.caPem,
      ],
      storeEnv(store.url),
    );

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.receipt_file, row.outcome, row.error_code])).toEqual([
      [cells[0], 'filed', ''],
      [cells[1], 'filed', ''],
      [cells[2], 'invalid', 'evidence_not_allowed'],
      [cells[3], 'invalid', 'evidence_not_allowed'],
      [cells[4], 'invalid', 'evidence_not_allowed'],
      [cells[5], 'invalid', 'evidence_not_allowed'],
      [cells[6], 'invalid', 'evidence_not_allowed'],
      [cells[7], 'invalid', 'evidence_not_allowed'],
      [cells[8], 'invalid', 'evidence_not_allowed'],
      [cells[9], 'invalid', 'evidence_not_allowed'],
      [cells[10], 'invalid', 'evidence_too_large'],
      [cells[11], 'invalid', 'evidence_type_unsupported'],
      [cells[12], 'invalid', 'evidence_not_found'],
      [cells[13], 'invalid', 'evidence_not_found'],
    ]);
    const message = (index: number) => results.rows[index]?.error_message;
    expect(message(2)).toBe(
      "evidence s3://other-bank/secret.pdf: expected a bucket and prefix the mapping's evidence_sources.buckets " +
        'lists (s3://bank-evidence/listed/), got s3://other-bank/…: nothing was read',
    );
    expect(message(5)).toBe(
      `evidence ${cells[5] ?? ''}: expected an s3:// object or an https:// link the mapping's evidence_sources ` +
        'allows, or a path, got a http:// address: nothing was fetched',
    );
    expect(message(8)).toMatch(
      /expected a host the mapping's evidence_sources\.hosts lists, got 127\.0\.0\.1:\d+ \(a redirect to https:\/\/127\.0\.0\.1:\d+\/doc\/receipt\.pdf\): nothing was fetched from it$/,
    );
    expect(message(10)).toBe(
      `evidence s3://bank-evidence/listed/big.jpg: expected under 4.5 MB, got ${(fileSizeLimitBytes + 3).toLocaleString('en-US')} bytes`,
    );
    // Nothing fetched from what was refused: the document server saw the two redirects and the
    // two listed documents only; the plain-HTTP server nothing; the store neither the other
    // bucket, nor the evidence folder's keys; the large object's GET was answered, its size read
    // from the answer's headers, and its body dropped unread (the message says so: no bytes counted).
    expect(documentRequests.slice(documentsBefore).sort()).toEqual(
      [
        `${documentHost()}/doc/receipt.pdf`,
        `${documentHost()}/to-loopback`,
        `${documentHost()}/to-metadata`,
        `${documentHost()}/doc/none.pdf`,
      ].sort(),
    );
    expect(plainRequests).toEqual([]);
    const storeRequests = store.requests();
    expect(storeRequests.filter((line) => line.includes('other-bank') || line.includes('/night/'))).toEqual([]);
    expect(storeRequests.filter((line) => line.endsWith('/listed/big.jpg'))).toEqual([
      'GET /bank-evidence/listed/big.jpg',
    ]);
    expect(storeRequests).toContain('GET /bank-evidence/listed/receipt.pdf');
    // The same receipt from the store and from the link: uploaded once, by its content.
    expect(countIn(sandbox, 'files')).toBe(1);
  }, 120_000);

  it('a dry run reads and checks remote evidence the same way, sending nothing', async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      edited.evidence_sources = { buckets: ['bank-evidence/listed/'], hosts: [documentHost()] } as never;
    });
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        duplicateChargeRow('D-1', 'T1', `https://${documentHost()}/doc/receipt.pdf`),
        duplicateChargeRow('D-2', 'T2', 's3://bank-evidence/listed/notes.pdf'),
      ]),
    );
    const store = await startCountingProxy(swift.endpoint);
    const run = await runBin(
      [
        ...importArgs(workspace, input, workspace.evidenceDir, ['--dry-run']),
        '--mapping',
        mapping,
        '--ca-file',
        certificates.caPem,
      ],
      storeEnv(store.url),
    );
    expect(run.exitCode, run.stderr).toBe(1);
    expect((await readResults(workspace.results)).rows.map((row) => [row.outcome, row.error_code])).toEqual([
      ['valid', ''],
      ['invalid', 'evidence_type_unsupported'],
    ]);
    expect(store.requests()).toContain('GET /bank-evidence/listed/notes.pdf');
  }, 60_000);
});
