import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLockedDatabase } from '../../src/journal/open.js';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { v1Case } from '../migrate/fixtures.js';
import { importSampleWithBadAmount, temporaryFolder } from './fixture.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The report's text without its first line (which names the file and its kind). */
/** The report after its heading and the journal's `service:` line, which a results CSV does not record. */
const body = (stdout: string) =>
  stdout
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('service: '))
    .join('\n');

describe('bulk-disputes report JOURNAL', () => {
  it('reads an import journal to the same report as its results CSV', { timeout: 60_000 }, async () => {
    const folder = await temporaryFolder();
    // The sample with one bad amount: its claim (two rows) is held back, the other claims are filed.
    const { input, journal, results, imported } = await importSampleWithBadAmount(folder, '8 49');
    expect(imported.exitCode, imported.stderr).toBe(1);

    const fromCsv = await runCli(['report', results]);
    const fromJournal = await runCli(['report', journal]);
    expect(fromJournal.exitCode, fromJournal.stderr).toBe(0);
    expect(fromJournal.stdout.split('\n')[0]).toBe(`report: ${journal} (journal)`);
    expect(fromCsv.stdout.split('\n')[0]).toBe(`report: ${results} (results CSV)`);
    expect(fromJournal.stdout.split('\n')[1]).toBe(
      `service: the embedded sandbox at ${join(folder, 'sandbox.db')} (test key)`,
    );
    expect(fromCsv.stdout).not.toContain('service: ');
    expect(body(fromJournal.stdout)).toBe(body(fromCsv.stdout));
    expect(fromJournal.stdout).toMatch(/^ {2}filed +\d+$/m);
    // The bad row, and the other row of its claim (held back whole).
    expect(fromJournal.stdout).toMatch(/^ {2}invalid +2$/m);
    expect(fromJournal.stdout).toContain('amount_format (1)');
    expect(fromJournal.stdout).toContain('claim_incomplete (1)');

    // The report read a copy: the job's own journal is free, and the same command resumes from it.
    const again = await runCli([
      'import',
      input,
      '--mapping',
      join(root, 'mappings/generic.yaml'),
      '--evidence-dir',
      join(root, 'samples/evidence'),
      '--sandbox-db',
      join(folder, 'sandbox.db'),
      '--sandbox-clock',
      '2026-11-20T12:00:00Z',
      '--journal',
      journal,
      '--results',
      results,
      '--log-level',
      'silent',
    ]);
    expect(again.exitCode, again.stderr).toBe(1);
    expect(body((await runCli(['report', results])).stdout)).toBe(body(fromCsv.stdout));

    // The HTML page from the journal lists the same failed row.
    const page = join(folder, 'report.html');
    expect((await runCli(['report', journal, '--html', page])).exitCode).toBe(0);
    expect(await readFile(page, 'utf8')).toContain('amount_format');
  });

  it(
    "reads a journal made before changed_fields without it; the job's next run adds the column and resumes",
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder();
      const journal = join(folder, 'export.journal.sqlite');
      const results = join(folder, 'export.results.csv');
      const args = [
        'import',
        join(root, 'samples/generic-export.csv'),
        '--mapping',
        join(root, 'mappings/generic.yaml'),
        '--evidence-dir',
        join(root, 'samples/evidence'),
        '--sandbox-db',
        join(folder, 'sandbox.db'),
        '--sandbox-clock',
        '2026-11-20T12:00:00Z',
        '--journal',
        journal,
        '--results',
        results,
        '--log-level',
        'silent',
      ];
      expect((await runCli(args)).exitCode).toBe(0);
      const database = new Database(journal);
      database.exec('ALTER TABLE rows DROP COLUMN changed_fields');
      database.close();

      const report = await runCli(['report', journal]);
      expect(report.exitCode, report.stderr).toBe(0);
      expect(report.stdout).toMatch(/^ {2}filed +10$/m);
      const merged = await runCli(['merge-results', '--out', join(folder, 'merged.csv'), journal]);
      expect(merged.exitCode, merged.stderr).toBe(0);
      expect(await readFile(join(folder, 'merged.csv'), 'utf8')).toBe(await readFile(results, 'utf8'));

      const resumed = await runCli(args);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const reopened = new Database(journal, { readonly: true });
      expect(
        (reopened.prepare('PRAGMA table_info(rows)').all() as { name: string }[]).map((column) => column.name),
      ).toContain('changed_fields');
      reopened.close();
    },
  );

  it(
    'reads a migrate-v1 journal and results CSV: migrated and skipped are not failures',
    { timeout: 60_000 },
    async () => {
      const { sandbox, client } = await startTestSandbox();
      const folder = await temporaryFolder();
      for (const caseId of ['m1', 'm2', 'm3']) await client.v1.cases.create(v1Case(caseId));
      await client.claims.create({ case_ids: ['m3'], claim_id: 'existing_claim' });
      const journal = join(folder, 'migrate.journal.sqlite');
      const results = join(folder, 'migrate.results.csv');
      const migrated = await runCli(
        ['migrate-v1', '--base-url', sandbox.url, '--journal', journal, '--results', results, '--log-level', 'silent'],
        { CLAIMS_API_KEY: sandboxKey },
      );
      expect(migrated.exitCode, migrated.stderr).toBe(0);

      const fromCsv = await runCli(['report', results]);
      const fromJournal = await runCli(['report', journal]);
      expect(fromCsv.exitCode, fromCsv.stderr).toBe(0);
      expect(body(fromJournal.stdout)).toBe(body(fromCsv.stdout));
      expect(fromJournal.stdout.split('\n')[1]).toBe(`service: ${sandbox.url} (test key)`);
      // Claims as migrate-v1 counts them: the skipped case stays in the claim it had.
      expect(fromCsv.stdout).toContain('rows 3, claims 2');
      expect(fromCsv.stdout).toMatch(/^ {2}migrated +2$/m);
      expect(fromCsv.stdout).toMatch(/^ {2}skipped +1$/m);
      const page = join(folder, 'report.html');
      expect((await runCli(['report', results, '--html', page])).exitCode).toBe(0);
      expect(await readFile(page, 'utf8')).toContain('No failed rows.');
    },
  );

  it('stops with exit 3 while a run holds the journal, and exit 2 for a database that is no journal', async () => {
    const folder = await temporaryFolder();
    const busy = join(folder, 'busy.journal.sqlite');
    const held = openLockedDatabase(busy);
    try {
      held.exec('CREATE TABLE rows (idx INTEGER); CREATE TABLE claims (claim_key TEXT)');
      const run = await runCli(['report', busy]);
      expect(run.exitCode).toBe(3);
      expect(run.stderr).toContain('expected no run using it, got one');
    } finally {
      held.close();
    }

    const other = join(folder, 'other.sqlite');
    const database = new Database(other);
    database.exec('CREATE TABLE things (id INTEGER)');
    database.close();
    const run = await runCli(['report', other]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      'expected an import, migrate-v1, withdraw or track journal (tables meta, rows and claims; meta and cases; meta, withdraw_targets and withdraw_lines; or meta, track_rows and track_cases), got a SQLite database with things',
    );
  });
});
