import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  csvOf,
  editedMapping,
  fraudRow,
  genericColumns,
  importArgs,
  lineOf,
  makeWorkspace,
  readPayloads,
  readResults,
  runBin,
  runCli,
  statusColumns,
  type Payload,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * Locale amounts, dates across time zones, BOM, line endings and encodings through the whole
 * import, the things real exports get wrong: each checked where it lands, in the `--payloads`
 * body and in the results CSV. Dry runs: nothing here needs a service.
 */

type Case = Payload['cases'][number] & {
  dispute: { amount: number; date?: string };
  transaction: { amount: number; date: string };
  merchant: { name: string };
};

/** A fixed date's row is judged for filing as in its own month, not today: the embedded sandbox's clock, which the dry run checks filing at. */
const marchClock = ['--sandbox-clock', '2026-03-20T12:00:00Z'];

async function dryRun(workspace: Workspace, input: string, mapping?: string, extra: string[] = []) {
  // No --journal: a dry run then uses a temporary one, so one workspace can hold several runs.
  const args = importArgs(workspace, input, ['--dry-run', '--payloads', workspace.payloads, ...extra], mapping).filter(
    (arg, position, all) => arg !== '--journal' && all[position - 1] !== '--journal',
  );
  const run = await runCli(args, {});
  return { run, results: await readResults(workspace.results), payloads: await readPayloads(workspace.payloads) };
}

function caseOf(payloads: Payload[], caseId: string): Case {
  const found = payloads.flatMap((body) => body.cases).find((item) => item.case_id === caseId);
  if (found === undefined)
    throw new Error(
      `expected case ${caseId} in the payloads, got ${payloads.flatMap((body) => body.cases.map((item) => item.case_id)).join(', ')}`,
    );
  return found as Case;
}

describe('amounts by locale', () => {
  it('"1.234,56" with decimal separator "," and group "." is 123456 minor units', async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      for (const field of ['dispute.amount', 'transaction.amount']) {
        const spec = edited.case?.[field] as { amount: Record<string, string> };
        spec.amount = { ...spec.amount, decimal_separator: ',', group_separator: '.' };
      }
    });
    const input = await workspace.write(
      'eu.csv',
      csvOf([fraudRow('EU', 'T1', { disputed_amount: '1.234,56', transaction_amount: '1.234,56', currency: 'eur' })]),
    );

    const { run, results, payloads } = await dryRun(workspace, input, mapping);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(results.rows.map((row) => row.outcome)).toEqual(['valid']);
    const item = caseOf(payloads, 'EU-T1');
    expect(item.dispute).toMatchObject({ amount: 123456, currency: 'EUR' });
    expect(item.transaction.amount).toBe(123456);
  });

  it('"9,99" under decimal separator "." is an invalid row, never 999 (with or without "," grouping)', async () => {
    const workspace = await makeWorkspace();
    const grouped = await editedMapping(workspace, (edited) => {
      const spec = edited.case?.['dispute.amount'] as { amount: Record<string, string> };
      spec.amount = { ...spec.amount, group_separator: ',' };
    });
    const input = await workspace.write(
      'us.csv',
      csvOf([fraudRow('COMMA', 'T1', { disputed_amount: '9,99' }), fraudRow('OK', 'T1', { disputed_amount: '9.99' })]),
    );

    for (const mapping of [undefined, grouped]) {
      const { run, results, payloads } = await dryRun(workspace, input, mapping);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(lineOf(results, 2)).toMatchObject({
        outcome: 'invalid',
        error_code: 'amount_format',
        error_field: 'case.dispute.amount',
      });
      expect(lineOf(results, 2).error_message).toContain('got "9,99"');
      expect(payloads.map((body) => body.claim_id)).toEqual(['CLM-OK']);
      expect(caseOf(payloads, 'OK-T1').dispute.amount).toBe(999);
      expect(JSON.stringify(payloads)).not.toContain('COMMA');
    }
  });

  it('JPY "1500" is 1500 (no minor unit)', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write(
      'jp.csv',
      csvOf([
        fraudRow('JP', 'T1', { disputed_amount: '1500', transaction_amount: '1500', currency: 'jpy' }),
        fraudRow('JP2', 'T1', { disputed_amount: '1500.5', currency: 'jpy' }),
      ]),
    );

    const { results, payloads } = await dryRun(workspace, input);

    expect(caseOf(payloads, 'JP-T1').dispute).toMatchObject({ amount: 1500, currency: 'JPY' });
    expect(caseOf(payloads, 'JP-T1').transaction.amount).toBe(1500);
    expect(lineOf(results, 3)).toMatchObject({
      outcome: 'invalid',
      error_code: 'amount_precision',
      error_field: 'case.dispute.amount',
    });
  });
});

