import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { pdfBytes } from '../evidence/fixtures.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericColumns,
  importArgs,
  lineOf,
  makeWorkspace,
  readPayloads,
  readResults,
  runCli,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * What an untrusted export must not be able to do through the import: reach files outside
 * --evidence-dir, plant formulas in the results, or make the API key appear anywhere the run
 * writes (docs/import.md, "What happens, in order" and "The results CSV").
 */

/**
 * A named pipe outside the evidence directory: opening it for reading would block until a writer
 * comes, so a test that ends shows it was never opened. Released (and removed with the workspace)
 * at the end, should a failing run have opened it after all.
 */
async function outsideFifo(workspace: Workspace): Promise<string> {
  await mkdir(join(workspace.dir, 'outside'), { recursive: true });
  const path = join(workspace.dir, 'outside', 'passwd');
  execFileSync('mkfifo', [path]);
  onTestFinished(() => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody was reading it, as it should be.
    }
  });
  return path;
}

describe('evidence paths outside --evidence-dir', () => {
  it('are invalid rows (evidence_path_outside, naming the column); nothing outside is opened or uploaded', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const fifo = await outsideFifo(workspace);
    await writeFile(join(workspace.dir, 'outside', 'real.pdf'), await pdfBytes(1));
    await symlink(fifo, join(workspace.evidenceDir, 'scan.pdf'));
    await symlink(join(workspace.dir, 'outside', 'real.pdf'), join(workspace.evidenceDir, 'receipt.pdf'));
    await symlink(join(workspace.dir, 'outside'), join(workspace.evidenceDir, 'linked-dir'));
    await workspace.evidence('receipts/sakuragawa-folio.pdf', 'folio.pdf');
    await workspace.evidence('correspondence/northwind-support-reply.png', 'reply.png');
    const cells = [
      '../../etc/passwd',
      '/etc/passwd',
      'scan.pdf',
      '../outside/passwd',
      fifo,
      'receipt.pdf',
      'linked-dir/real.pdf',
      '..\\outside\\passwd',
    ];
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        ...cells.map((cell, position) => duplicateChargeRow(`P${position}`, 'T1', cell)),
        duplicateChargeRow('C', 'T1', 'folio.pdf', { correspondence_files: 'reply.png;../outside/passwd' }),
        duplicateChargeRow('OK', 'T1', 'folio.pdf', { correspondence_files: 'reply.png' }),
      ]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), { CLAIMS_API_KEY: sandboxKey });

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    cells.forEach((cell, position) => {
      expect(lineOf(results, position + 2), cell).toMatchObject({
        outcome: 'invalid',
        error_code: 'evidence_path_outside',
        error_field: 'evidence.receipt_file',
      });
    });
    expect(lineOf(results, cells.length + 2)).toMatchObject({
      outcome: 'invalid',
      error_code: 'evidence_path_outside',
      error_field: 'evidence.correspondence_files',
    });
    expect(lineOf(results, cells.length + 3).outcome).toBe('filed');
    // Only the good row's two files went up, and only its claim was made.
    expect(countIn(sandbox, 'files')).toBe(2);
    expect(countIn(sandbox, 'claims')).toBe(1);
  }, 15_000);
});

