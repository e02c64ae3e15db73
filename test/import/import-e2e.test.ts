import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  countIn,
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericColumns,
  importArgs,
  jobArgs,
  lineOf,
  makeWorkspace,
  readPayloads,
  readResults,
  resultsCsv,
  rowOf,
  runCli,
  statusColumns,
  type GenericRow,
} from './e2e-fixtures.js';

/**
 * The import end to end: `main(['import', ...])` in-process against a real sandbox on loopback,
 * temp files for everything, outcomes read back from the results CSV and from the sandbox itself.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

describe('import: claims, evidence and outcomes', () => {
  it('rows of one claim that are not adjacent become one claim with both cases, each row filed', async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1'), fraudRow('A', 'T2')]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(0);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => [row.line, row.claim_id, row.case_id, row.outcome])).toEqual([
      ['2', 'CLM-A', 'A-T1', 'filed'],
      ['3', 'CLM-B', 'B-T1', 'filed'],
      ['4', 'CLM-A', 'A-T2', 'filed'],
    ]);
    const { data: claim } = await client.claims.retrieve('CLM-A');
    expect(claim.cases?.map((item) => item.case_id).sort()).toEqual(['A-T1', 'A-T2']);
    expect(countIn(sandbox, 'claims')).toBe(2);
  });

  it('one evidence file named by three rows (two claims) is uploaded once; the rows share its file id', async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    await workspace.evidence('receipts/sakuragawa-folio.pdf', 'receipts/folio.pdf');
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        duplicateChargeRow('D1', 'T1', 'receipts/folio.pdf'),
        duplicateChargeRow('D2', 'T1', 'receipts/folio.pdf'),
        duplicateChargeRow('D1', 'T2', './receipts/folio.pdf'),
      ]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(countIn(sandbox, 'files')).toBe(1);
    const results = await readResults(workspace.results);
    const fileIds = results.rows.map((row) => row.file_ids);
    expect(fileIds[0]).toMatch(/\S/);
    expect(fileIds).toEqual([fileIds[0], fileIds[0], fileIds[0]]);
    expect(results.rows.map((row) => row.outcome)).toEqual(['filed', 'filed', 'filed']);
    // The file is the claim's documentation, so the duplicate charges could be filed.
    const { data: claim } = await client.claims.retrieve('CLM-D1');
    expect(claim.cases?.map((item) => item.case_id).sort()).toEqual(['D1-T1', 'D1-T2']);
  });

  it('a bad amount, an unmapped enum value and a blank required cell are invalid rows naming the field; the rest goes through', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        fraudRow('OK', 'T1'),
        fraudRow('AMT', 'T1', { disputed_amount: '12,50' }),
        fraudRow('ENUM', 'T1', { reason_code: 'XX' }),
        fraudRow('REQ', 'T1', { arn: '' }),
        fraudRow('PART', 'T1'),
        fraudRow('PART', 'T2', { transaction_amount: 'ten' }),
        fraudRow('OK2', 'T1'),
      ]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(lineOf(results, 3)).toMatchObject({
      outcome: 'invalid',
      error_code: 'amount_format',
      error_field: 'case.dispute.amount',
      error_message: expect.stringMatching(/expected .*, got "12,50"/) as unknown,
    });
    expect(lineOf(results, 4)).toMatchObject({
      outcome: 'invalid',
      error_code: 'enum_unmapped',
      error_field: 'shared.dispute.reason',
      error_message: expect.stringMatching(/expected .*, got "XX"/) as unknown,
    });
    expect(lineOf(results, 5)).toMatchObject({
      outcome: 'invalid',
      error_code: 'required_missing',
      error_field: 'case.transaction.arn',
      error_message: expect.stringMatching(/expected a value, got a blank cell in column "arn"/) as unknown,
    });
    // The claim with an invalid row is held back whole; its valid row names the line to fix.
    expect(lineOf(results, 7)).toMatchObject({
      outcome: 'invalid',
      error_code: 'amount_format',
      error_field: 'case.transaction.amount',
    });
    expect(lineOf(results, 6)).toMatchObject({
      outcome: 'invalid',
      claim_id: 'CLM-PART',
      error_code: 'claim_incomplete',
      error_message: expect.stringContaining('line 7') as unknown,
    });
    expect(lineOf(results, 2).outcome).toBe('filed');
    expect(lineOf(results, 8).outcome).toBe('filed');
    const claimIds = sandbox.core.database.prepare('SELECT claim_id FROM claims ORDER BY claim_id').all() as {
      claim_id: string;
    }[];
    expect(claimIds.map((row) => row.claim_id)).toEqual(['CLM-OK', 'CLM-OK2']);
  });

  it("a 4xx from the service is rejected, with its status and the service's message", async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    // Another claim already holds case R-T1: new_claim gets 409, and no claim CLM-R exists to adopt.
    const other = fraudClaim('OTHER-CLAIM');
    await client.claims.createWithCases({ ...other, cases: other.cases.map((item) => ({ ...item, case_id: 'R-T1' })) });
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('R', 'T1'), fraudRow('R', 'T2'), fraudRow('OK', 'T1')]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    for (const caseId of ['R-T1', 'R-T2']) {
      expect(rowOf(results, caseId)).toMatchObject({
        outcome: 'rejected',
        http_status: '409',
        claim_id: 'CLM-R',
        error_message: expect.stringContaining('case_id R-T1 already exists') as unknown,
      });
    }
    expect(rowOf(results, 'OK-T1').outcome).toBe('filed');
    await expect(client.claims.retrieve('CLM-R')).rejects.toMatchObject({ status: 404 });
  });

  it("a case the service will not file is not_filed, with the review's reason and the mapping field to fix", async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    // Fraud on a card still active: the review's filing_errors say parameter_missing.
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('ACTIVE', 'T1', { card_active: 'yes' }), fraudRow('OK', 'T1')]),
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(rowOf(results, 'ACTIVE-T1')).toMatchObject({
      outcome: 'not_filed',
      claim_id: 'CLM-ACTIVE',
      error_code: 'parameter_missing',
      error_field: 'shared.issuer_evidence.card.is_active',
      error_message: expect.stringContaining('card must be cancelled') as unknown,
    });
    expect(rowOf(results, 'OK-T1').outcome).toBe('filed');
  });
});

describe('import: the results CSV', () => {
  it('has every input row once, in input order, source columns unchanged (a row of the wrong width included); exit 1', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const rows = [
      fraudRow('A', 'T1'),
      fraudRow('B', 'T1', { disputed_amount: 'x' }),
      fraudRow('A', 'T2'),
      fraudRow('C', 'T1', { cardholder_statement: 'said "no", twice' }),
    ];
    const good = csvOf(rows);
    // A record with one cell too many, between the others.
    const [header = '', ...lines] = good.trimEnd().split('\n');
    const wide = `${lines[1] ?? ''},extra`;
    const input = await workspace.write(
      'disputes.csv',
      `${[header, lines[0], wide, lines[1], lines[2], lines[3]].join('\n')}\n`,
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(results.header).toEqual([...statusColumns, ...genericColumns]);
    expect(results.rows.map((row) => row.line)).toEqual(['2', '3', '4', '5', '6']);
    expect(lineOf(results, 3)).toMatchObject({ outcome: 'invalid', error_code: 'csv_column_count', dispute_ref: 'B' });
    expect(lineOf(results, 3).error_message).toContain('expected 22 columns as in the header, got 23');
    const inputRows = [rows[0], rows[1], rows[1], rows[2], rows[3]];
    results.rows.forEach((row, position) => {
      for (const column of genericColumns)
        expect(row[column], `line ${row.line} ${column}`).toBe(inputRows[position]?.[column] ?? '');
    });
    expect(results.rows.map((row) => row.outcome)).toEqual(['filed', 'invalid', 'invalid', 'filed', 'filed']);
  });

  // Known bug (stage.ts prepare(): a row the CSV reader rejects is staged with no claim key, so
  // its claim is sent without it). Drop `.fails` once fixed.
  it('a row the CSV reader rejects still holds its claim back: the claim is not sent without it', async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const [header = '', first = '', second = '', third = ''] = csvOf([
      fraudRow('W', 'T1'),
      fraudRow('W', 'T2'),
      fraudRow('OK', 'T1'),
    ])
      .trimEnd()
      .split('\n');
    // W-T2 has one cell too many (a stray comma in an export): its claim key is still readable.
    const input = await workspace.write('disputes.csv', `${[header, first, `${second},extra`, third].join('\n')}\n`);

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(lineOf(results, 3)).toMatchObject({ outcome: 'invalid', error_code: 'csv_column_count' });
    expect(lineOf(results, 4).outcome).toBe('filed');
    // Sent now, CLM-W would hold W-T1 only, and W-T2, once fixed, could never join it.
    expect(lineOf(results, 2)).toMatchObject({
      outcome: 'invalid',
      error_code: 'claim_incomplete',
      error_message: expect.stringContaining('line 3') as unknown,
    });
    await expect(client.claims.retrieve('CLM-W')).rejects.toMatchObject({ status: 404 });
  });

  it('exit 0 when every row is filed', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);
    expect(run.exitCode, run.stderr).toBe(0);
    // The first line names where the claims went.
    expect(run.stderr).toContain(`import into ${sandbox.url} (test key) finished: 2 rows`);
  });
});

describe('import: re-runs', () => {
  it('the same command again creates nothing and gives the same results; another input needs --restart, which duplicates nothing', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const rows = [
      fraudRow('A', 'T1'),
      fraudRow('B', 'T1'),
      fraudRow('A', 'T2'),
      fraudRow('X', 'T1', { disputed_amount: 'x' }),
    ];
    const input = await workspace.write('disputes.csv', csvOf(rows));
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);

    const first = await runCli(args, env);
    expect(first.exitCode, first.stderr).toBe(1);
    const firstResults = (await readResults(workspace.results)).text;
    const claims = countIn(sandbox, 'claims');
    const cases = countIn(sandbox, 'cases');
    expect(claims).toBe(2);

    const again = await runCli(args, env);
    expect(again.exitCode, again.stderr).toBe(1);
    expect((await readResults(workspace.results)).text).toBe(firstResults);
    expect([countIn(sandbox, 'claims'), countIn(sandbox, 'cases')]).toEqual([claims, cases]);

    const other = await workspace.write('other.csv', csvOf([...rows, fraudRow('C', 'T1')]));
    const refused = await runCli(importArgs(workspace, other, ['--base-url', sandbox.url]), env);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--restart');
    expect(countIn(sandbox, 'claims')).toBe(claims);

    const restarted = await runCli(importArgs(workspace, other, ['--base-url', sandbox.url, '--restart']), env);
    expect(restarted.exitCode, restarted.stderr).toBe(1);
    expect(countIn(sandbox, 'claims')).toBe(claims + 1);
    expect(countIn(sandbox, 'cases')).toBe(cases + 1);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => row.outcome)).toEqual(['filed', 'filed', 'filed', 'invalid', 'filed']);
  });

  it('the results CSV, fixed and fed back in: the fixed claim is created, created ones are not created again', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        fraudRow('G', 'T1'),
        // A cell the results neutralise: fed back, the claim must get it as written.
        fraudRow('F', 'T1', { cardholder_statement: '=not a formula' }),
        fraudRow('F', 'T2', { disputed_amount: '12,50', cardholder_statement: '=not a formula' }),
        fraudRow('G', 'T2'),
      ]),
    );
    const first = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(countIn(sandbox, 'claims')).toBe(1);
    const firstResults = await readResults(workspace.results);
    expect(firstResults.rows.map((row) => row.outcome)).toEqual(['filed', 'invalid', 'invalid', 'filed']);

    // Staff fix the bad cell in the results file and feed it back in.
    const fixed = firstResults.rows.map((row) => (row.line === '4' ? { ...row, disputed_amount: '12.50' } : row));
    const fedBack = await workspace.write('disputes.fixed.csv', resultsCsv(firstResults, fixed));
    expect(lineOf(firstResults, 3).cardholder_statement).toBe("'=not a formula");
    const job = jobArgs(workspace, 'second', fedBack, ['--base-url', sandbox.url, '--payloads', workspace.payloads]);
    const second = await runCli(job.args, env);

    expect(second.exitCode, second.stderr).toBe(0);
    expect(countIn(sandbox, 'claims')).toBe(2);
    expect(countIn(sandbox, 'cases')).toBe(4);
    const secondResults = await readResults(job.results);
    expect(secondResults.header).toEqual(firstResults.header);
    expect(secondResults.rows.map((row) => [row.line, row.case_id, row.outcome])).toEqual([
      ['2', 'G-T1', 'filed'],
      ['3', 'F-T1', 'filed'],
      ['4', 'F-T2', 'filed'],
      ['5', 'G-T2', 'filed'],
    ]);
    expect(lineOf(secondResults, 4).disputed_amount).toBe('12.50');
    const sent = (await readPayloads(workspace.payloads)).find((body) => body.claim_id === 'CLM-F');
    expect(sent?.issuer_evidence).toMatchObject({ cardholder_explanation: '=not a formula' });
    expect(sent?.cases.map((item) => [item.case_id, (item.dispute as { amount: number }).amount])).toEqual([
      ['F-T1', 84999],
      ['F-T2', 1250],
    ]);
  });
});

describe('import: feeding results back after the network has moved', () => {
  // Known bug (process-claim.ts fileCases(): a claim found rather than created is filed again
  // without settling first, so a case the network has moved on reads not_filed). Drop `.fails` once fixed.
  it('a case filed earlier and since represented still reads filed, not not_filed', async () => {
    const { sandbox, request } = await startTestSandbox({ control: true });
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1', { disputed_amount: '12,50' })]),
    );
    const first = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);
    expect(first.exitCode, first.stderr).toBe(1);
    const firstResults = await readResults(workspace.results);
    expect(rowOf(firstResults, 'A-T1').outcome).toBe('filed');
    // The merchant answers: the network moves A-T1 on (a filed case is never `created` again).
    expect((await request('POST', '/_sandbox/cases/A-T1/advance', { status: 'chargeback_represented' })).status).toBe(
      200,
    );

    const fixed = firstResults.rows.map((row) =>
      row.case_id === '' && row.dispute_ref === 'B' ? { ...row, disputed_amount: '12.50' } : row,
    );
    const fedBack = await workspace.write('disputes.fixed.csv', resultsCsv(firstResults, fixed));
    const job = jobArgs(workspace, 'second', fedBack, ['--base-url', sandbox.url]);
    const second = await runCli(job.args, env);

    const secondResults = await readResults(job.results);
    expect(rowOf(secondResults, 'B-T1').outcome).toBe('filed');
    expect(rowOf(secondResults, 'A-T1')).toMatchObject({ outcome: 'filed', error_code: '' });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(countIn(sandbox, 'claims')).toBe(2);
  });
});

describe('import: modes and flags', () => {
  it('--dry-run --payloads: valid or invalid, nothing sent, one JSON body per claim', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'disputes.csv',
      csvOf([
        fraudRow('A', 'T1'),
        fraudRow('B', 'T1', { disputed_amount: 'x' }),
        fraudRow('A', 'T2'),
        fraudRow('C', 'T1'),
      ]),
    );

    const run = await runCli(
      importArgs(workspace, input, ['--base-url', sandbox.url, '--dry-run', '--payloads', workspace.payloads]),
      env,
    );

    expect(run.exitCode, run.stderr).toBe(1);
    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => row.outcome)).toEqual(['valid', 'invalid', 'valid', 'valid']);
    expect(countIn(sandbox, 'claims') + countIn(sandbox, 'cases') + countIn(sandbox, 'files')).toBe(0);
    const payloads = await readPayloads(workspace.payloads);
    expect(payloads.map((body) => [body.claim_id, body.cases.map((item) => item.case_id)])).toEqual([
      ['CLM-A', ['A-T1', 'A-T2']],
      ['CLM-C', ['C-T1']],
    ]);
  });

  it('--dry-run with every row valid: exit 0', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const run = await runCli(importArgs(workspace, input, ['--dry-run']), {});
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual(['valid']);
  });

  it('--file-mode none: created, not filed', async () => {
    const { sandbox, client } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('A', 'T2')]));

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url, '--file-mode', 'none']), env);

    expect(run.exitCode, run.stderr).toBe(0);
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual(['created', 'created']);
    const { data: claim } = await client.claims.retrieve('CLM-A');
    expect(claim.cases?.map((item) => (item as { status?: string }).status)).toEqual(['created', 'created']);
  });

  it('--shard 1/2 and --shard 2/2 together report every row exactly once and create every claim once', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const rows: GenericRow[] = [];
    for (const ref of ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7', 'S8'])
      rows.push(fraudRow(ref, 'T1'), fraudRow(ref, 'T2'));
    rows.push(fraudRow('', 'T9'));
    const input = await workspace.write('disputes.csv', csvOf(rows));

    const lines: string[][] = [];
    for (const shard of ['1/2', '2/2']) {
      const job = jobArgs(workspace, `shard-${shard.replace('/', '-of-')}`, input, [
        '--base-url',
        sandbox.url,
        '--shard',
        shard,
      ]);
      const run = await runCli(job.args, env);
      expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
      lines.push((await readResults(job.results)).rows.map((row) => row.line));
    }
    const [first = [], second = []] = lines;
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect([...first, ...second].map(Number).sort((left, right) => left - right)).toEqual(
      rows.map((_, position) => position + 2),
    );
    expect(countIn(sandbox, 'claims')).toBe(8);
    expect(countIn(sandbox, 'cases')).toBe(16);
  });

  it('no --base-url and no CLAIMS_BASE_URL: the embedded sandbox, said on stderr', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const sandboxDb = join(workspace.dir, 'embedded.db');

    const run = await runCli(importArgs(workspace, input, ['--sandbox-db', sandboxDb]), {});

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('embedded sandbox');
    expect((await readResults(workspace.results)).rows.map((row) => row.outcome)).toEqual(['filed']);
    const database = new Database(sandboxDb, { readonly: true });
    try {
      expect(database.prepare('SELECT claim_id FROM claims').all()).toEqual([{ claim_id: 'CLM-A' }]);
    } finally {
      database.close();
    }
  });

  it('no service named: a warning that nothing reaches a service; with --require-service or CLAIMS_REQUIRE_SERVICE=1, exit 2 and nothing staged', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const sandboxDb = join(workspace.dir, 'embedded.db');

    const warned = await runCli(importArgs(workspace, input, ['--sandbox-db', sandboxDb]), {});
    expect(warned.exitCode, warned.stderr).toBe(0);
    expect(warned.stderr).toContain(
      `no --base-url: importing into the embedded sandbox (data in ${sandboxDb}): nothing reaches a service`,
    );
    expect(warned.stderr).toMatch(/"level":40,.*the embedded sandbox: nothing reaches a service/);

    const message =
      'USAGE: base URL: expected --base-url URL or CLAIMS_BASE_URL, got neither (--require-service or ' +
      'CLAIMS_REQUIRE_SERVICE: this job must reach a service, not the embedded sandbox)';
    const other = await makeWorkspace();
    const otherInput = await other.write('disputes.csv', csvOf([fraudRow('B', 'T2')]));
    const otherDb = join(other.dir, 'embedded.db');
    for (const [flags, env] of [
      [['--require-service'], {}],
      [[], { CLAIMS_REQUIRE_SERVICE: '1' }],
      [[], { CLAIMS_REQUIRE_SERVICE: 'yes' }],
    ] as const) {
      const refused = await runCli(importArgs(other, otherInput, ['--sandbox-db', otherDb, ...flags]), env);
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(message);
      // Nothing staged, nothing written: no journal, no results, no sandbox.
      for (const file of [other.journal, other.results, otherDb]) expect(existsSync(file), file).toBe(false);
    }
    const garbled = await runCli(importArgs(other, otherInput, ['--sandbox-db', otherDb]), {
      CLAIMS_REQUIRE_SERVICE: 'maybe',
    });
    expect(garbled.exitCode).toBe(2);
    expect(garbled.stderr).toContain('CLAIMS_REQUIRE_SERVICE: expected 1 or 0, got maybe');
    // 0 is off: the rehearsal runs on the embedded sandbox as before.
    const off = await runCli(importArgs(other, otherInput, ['--sandbox-db', otherDb]), { CLAIMS_REQUIRE_SERVICE: '0' });
    expect(off.exitCode, off.stderr).toBe(0);
  });

  it('a mapping error: exit 2, nothing sent', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const mapping = await workspace.write(
      'broken.yaml',
      'claim:\n  key: [dispute_ref]\nshared: {}\ncase: {}\nfile_mode: sometimes\n',
    );

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url], mapping), env);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('file_mode');
    expect(countIn(sandbox, 'claims')).toBe(0);
    expect(existsSync(workspace.results)).toBe(false);
  });

  it('--concurrency 0: exit 2, nothing sent', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));

    const run = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url, '--concurrency', '0']), env);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--concurrency: expected a whole number from 1 to 256, got 0');
    expect(countIn(sandbox, 'claims')).toBe(0);
  });
});
