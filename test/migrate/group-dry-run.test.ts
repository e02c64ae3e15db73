import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, onTestFinished } from 'vitest';
import { groupKeyOf, migratedClaimId, parseGroupBy } from '../../src/job-files/migrate/group.js';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { claimsWithCases, v1Case } from './fixtures.js';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-migrate-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function readResults(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = parse(await readFile(file, 'utf8'), { columns: true });
  return rows;
}

describe('grouping', () => {
  it('groups by dot paths; blank values go alone; ids are deterministic', () => {
    const fields = parseGroupBy('cardholder.email, dispute.date');
    expect(fields).toEqual(['cardholder.email', 'dispute.date']);
    const a = { case_id: 'a', cardholder: { email: 'x@example.com' }, dispute: { date: '2026-01-01' } };
    const b = { ...a, case_id: 'b' };
    const c = { case_id: 'c', cardholder: { email: ' ' }, dispute: { date: '2026-01-01' } };
    expect(groupKeyOf(a, fields)).toBe(groupKeyOf(b, fields));
    expect(groupKeyOf(c, fields)).toBe('case="c"');
    expect(groupKeyOf(a, [])).toBe('case="a"');
    expect(migratedClaimId(groupKeyOf(a, fields))).toMatch(/^mig_[0-9a-f]{24}$/);
    expect(migratedClaimId('k')).toBe(migratedClaimId('k'));
    expect(() => parseGroupBy('a..b')).toThrow(/--group-by/);
  });
});

describe('migrate-v1 --group-by and --dry-run', () => {
  it('sends nothing on a dry run, then groups cases into multi-case claims', { timeout: 60_000 }, async () => {
    const { sandbox, client } = await startTestSandbox();
    const dir = await tempDir();
    const refs: Record<string, string | undefined> = {
      c1: 'A',
      c2: 'A',
      c3: 'A',
      c4: 'B',
      c5: 'B',
      c6: undefined,
      c7: undefined,
      c8: 'C',
      c9: '=cmd',
    };
    for (const [caseId, ref] of Object.entries(refs)) await client.v1.cases.create(v1Case(caseId, ref));
    await client.claims.create({ case_ids: ['c9'], claim_id: 'existing_claim' });
    const env = { CLAIMS_API_KEY: sandboxKey };
    const base = [
      'migrate-v1',
      '--base-url',
      sandbox.url,
      '--group-by',
      'custom_fields.dispute_ref',
      '--log-level',
      'silent',
    ];

    const dryResults = join(dir, 'dry.csv');
    const dry = await runCli([...base, '--dry-run', '--results', dryResults], env);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      'migrate-v1 finished: 9 v1 cases = 8 valid + 1 skipped + 0 failed + 0 rejected (5 claims)',
    );
    expect((await claimsWithCases(client)).size).toBe(1);
    const dryRows = await readResults(dryResults);
    expect(dryRows.map((row) => row.outcome).sort()).toEqual([...Array<string>(8).fill('valid'), 'skipped'].sort());

    const journal = join(dir, 'journal.sqlite');
    const results = join(dir, 'results.csv');
    const run = await runCli([...base, '--journal', journal, '--results', results], env);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'migrate-v1 finished: 9 v1 cases = 8 migrated + 1 skipped + 0 failed + 0 rejected (5 claims)',
    );
    const claims = await claimsWithCases(client);
    const sizes = [...claims.values()].map((cases) => cases.length).sort();
    expect(sizes).toEqual([1, 1, 1, 1, 2, 3]);
    expect(claims.get('existing_claim')).toEqual(['c9']);
    const rows = await readResults(results);
    expect(rows).toHaveLength(9);
    const byCase = new Map(rows.map((row) => [row.case_id, row]));
    expect(byCase.get('c1')?.claim_id).toBe(byCase.get('c3')?.claim_id);
    expect(claims.get(byCase.get('c1')?.claim_id ?? '')?.sort()).toEqual(['c1', 'c2', 'c3']);
    expect(byCase.get('c6')?.claim_id).not.toBe(byCase.get('c7')?.claim_id);
    expect(byCase.get('c9')).toMatchObject({ outcome: 'skipped', claim_id: 'existing_claim' });
    expect(byCase.get('c1')?.group_key).toBe('custom_fields.dispute_ref="A"');

    // The same command again changes nothing; another --group-by on this journal is refused.
    const again = await runCli([...base, '--journal', journal, '--results', results], env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect((await claimsWithCases(client)).size).toBe(6);
    const other = await runCli(
      ['migrate-v1', '--base-url', sandbox.url, '--journal', journal, '--results', results, '--log-level', 'silent'],
      env,
    );
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('--restart');
    // The refusal names the flag, its two values, and the flag to give to resume.
    expect(other.stderr).toMatch(
      /--group-by: custom_fields\.dispute_ref → \S+.*run again with --group-by custom_fields\.dispute_ref;/u,
    );
  });

  it('uses the embedded sandbox without --base-url, and says so', { timeout: 30_000 }, async () => {
    const dir = await tempDir();
    const run = await runCli(
      [
        'migrate-v1',
        '--sandbox-db',
        join(dir, 'sandbox.db'),
        '--journal',
        join(dir, 'j.sqlite'),
        '--results',
        join(dir, 'r.csv'),
        '--log-level',
        'silent',
      ],
      {},
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('embedded sandbox');
    expect(run.stderr).toContain('migrate-v1 finished: 0 v1 cases = 0 migrated + 0 skipped + 0 failed + 0 rejected');
  });
});
