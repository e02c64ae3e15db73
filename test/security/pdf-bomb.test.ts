import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pdfBytes } from '../sandbox/files/fixtures.js';
import { multipartBody, multipartContentType } from '../sandbox/files/multipart.js';
import { postUpload } from '../sandbox/files/upload-server.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { objectStreamBomb } from '../files/pdf-bombs.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  importArgs,
  makeWorkspace,
  readResults,
  runCli,
} from '../import/e2e-fixtures.js';

/**
 * A PDF decompression bomb (docs/security.md): 1 MB whose object stream inflates to 1 GiB. Read to
 * the end it took pdf-lib 2.1 GB and 5 s with the event loop blocked, and passed as a good PDF of
 * one page. Now it is refused at the inflate limit as pdf_too_complex (evidence_pdf_too_complex in
 * the import), in a worker thread, and nothing of it is sent.
 */

const bomb = objectStreamBomb(1 << 30);
const pagesModule = fileURLToPath(new URL('../../dist/files/pdf-pages.js', import.meta.url));
const tooComplex = 'expected object and cross-reference streams that decode to at most 8,000,000 bytes in all, got ';
const env = { CLAIMS_API_KEY: sandboxKey };

/** Counts the pages of `file` in a process of its own (the built module), after a warm-up file. */
const childScript = `
const { readFileSync } = await import('node:fs');
const { countPdfPages } = await import(process.argv[2]);
// The worker thread starts on the first file that needs it: a good file first, so that the time
// measured is the bomb's.
const warm = await countPdfPages(readFileSync(process.argv[4]));
const started = performance.now();
let answer;
try {
  answer = { pages: await countPdfPages(readFileSync(process.argv[3])) };
} catch (error) {
  answer = { name: error.name, message: error.message };
}
const ms = performance.now() - started;
console.log(JSON.stringify({ warm, ms, ...answer, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
`;

describe('a PDF decompression bomb', () => {
  it('is refused within 1 s and under 300 MB of memory for the whole process', async () => {
    const folder = await temporaryFolder('pdf-bomb-');
    const bombFile = join(folder, 'bomb.pdf');
    const goodFile = join(folder, 'good.pdf');
    await writeFile(bombFile, bomb);
    await writeFile(goodFile, await pdfBytes(2));
    const script = join(folder, 'count-pages.mjs');
    await writeFile(script, childScript);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [script, pathToFileURL(pagesModule).href, bombFile, goodFile],
      { timeout: 60_000 },
    );
    const measured = JSON.parse(stdout) as {
      warm: number;
      ms: number;
      name: string;
      message: string;
      maxRssMb: number;
    };

    expect(measured.warm).toBe(2);
    expect(measured).toMatchObject({
      name: 'PdfTooComplexError',
      message: `pdf: ${tooComplex}more than 8,000,000 bytes`,
    });
    expect(measured.ms).toBeLessThan(1000);
    expect(measured.maxRssMb).toBeLessThan(300);
  });

  it('as evidence in a dry run: its row is refused with the code, the other row is fine, nothing is sent', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    await workspace.write('evidence/bomb.pdf', bomb);
    await workspace.write('evidence/receipt.pdf', await pdfBytes(1));
    const input = await workspace.write(
      'disputes.csv',
      csvOf([duplicateChargeRow('A', 'T1', 'bomb.pdf'), duplicateChargeRow('B', 'T2', 'receipt.pdf')]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url, '--dry-run']), env);

    // Invalid rows and nothing else: exit 1 (docs/exit-codes.md), not 3 (running it again changes nothing).
    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.error_code, row.error_message])).toEqual([
      ['evidence_pdf_too_complex', `evidence bomb.pdf: ${tooComplex}more than 8,000,000 bytes`],
      ['', ''],
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect([countIn(sandbox, 'claims'), countIn(sandbox, 'files')]).toEqual([0, 0]);
  });

  it('as evidence in a real import: its row never reaches the service, the other row is filed', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    await workspace.write('evidence/bomb.pdf', bomb);
    await workspace.write('evidence/receipt.pdf', await pdfBytes(1));
    const input = await workspace.write(
      'disputes.csv',
      csvOf([duplicateChargeRow('A', 'T1', 'bomb.pdf'), duplicateChargeRow('B', 'T2', 'receipt.pdf')]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.outcome, row.error_code])).toEqual([
      ['invalid', 'evidence_pdf_too_complex'],
      ['filed', ''],
    ]);
    // One claim, one case, one file: the good row's, nothing of the bomb's.
    expect([countIn(sandbox, 'claims'), countIn(sandbox, 'cases'), countIn(sandbox, 'files')]).toEqual([1, 1, 1]);
  });

  it('uploaded to the sandbox: refused with pdf_too_complex', async () => {
    const { sandbox } = await startTestSandbox();
    const answer = await postUpload(sandbox.url, uploadOf(bomb), uploadHeaders);
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errors: [
          {
            code: 'pdf_too_complex',
            details: { field: 'file' },
            message: `file: ${tooComplex}more than 8,000,000 bytes`,
          },
        ],
      },
    });
    expect(countIn(sandbox, 'files')).toBe(0);
  });

  it('while the sandbox checks a hostile upload, it answers other requests', async () => {
    const { sandbox, request } = await startTestSandbox();
    // 4.4 MB of empty dictionaries: no bomb to stop at, so pdf-lib parses for a second or so
    // until its worker outgrows its heap. Meanwhile the sandbox's event loop is free.
    const dictionaries = Buffer.from(
      `%PDF-1.7\n1 0 obj\n[${'<<>>'.repeat(1_100_000)}]\nendobj\ntrailer\n<< /Root 1 0 R >>\n`,
      'latin1',
    );
    const started = performance.now();
    const upload = postUpload(sandbox.url, uploadOf(dictionaries), uploadHeaders).then((answer) => ({
      answer,
      ms: performance.now() - started,
    }));
    // Once the upload is in and being checked.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const askedAt = performance.now();
    const other = await request('GET', '/v2/issuer/claims/claim_000000000000000000000000');
    const otherAnsweredAt = performance.now() - started;
    const otherMs = performance.now() - askedAt;
    const { answer, ms } = await upload;

    expect(other.status).toBe(404);
    expect(answer).toMatchObject({ status: 400, body: { errors: [{ code: 'pdf_too_complex' }] } });
    expect(otherAnsweredAt).toBeLessThan(ms);
    expect(otherMs).toBeLessThan(250);
  });
});

const uploadHeaders = {
  'content-type': multipartContentType,
  authorization: `Basic ${Buffer.from(`${sandboxKey}:`).toString('base64')}`,
};

function uploadOf(content: Buffer): Buffer {
  return multipartBody([
    { name: 'category', content: 'transaction_receipt' },
    { name: 'file', filename: 'statement.pdf', contentType: 'application/pdf', content },
  ]);
}