describe('dates', () => {
  it.each(['Pacific/Kiritimati', 'America/Los_Angeles'])(
    'a date-only 2026-03-15 stays 2026-03-15T00:00:00.000Z when the import runs under TZ=%s',
    async (zone) => {
      const workspace = await makeWorkspace();
      const input = await workspace.write(
        'dates.csv',
        csvOf([fraudRow('TZ', 'T1', { transaction_date: '2026-03-15', dispute_date: '2026-03-15' })]),
      );

      const run = await runBin(
        importArgs(workspace, input, ['--dry-run', '--payloads', workspace.payloads, ...marchClock]),
        { TZ: zone },
      );

      expect(run.exitCode, run.stderr).toBe(0);
      const [body] = await readPayloads(workspace.payloads);
      expect(body?.dispute).toMatchObject({ date: '2026-03-15T00:00:00.000Z' });
      expect(body?.cases[0]?.transaction).toMatchObject({ date: '2026-03-15T00:00:00.000Z' });
    },
  );

  it.each(['Pacific/Kiritimati', 'America/Los_Angeles'])(
    'a date-only 2026-03-15 stays 2026-03-15T00:00:00.000Z when the mapping names time_zone %s',
    async (zone) => {
      const workspace = await makeWorkspace();
      const mapping = await editedMapping(workspace, (edited) => {
        for (const [section, field] of [
          ['shared', 'dispute.date'],
          ['case', 'transaction.date'],
        ] as const) {
          const spec = edited[section]?.[field] as { date: Record<string, string> };
          spec.date = { ...spec.date, time_zone: zone };
        }
      });
      const input = await workspace.write(
        'dates.csv',
        csvOf([fraudRow('TZ', 'T1', { transaction_date: '2026-03-15', dispute_date: '2026-03-15' })]),
      );

      const { run, payloads } = await dryRun(workspace, input, mapping, marchClock);

      expect(run.exitCode, run.stderr).toBe(0);
      expect(payloads[0]?.dispute).toMatchObject({ date: '2026-03-15T00:00:00.000Z' });
      expect(caseOf(payloads, 'TZ-T1').transaction.date).toBe('2026-03-15T00:00:00.000Z');
    },
  );
});

