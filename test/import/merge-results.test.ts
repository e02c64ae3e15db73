import { existsSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { bytesIn, exportIn, germanUtf8, mappingFor, readResultsIn } from './dialects.js';
import {
  csvOf,
  duplicateChargeRow,
  editedMapping,
  fraudRow,
  genericMapping,
  makeWorkspace,
  runCli,
  type GenericRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * An import split with `--shard i/n` comes back as one results CSV (docs/report.md). Real imports
 * against real sandboxes; `merge-results` in-process.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

/** 24 claims: most of two rows far apart, some with evidence, a claim held back by a bad row, a row without a key. */
function exportRows(): GenericRow[] {
  const rows: GenericRow[] = [];
  for (let claim = 1; claim <= 24; claim++) {
    const ref = `M${claim}`;
    if (claim % 6 === 0)
      rows.push(
        duplicateChargeRow(ref, 'T1', 'receipts/folio.pdf', { disputed_amount: '19,99', transaction_amount: '19,99' }),
      );
    else
      rows.push(
        fraudRow(ref, 'T1', {
          disputed_amount: `${claim},50`,
          transaction_amount: `${claim},50`,
          cardholder_statement: `Zeile eins; ${claim}\r\nZeile zwei`,
        }),
      );
  }
  for (let claim = 1; claim <= 24; claim += 2) {
    rows.push(
      fraudRow(`M${claim}`, 'T2', {
        disputed_amount: claim === 7 ? 'sieben' : '5,00',
        transaction_amount: '5,00',
        cardholder_statement: `Zeile eins; ${claim}\r\nZeile zwei`,
      }),
    );
  }
  // One claim whose rows disagree on a claim-level field.
  rows.push(fraudRow('M9', 'T3', { disputed_amount: '5,00', transaction_amount: '5,00' }));
  rows.splice(10, 0, fraudRow('', 'T9', { disputed_amount: '1,00', transaction_amount: '1,00' }));
  return rows;
}

interface Job {
  results: string;
  journal: string;
}

async function importJob(
  workspace: Workspace,
  name: string,
  input: string,
  mapping: string,
  extra: string[],
): Promise<Job> {
  const job = {
    results: join(workspace.dir, `${name}.results.csv`),
    journal: join(workspace.dir, `${name}.journal.sqlite`),
  };
  const args = [
    'import',
    input,
    '--mapping',
    mapping,
    '--results',
    job.results,
    '--journal',
    job.journal,
    '--evidence-dir',
    workspace.evidenceDir,
    ...extra,
  ];
  const run = await runCli(args, env);
  // 1 when some of its rows are not ok; a shard may have none such.
  expect([0, 1], run.stderr).toContain(run.exitCode);
  return job;
}

/** The results' rows with the two cells a shard has of its own (its HTTP attempts, its uploads' ids) blanked. */
function comparable(rows: readonly Record<string, string>[]): Record<string, string>[] {
  return rows.map((row) => ({ ...row, attempts: '', file_ids: '' }));
}

describe('merge-results', () => {
  it(
    "four shards merged equal the unsharded import cell for cell (but attempts and file_ids), in the export's dialect; report reads the shards as one",
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      await workspace.evidence('receipts/sakuragawa-folio.pdf', 'receipts/folio.pdf');
      const mapping = await mappingFor(workspace, germanUtf8);
      const input = await workspace.write('export.csv', exportIn(germanUtf8, exportRows()));

      const whole = await startTestSandbox();
      const unsharded = await importJob(workspace, 'whole', input, mapping, ['--base-url', whole.sandbox.url]);
      const split = await startTestSandbox();
      const shards: Job[] = [];
      for (const index of [1, 2, 3, 4])
        shards.push(
          await importJob(workspace, `shard-${index}-of-4`, input, mapping, [
            '--base-url',
            split.sandbox.url,
            '--shard',
            `${index}/4`,
          ]),
        );

      const out = join(workspace.dir, 'merged', 'export.results.csv');
      // Given in another order than their shards': the merge goes by line.
      const merge = await runCli(['merge-results', '--out', out, ...shards.map((shard) => shard.journal).reverse()]);
      expect(merge.exitCode, merge.stderr).toBe(0);
      expect(merge.stderr).toContain('merged 4 of 4 shards: 38 rows');

      const expected = await readResultsIn(germanUtf8, unsharded.results);
      const merged = await readResultsIn(germanUtf8, out);
      expect(merged.bytes.subarray(0, 3).equals(bytesIn(germanUtf8, ''))).toBe(true);
      expect(merged.header).toEqual(expected.header);
      expect(comparable(merged.rows)).toEqual(comparable(expected.rows));
      // Every shard had rows of its own, and the rows are of every kind.
      for (const shard of shards)
        expect((await readResultsIn(germanUtf8, shard.results)).rows.length).toBeGreaterThan(0);
      expect(new Set(expected.rows.map((row) => row.outcome))).toEqual(new Set(['filed', 'invalid']));
      expect(expected.rows.some((row) => row.file_ids !== '')).toBe(true);
      expect(new Set(expected.rows.map((row) => row.error_code))).toEqual(
        new Set(['', 'amount_format', 'claim_incomplete', 'shared_field_mismatch', 'required_missing']),
      );

      const reportWhole = await runCli(['report', unsharded.results]);
      const reportShards = await runCli(['report', ...shards.map((shard) => shard.journal)]);
      expect(reportShards.exitCode, reportShards.stderr).toBe(0);
      // Counts alike; an error's example is the first row seen with it, which depends on the files' order.
      // The journals name their service, which a results CSV does not record.
      const body = (stdout: string) =>
        stdout
          .split('\n')
          .slice(1)
          .filter((line) => !line.trimStart().startsWith('e.g.') && !line.startsWith('service: '))
          .join('\n');
      expect(body(reportShards.stdout)).toBe(body(reportWhole.stdout));
      expect(reportShards.stdout.split('\n')[0]).toContain('shard-4-of-4.journal.sqlite (journal)');
      expect(reportShards.stdout.split('\n')[1]).toBe(`service: ${split.sandbox.url} (test key)`);
      // The shards' results CSVs as well, in their dialect, told nothing.
      const reportResults = await runCli(['report', ...shards.map((shard) => shard.results)]);
      expect(reportResults.exitCode, reportResults.stderr).toBe(0);
      expect(body(reportResults.stdout)).toBe(body(reportWhole.stdout));
    },
  );
});

describe('merge-results refuses, exit 2, naming the file and why', () => {
  /** Dry runs with journals: what a shard records is the same, and nothing needs a service. */
  async function dryShard(
    workspace: Workspace,
    name: string,
    input: string,
    shard: string,
    mapping = genericMapping,
  ): Promise<Job> {
    const job = {
      results: join(workspace.dir, `${name}.results.csv`),
      journal: join(workspace.dir, `${name}.journal.sqlite`),
    };
    const args = [
      'import',
      input,
      '--mapping',
      mapping,
      '--results',
      job.results,
      '--journal',
      job.journal,
      '--evidence-dir',
      workspace.evidenceDir,
      '--dry-run',
      '--shard',
      shard,
    ];
    const run = await runCli(args, env);
    expect(run.exitCode, run.stderr).toBe(0);
    return job;
  }

  const rows = () => ['R1', 'R2', 'R3', 'R4', 'R5', 'R6', 'R7', 'R8'].map((ref) => fraudRow(ref, 'T1'));

  async function refused(journals: readonly string[], workspace: Workspace) {
    const out = join(workspace.dir, 'merged.results.csv');
    const run = await runCli(['merge-results', '--out', out, ...journals]);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(existsSync(out)).toBe(false);
    return run.stderr;
  }

  it('a shard missing', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const first = await dryShard(workspace, 'one', input, '1/3');
    const third = await dryShard(workspace, 'three', input, '3/3');
    expect(await refused([first.journal, third.journal], workspace)).toMatch(
      /expected all 3 shards, got shard 2\/3 missing \(given: shard 1\/3 .*one\.journal\.sqlite, shard 3\/3 .*three\.journal\.sqlite\)/,
    );
  });

  it('the same shard twice: overlapping lines', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const first = await dryShard(workspace, 'one', input, '1/2');
    await dryShard(workspace, 'two', input, '2/2');
    const copy = join(workspace.dir, 'one-again.journal.sqlite');
    await copyFile(first.journal, copy);
    expect(await refused([first.journal, copy], workspace)).toMatch(
      /one-again\.journal\.sqlite: expected each shard once, got shard 1\/2 again \(also .*one\.journal\.sqlite\): their lines overlap/,
    );
  });

  it('another input', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const yesterday = await workspace.write('yesterday.csv', csvOf([...rows(), fraudRow('R9', 'T1')]));
    const first = await dryShard(workspace, 'one', input, '1/2');
    const second = await dryShard(workspace, 'two', yesterday, '2/2');
    expect(await refused([first.journal, second.journal], workspace)).toMatch(
      /two\.journal\.sqlite: expected the same input as the other shards, got another input \(sha256 [0-9a-f]{12}…\) than .*one\.journal\.sqlite/,
    );
  });

  it('another mapping', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const other = await editedMapping(workspace, (mapping) => {
      mapping.claim = { ...mapping.claim, id: { template: 'OTHER-{dispute_ref}' } };
    });
    const first = await dryShard(workspace, 'one', input, '1/2');
    const second = await dryShard(workspace, 'two', input, '2/2', other);
    expect(await refused([first.journal, second.journal], workspace)).toMatch(
      /two\.journal\.sqlite: expected the same mapping as the other shards, got another mapping/,
    );
  });

  it('shards of two splits', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const first = await dryShard(workspace, 'one', input, '1/2');
    const second = await dryShard(workspace, 'two', input, '2/3');
    expect(await refused([first.journal, second.journal], workspace)).toMatch(
      /two\.journal\.sqlite: expected shards of one split, got shard 2\/3 and shard 1\/2/,
    );
  });

  it('a results CSV instead of a journal', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('export.csv', csvOf(rows()));
    const first = await dryShard(workspace, 'one', input, '1/2');
    const second = await dryShard(workspace, 'two', input, '2/2');
    expect(await refused([first.journal, second.results], workspace)).toMatch(
      /two\.results\.csv: expected a shard's journal \(the --journal of its import\)/,
    );
  });

  it('a journal that is not there', async () => {
    const workspace = await makeWorkspace();
    expect(await refused([join(workspace.dir, 'absent.journal.sqlite')], workspace)).toMatch(
      /absent\.journal\.sqlite: expected a shard's journal file, got nothing there/,
    );
  });
});
