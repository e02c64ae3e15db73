import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cbnotFile } from '../helpers/fixed-width-files.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { countIn, importArgs, makeWorkspace, readResults, repoRoot, runCli } from './e2e-fixtures.js';

/**
 * A CBNOT-shaped file (American Express's chargeback notification file, as its published layout
 * places the fields) through the shipped mappings/amex-cbnot.yaml (docs/mappings.md, "Fixed-width
 * files and control records"): a dry run and a real import into a sandbox on a loopback port, each
 * detail record a case read right; a trailer that disagrees stops it with nothing written or sent.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
const pretty = ['--log-format', 'pretty'];
const cbnotMapping = join(repoRoot, 'mappings/amex-cbnot.yaml');

/** 23 digits per row, as staff would copy them from the card system. */
const arnOf = (row: number) => `7452${String(2026000000000000000 + row).slice(0, 19)}`;

describe('import: a fixed-width CBNOT file', () => {
  it('stages each detail record as a row; without an ARN each says so; fed back with ARNs, each is a case', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('cbnot.txt', cbnotFile({ blocks: [2, 1] }));

    const checked = await runCli(['mapping', 'check', cbnotMapping, '--input', input]);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(checked.stdout).toContain("its trailers' control figures agree with what each block holds");

    const args = importArgs(
      workspace,
      input,
      ['--base-url', sandbox.url, '--journal', workspace.journal],
      cbnotMapping,
    );
    const first = await runCli([...pretty, ...args], env);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toContain('lines outside the table, not rows: 4 (2 header records, 2 trailer records)');
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.line, row.outcome, row.error_field, row.case_number])).toEqual([
      ['2', 'invalid', 'case.transaction.arn', 'C2604100000'],
      ['3', 'invalid', 'case.transaction.arn', 'C2604100001'],
      ['6', 'invalid', 'case.transaction.arn', 'C2604100002'],
    ]);
    expect(results.rows[2]?.file_date).toBe('2026061');
    expect(countIn(sandbox, 'cases')).toBe(0);

    // Staff fill in the ARNs the records lack and feed the results back.
    const text = await readFile(workspace.results, 'utf8');
    const filled = text
      .split('\n')
      .map((line, index) => (index === 0 || line === '' ? line : line.replace(/,$/, `,${arnOf(index)}`)))
      .join('\n');
    const fix = await workspace.write('cbnot.fix.csv', filled);
    const fixArgs = importArgs(
      workspace,
      fix,
      ['--base-url', sandbox.url, '--journal', join(workspace.dir, 'fix.sqlite')],
      cbnotMapping,
    );
    const fixed = await runCli([...pretty, ...fixArgs], env);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual([
      'created',
      'created',
      'created',
    ]);
    const documents = (
      sandbox.core.database.prepare('SELECT document FROM cases ORDER BY seq').all() as { document: string }[]
    ).map((row) => JSON.parse(row.document) as { dispute: unknown; transaction: unknown });
    expect(documents).toHaveLength(3);
    expect(documents[0]).toMatchObject({
      dispute: { amount: 8995, currency: 'USD' },
      transaction: { amount: 9095, currency: 'USD', arn: arnOf(1) },
    });
    expect(JSON.stringify(documents[0])).toContain('2026-02-01');
    expect(JSON.stringify(documents)).toContain('"last4":"1000"');

    // The same command again: the journal has sent everything, nothing goes twice.
    const again = await runCli([...pretty, ...fixArgs], env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing to send');
    expect(countIn(sandbox, 'cases')).toBe(3);
  });

  it('explain cuts a record by the layout, a trailer too, which it says is no row', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('cbnot.txt', cbnotFile({ blocks: [1] }));
    const detail = await runCli(['mapping', 'explain', cbnotMapping, input, '--line', '2']);
    expect(detail.stdout).toContain('record: type "D" (detail), 2114 characters');
    expect(detail.stdout).toMatch(/ {2}case_number +46–56 +"C2604100000"/);
    expect(detail.stdout).toContain('transaction.arn');
    // A full card number where the masked one belongs: the slices show it masked, as the cells are.
    const planted = await workspace.write(
      'planted.txt',
      cbnotFile({ blocks: [1] }).replace(/372522XXXXX\d{4}/, '4111111111111111'),
    );
    const masked = await runCli(['mapping', 'explain', cbnotMapping, planted, '--line', '2']);
    expect(masked.stdout).toMatch(/cm_account_number +26–44 +"411111\S*1111 +"/);
    expect(masked.stdout).not.toContain('4111111111111111');
    const trailer = await runCli(['mapping', 'explain', cbnotMapping, input, '--line', '3', '--json']);
    expect(trailer.exitCode).toBe(0);
    const document = JSON.parse(trailer.stdout) as {
      fixedWidth: { role: string; fields: { name: string; text: string }[] };
    };
    expect(document.fixedWidth.role).toBe('trailer');
    expect(document.fixedWidth.fields).toContainEqual({ name: 'record_count', first: 35, last: 43, text: '000000003' });
  });

  it('a trailer that disagrees stops the import with exit 2: no journal, no results, nothing sent; accepted, the rows say so', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('cbnot.txt', cbnotFile({ blocks: [2, 1], trailerCounts: [4, 4] }));
    const args = importArgs(
      workspace,
      input,
      ['--base-url', sandbox.url, '--journal', workspace.journal],
      cbnotMapping,
    );
    const refused = await runCli([...pretty, ...args], env);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      'TRAILER_MISMATCH: ' +
        `${input}: the trailer on line 7 says 4 records, block 2 (lines 5–7) holds 3, its header and trailer included: ` +
        'a file cut short or joined?',
    );
    expect(existsSync(workspace.journal)).toBe(false);
    expect(existsSync(workspace.results)).toBe(false);
    expect(countIn(sandbox, 'claims')).toBe(0);

    const accepted = await runCli([...pretty, ...args, '--accept-trailer-mismatch', '--dry-run'], env);
    expect(accepted.exitCode, accepted.stderr).toBe(1);
    expect(accepted.stderr).toContain(
      'imported all the same (--accept-trailer-mismatch): the trailer on line 7 says 4 records, block 2 (lines 5–7) ' +
        'holds 3, its header and trailer included: a file cut short or joined? (the rows of lines 5–7 say so in warnings)',
    );
    const rows = (await readResults(workspace.results)).rows;
    expect(rows.map((row) => [row.line, row.warnings.startsWith('trailer_mismatch_accepted: ')])).toEqual([
      ['2', false],
      ['3', false],
      ['6', true],
    ]);
  });
});