describe('bytes, line endings and encodings', () => {
  it('a UTF-8 BOM never reaches the first header: the first column maps', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('bom.csv', `\uFEFF${csvOf([fraudRow('BOM', 'T1')])}`);

    const { run, results, payloads } = await dryRun(workspace, input);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(results.header).toEqual([...statusColumns, ...genericColumns]);
    expect(lineOf(results, 2)).toMatchObject({
      outcome: 'valid',
      claim_key: 'BOM',
      claim_id: 'CLM-BOM',
      dispute_ref: 'BOM',
    });
    expect(payloads[0]?.cases[0]?.custom_fields).toEqual({ dispute_ref: 'BOM' });
  });

  it('CRLF line endings and quoted line breaks inside a cell survive into the payload and the results', async () => {
    const workspace = await makeWorkspace();
    const statements = ['first line\nsecond line', 'first line\r\nsecond line'];
    const input = await workspace.write(
      'crlf.csv',
      csvOf(
        [
          fraudRow('NL', 'T1', { cardholder_statement: statements[0] }),
          fraudRow('CRLF', 'T1', { cardholder_statement: statements[1] }),
        ],
        { recordDelimiter: 'windows' },
      ),
    );

    const { run, results, payloads } = await dryRun(workspace, input);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(results.header).toEqual([...statusColumns, ...genericColumns]);
    // Lines are physical: the first record spans lines 2 and 3.
    expect(results.rows.map((row) => [row.line, row.outcome, row.cardholder_statement])).toEqual([
      ['2', 'valid', statements[0]],
      ['4', 'valid', statements[1]],
    ]);
    for (const row of results.rows) expect(row.correspondence_files).toBe('');
    expect(
      payloads.map((body) => (body.issuer_evidence as { cardholder_explanation: string }).cardholder_explanation),
    ).toEqual(statements);
  });

  it('a windows-1252 file with € and é maps when its mapping says so', async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      (edited.csv as Record<string, unknown>).encoding = 'windows-1252';
    });
    const text = csvOf([fraudRow('CP', 'T1', { merchant_name: 'Café €uro', cardholder_name: 'Zoë Ångström' })]);
    // windows-1252: Latin-1 for é, ë and Å, 0x80 for €.
    const bytes = Buffer.concat(
      text
        .split('€')
        .flatMap((part, position) =>
          position === 0 ? [Buffer.from(part, 'latin1')] : [Buffer.from([0x80]), Buffer.from(part, 'latin1')],
        ),
    );
    const input = await workspace.write('cp1252.csv', bytes);

    const { run, results, payloads } = await dryRun(workspace, input, mapping);

    expect(run.exitCode, run.stderr).toBe(0);
    expect(caseOf(payloads, 'CP-T1').merchant.name).toBe('Café €uro');
    expect((payloads[0]?.cardholder as { name: string }).name).toBe('Zoë Ångström');
    expect(lineOf(results, 2)).toMatchObject({
      outcome: 'valid',
      merchant_name: 'Café €uro',
      cardholder_name: 'Zoë Ångström',
    });
  });

  // Known bug (write-results.ts: the results are always UTF-8, which the windows-1252 mapping then
  // misreads without an error: "CafÃ© â‚¬uro" is sent). Drop `.fails` once fixed.
  it('the results of a windows-1252 export, fixed and fed back in through the same mapping, keep € and é', async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      (edited.csv as Record<string, unknown>).encoding = 'windows-1252';
    });
    const text = csvOf([fraudRow('CP', 'T1', { merchant_name: 'Café €uro', disputed_amount: '12,50' })]);
    const bytes = Buffer.concat(
      text
        .split('€')
        .flatMap((part, position) =>
          position === 0 ? [Buffer.from(part, 'latin1')] : [Buffer.from([0x80]), Buffer.from(part, 'latin1')],
        ),
    );
    const input = await workspace.write('cp1252.csv', bytes);
    const first = await dryRun(workspace, input, mapping);
    expect(lineOf(first.results, 2)).toMatchObject({ outcome: 'invalid', merchant_name: 'Café €uro' });

    // Staff fix the amount in the results file (a text edit of the cell) and run it again.
    const resultsBytes = await readFile(workspace.results);
    const fixedBytes = Buffer.from(resultsBytes.toString('latin1').replaceAll('12,50', '12.50'), 'latin1');
    const fedBack = await workspace.write('cp1252.fixed.csv', fixedBytes);
    const second = await dryRun(workspace, fedBack, mapping);

    expect(second.run.exitCode, second.run.stderr).toBe(0);
    expect(caseOf(second.payloads, 'CP-T1').merchant.name).toBe('Café €uro');
  });
});
