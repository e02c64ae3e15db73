import { existsSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  countIn,
  csvOf,
  editedMapping,
  fraudRow,
  genericColumns,
  genericMapping,
  importArgs,
  makeWorkspace,
  readResults,
  resultsCsv,
  runCli,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * The header checked once, before staging (docs/mappings.md, "When the header does not fit"): an
 * input whose header lacks a column the mapping reads stops with HEADER_MISMATCH, exit 2, before
 * the journal is made: no row staged, no request sent, no results file, no journal. What a person
 * reads on the terminal is asserted line by line.
 */

const env = { CLAIMS_API_KEY: sandboxKey };
/** As on a terminal: the failure as sentences, not a JSON log line. */
const pretty = ['--log-format', 'pretty'];

/** The CSV with some header names replaced, its rows unchanged. */
function renamed(csv: string, renames: Readonly<Record<string, string>>): string {
  const end = csv.indexOf('\n');
  const header = csv
    .slice(0, end)
    .split(',')
    .map((name) => renames[name] ?? name);
  return `${header.join(',')}${csv.slice(end)}`;
}

/** The terminal's lines of a run's stderr, each trimmed. */
const linesOf = (stderr: string) => stderr.split('\n').map((line) => line.trim());

/** Nothing reached the service, and the run left neither results nor journal behind. */
async function expectNothingDone(
  workspace: Workspace,
  sandbox: Parameters<typeof countIn>[0],
  before = { claims: 0, files: 0 },
) {
  expect(countIn(sandbox, 'claims')).toBe(before.claims);
  expect(countIn(sandbox, 'files')).toBe(before.files);
  expect(existsSync(workspace.results)).toBe(false);
  expect(existsSync(workspace.journal)).toBe(false);
}

describe('import: the header checked before staging', () => {
  it('a renamed required and optional column: exit 2, each named with its nearest header; the fixed mapping then imports', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const csv = csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')], { columns: [...genericColumns, 'branch'] });
    const input = await workspace.write(
      'disputes.csv',
      renamed(csv, { reason_code: 'Reason Code', cardholder_email: 'cardholder_e-mail' }),
    );

    const run = await runCli([...pretty, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(2);
    const lines = linesOf(run.stderr);
    expect(lines).toContain(
      `bulk-disputes: HEADER_MISMATCH: ${input}: the export's header lacks 2 columns of the 22 that ` +
        `${genericMapping} reads; nothing was staged or sent`,
    );
    expect(lines).toContain(
      `the mapping's column "cardholder_email" (shared.cardholder.email) is not in the export's header; ` +
        'did you mean "cardholder_e-mail"?',
    );
    expect(lines).toContain(
      `the mapping's column "reason_code" (shared.dispute.reason) is not in the export's header; ` +
        'did you mean "Reason Code"?',
    );
    expect(lines).toContain(
      `the header's columns the mapping does not name: "Reason Code", "cardholder_e-mail", "branch"`,
    );
    await expectNothingDone(workspace, sandbox);

    // The mapping fixed, the same command and journal: no journal of the refused run stands in the way.
    const fixed = await editedMapping(workspace, (mapping) => {
      mapping.shared = {
        ...mapping.shared,
        'dispute.reason': { ...mapping.shared?.['dispute.reason'], column: 'Reason Code' },
        'cardholder.email': { ...mapping.shared?.['cardholder.email'], column: 'cardholder_e-mail' },
      };
    });
    const again = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url], fixed), env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual(['filed', 'filed']);
    expect(countIn(sandbox, 'claims')).toBe(2);
  });

  it('a ";" export read with the mapping\'s ",": names ";" and csv.delimiter', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const semicolons = csvOf([fraudRow('A', 'T1')])
      .split('\n')
      .map((line) => line.replaceAll(',', ';'))
      .join('\n');
    const input = await workspace.write('disputes.csv', semicolons);

    const run = await runCli([...pretty, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(2);
    expect(linesOf(run.stderr)).toContain(
      `bulk-disputes: HEADER_MISMATCH: ${input} looks ";"-delimited: its header splits into 22 of the 22 columns ` +
        `the mapping reads with ";", but reads as 1 column with the mapping's ","; set csv.delimiter: ";" in ` +
        `${genericMapping}; nothing was staged or sent`,
    );
    await expectNothingDone(workspace, sandbox);
  });

  it('a ";" export with quoted names, which does not parse with ",", still names ";"', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const quoted = `${genericColumns.map((column) => `"${column}"`).join(';')}\n"A";"T1"\n`;
    const input = await workspace.write('disputes.csv', quoted);

    const run = await runCli([...pretty, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`HEADER_MISMATCH: ${input} looks ";"-delimited`);
    expect(run.stderr).toContain('set csv.delimiter: ";"');
    await expectNothingDone(workspace, sandbox);
  });

  it('random bytes: exit 2, "has none of the mapping\'s columns" in one sentence', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    // windows-1252 reads any byte: the file gets as far as its header (in UTF-8 it stops at csv_encoding).
    const mapping = await editedMapping(workspace, (edited) => {
      (edited as Record<string, unknown>).csv = { ...edited.csv, encoding: 'windows-1252' };
    });
    const input = await workspace.write('disputes.csv', seededBytes(5000, 7));

    const run = await runCli([...pretty, ...importArgs(workspace, input, ['--base-url', sandbox.url], mapping)], env);

    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^bulk-disputes: HEADER_MISMATCH: ${escaped(input)} has none of the mapping's columns[^\\n]*; is it the export ` +
          `${escaped(mapping)} was made for\\? Nothing was staged or sent\\n$`,
        'm',
      ),
    );
    await expectNothingDone(workspace, sandbox);
  });

  it("a fed-back results file with a renamed column: exit 2, named against the results file's header", async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1', { reason_code: 'XX' })]));
    const first = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);
    expect(first.exitCode, first.stderr).toBe(1);
    const results = await readResults(workspace.results);
    // Fixed as staff would, and the merchant's column renamed on the way.
    const fixedRows = results.rows.map((row) => ({ ...row, reason_code: 'FR', Merchant: row['merchant_name'] ?? '' }));
    const header = results.header.map((name) => (name === 'merchant_name' ? 'Merchant' : name));
    const fedBack = await workspace.write('fixed.csv', resultsCsv({ ...results, header }, fixedRows));
    const again = { ...workspace, results: `${workspace.dir}/again.csv`, journal: `${workspace.dir}/again.sqlite` };

    const run = await runCli([...pretty, ...importArgs(again, fedBack, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(2);
    const lines = linesOf(run.stderr);
    expect(lines).toContain(
      `the mapping's column "merchant_name" (case.merchant.name) is not in the results file's header; ` +
        'did you mean "Merchant"?',
    );
    // The status columns are ours: not columns the mapping should name.
    expect(lines).toContain(`the header's columns the mapping does not name: "Merchant"`);
    await expectNothingDone(again, sandbox);
  });

  it('a workbook with a renamed column: exit 2, named with its nearest header', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const records: string[][] = parse(csvOf([fraudRow('A', 'T1')]));
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Disputes');
    for (const record of records) sheet.addRow(record.map((cell) => (cell === 'transaction_amount' ? 'Amount' : cell)));
    const input = `${workspace.dir}/disputes.xlsx`;
    await workbook.xlsx.writeFile(input);
    const inWorkbook = { ...workspace, results: `${workspace.dir}/out.results.xlsx` };

    const run = await runCli([...pretty, ...importArgs(inWorkbook, input, ['--base-url', sandbox.url])], env);

    expect(run.exitCode, run.stderr).toBe(2);
    expect(linesOf(run.stderr)).toContain(
      `the mapping's column "transaction_amount" (case.transaction.amount) is not in the export's header; ` +
        'did you mean "Amount"?',
    );
    await expectNothingDone(inWorkbook, sandbox);
  });

  it('an optional_columns column the export lacks reads as blank cells: the rows import', async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      (edited as Record<string, unknown>).optional_columns = ['cardholder_email'];
    });
    const columns = genericColumns.filter((column) => column !== 'cardholder_email');
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')], { columns }));

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url], mapping), env);

    expect(run.exitCode, run.stderr).toBe(0);
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual(['filed']);
    const { data: claim } = await client.claims.retrieve('CLM-A');
    expect(claim.cases?.[0]?.cardholder).toEqual({ name: 'Maya Lindqvist', type: 'individual' });
  });

  it('a renamed column the mapping does not read: imports as before', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const csv = csvOf([fraudRow('A', 'T1', { branch: 'Lyon' })], { columns: [...genericColumns, 'branch'] });
    const input = await workspace.write('disputes.csv', renamed(csv, { branch: 'Branch office' }));

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(0);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.outcome, row['Branch office']])).toEqual([['filed', 'Lyon']]);
    expect(countIn(sandbox, 'claims')).toBe(1);
  });
});

/** Bytes from a fixed seed (xorshift32): the same "random" file on every run. */
function seededBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[index] = state & 0xff;
  }
  return bytes;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