describe('results CSV against formula injection', () => {
  it('cells a spreadsheet would run get a leading apostrophe; plain numbers stay', async () => {
    const workspace = await makeWorkspace();
    const columns = [...genericColumns, 'notes'];
    const notes = ['=HYPERLINK("http://evil","x")', '+cmd', '@SUM(1)', '-2+3', '-12.50', '\t=1+1', 'fine'];
    const rows = notes.map((note, position) => fraudRow(`N${position}`, 'T1', { notes: note }));
    rows.push(fraudRow('=1+1', 'T1', { cardholder_name: '=HYPERLINK("http://evil","x")', notes: 'plain' }));
    const input = await workspace.write('disputes.csv', csvOf(rows, { columns }));

    const run = await runCli(importArgs(workspace, input, ['--dry-run', '--payloads', workspace.payloads]), {});

    expect(run.exitCode, run.stderr).toBe(0);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => row.notes)).toEqual([
      `'=HYPERLINK("http://evil","x")`,
      `'+cmd`,
      `'@SUM(1)`,
      `'-2+3`,
      '-12.50',
      `'\t=1+1`,
      'fine',
      'plain',
    ]);
    const injected = lineOf(results, notes.length + 2);
    expect(injected).toMatchObject({
      claim_key: `'=1+1`,
      case_id: `'=1+1-T1`,
      dispute_ref: `'=1+1`,
      cardholder_name: `'=HYPERLINK("http://evil","x")`,
    });
    // Every cell of the file, status columns included.
    for (const row of results.rows) {
      for (const [column, cell = ''] of Object.entries(row)) {
        expect(/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+(\.\d+)?$/.test(cell)), `${column}: ${cell}`).toBe(
          false,
        );
      }
    }
    // Only the results are neutralised: what would be sent is the cell as written.
    const [payload] = (await readPayloads(workspace.payloads)).filter((body) => body.claim_id === 'CLM-=1+1');
    expect(payload?.cardholder).toMatchObject({ name: '=HYPERLINK("http://evil","x")' });
  });
});

describe('the API key', () => {
  const canary = 'test_SECRET_canary_123';
  const encodings = [canary, Buffer.from(`${canary}:`).toString('base64'), 'SECRET_canary'];

  async function bytesOf(paths: string[]): Promise<{ path: string; bytes: Buffer }[]> {
    const found = paths.filter((path) => existsSync(path));
    return Promise.all(found.map(async (path) => ({ path, bytes: await readFile(path) })));
  }

  it("appears nowhere: not in trace logs, results, payloads, or the journal's bytes", async () => {
    const { sandbox } = await startTestSandbox({ apiKeys: [canary] });
    const workspace = await makeWorkspace();
    await workspace.evidence('receipts/sakuragawa-folio.pdf', 'folio.pdf');
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        fraudRow('A', 'T1'),
        duplicateChargeRow('B', 'T1', 'folio.pdf'),
        fraudRow('C', 'T1', { card_active: 'yes' }),
        fraudRow('D', 'T1', { disputed_amount: 'x' }),
      ]),
    );

    const run = await runCli(
      [
        '--log-level',
        'trace',
        ...importArgs(workspace, input, ['--base-url', sandbox.url, '--payloads', workspace.payloads]),
      ],
      { CLAIMS_API_KEY: canary },
    );

    expect(run.exitCode, run.stderr).toBe(1);
    expect(countIn(sandbox, 'claims')).toBe(3);
    // Every request was logged (debug), so the key had its chances.
    expect(run.stderr.split('\n').filter((line) => line.includes('"claims request"')).length).toBeGreaterThanOrEqual(8);
    const files = await bytesOf([
      workspace.results,
      workspace.payloads,
      workspace.journal,
      `${workspace.journal}-wal`,
      `${workspace.journal}-shm`,
    ]);
    expect(files.map((file) => file.path)).toEqual(
      expect.arrayContaining([workspace.results, workspace.payloads, workspace.journal]),
    );
    for (const secret of encodings) {
      expect(run.stderr + run.stdout).not.toContain(secret);
      for (const file of files) expect(file.bytes.includes(secret), `${secret} in ${file.path}`).toBe(false);
    }
  });

  it('appears nowhere when the service refuses it (exit 3)', async () => {
    const { sandbox } = await startTestSandbox({ apiKeys: ['test_the_right_key_0002'] });
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));

    const run = await runCli(['--log-level', 'trace', ...importArgs(workspace, input, ['--base-url', sandbox.url])], {
      CLAIMS_API_KEY: canary,
    });

    expect(run.exitCode, run.stderr).toBe(3);
    const files = await bytesOf([workspace.results, workspace.journal, `${workspace.journal}-wal`]);
    for (const secret of encodings) {
      expect(run.stderr + run.stdout).not.toContain(secret);
      for (const file of files) expect(file.bytes.includes(secret), `${secret} in ${file.path}`).toBe(false);
    }
  });
});
