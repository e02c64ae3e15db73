import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, onTestFinished, test } from 'vitest';
import type { ClaimsClient } from '../../src/api/client/index.js';
import { defaultColumns } from '../../src/export/columns.js';
import { runCli } from '../helpers/cli.js';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-export-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function readCsv(file: string): Promise<string[][]> {
  const rows: string[][] = parse(await readFile(file, 'utf8'));
  return rows;
}

/** `count` case.created events, 50 cases to a claim so that 1,000 events take 20 requests. */
async function createEvents(client: ClaimsClient, prefix: string, count: number): Promise<void> {
  for (let made = 0; made < count; made += 50) {
    await client.claims.createWithCases(fraudClaim(`${prefix}-${made}`, Math.min(50, count - made)));
  }
}

async function allEventIds(client: ClaimsClient): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of client.events.listAll()) ids.push(event.event_id);
  return ids;
}

describe('bulk-disputes export', () => {
  test("1,000 events equal the sandbox's own list; --state then exports only what is new, oldest first", async () => {
    const { sandbox, client } = await startTestSandbox();
    const dir = await tempDir();
    const env = { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: sandboxKey };
    const out = join(dir, 'events.csv');
    const state = join(dir, 'events.state.json');
    await createEvents(client, 'clm_bulk', 1000);
    const expected = await allEventIds(client);
    expect(expected).toHaveLength(1000);

    const first = await runCli(['--log-level', 'silent', 'export', 'events', '--out', out, '--state', state], env);
    expect(first.exitCode, first.stderr).toBe(0);
    const [header, ...rows] = await readCsv(out);
    expect(header).toEqual([...defaultColumns.events]);
    expect(rows.map((row) => row[0])).toEqual(expected);
    expect(
      rows.every((row) => row[2] === 'case.created' && row[3]?.startsWith('clm_bulk-') === true && row[1] !== ''),
    ).toBe(true);
    expect(first.stderr).toContain(`exported 1000 events to ${out} (bookmark: ${expected[0] ?? ''})`);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ resource: 'events', bookmark: expected[0] });

    await createEvents(client, 'clm_new', 10);
    const newest10 = (await allEventIds(client)).slice(0, 10).reverse();
    const second = await runCli(['--log-level', 'silent', 'export', 'events', '--out', out, '--state', state], env);
    expect(second.exitCode, second.stderr).toBe(0);
    expect((await readCsv(out)).slice(1).map((row) => row[0])).toEqual(newest10);
    expect(second.stderr).toContain(`exported 10 events to ${out} (bookmark: ${newest10[9] ?? ''})`);

    const third = await runCli(['--log-level', 'silent', 'export', 'events', '--out', out, '--state', state], env);
    expect(third.exitCode, third.stderr).toBe(0);
    expect(await readCsv(out)).toEqual([[...defaultColumns.events]]);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ resource: 'events', bookmark: newest10[9] });
  }, 60_000);

  test('cases: nested columns, a formula neutralised, --out - to stdout, an unknown column warned about once', async () => {
    const { sandbox, client } = await startTestSandbox();
    const claim = fraudClaim('clm_formula', 1);
    const firstCase = claim.cases[0];
    if (firstCase !== undefined) firstCase.merchant.name = '=HYPERLINK("http://evil")';
    await client.claims.createWithCases(claim);
    const env = { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: sandboxKey };
    const run = await runCli(
      [
        '--log-level',
        'silent',
        'export',
        'cases',
        '--out',
        '-',
        '--columns',
        'case_id,merchant.name,transaction.card.last4,dispute.amount,nope.nothing',
      ],
      env,
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(parse(run.stdout)).toEqual([
      ['case_id', 'merchant.name', 'transaction.card.last4', 'dispute.amount', 'nope.nothing'],
      ['clm_formula-case-1', `'=HYPERLINK("http://evil")`, '4242', '1000', ''],
    ]);
    expect(run.stderr.match(/warning: nope\.nothing/g)).toHaveLength(1);
    expect(run.stderr).toContain('exported 1 cases to stdout (bookmark: clm_formula-case-1)');
  });

  test('a state file for another resource is refused with exit 2, nothing written', async () => {
    const { sandbox } = await startTestSandbox();
    const dir = await tempDir();
    const state = join(dir, 'cases.state.json');
    await writeFile(state, JSON.stringify({ resource: 'cases', bookmark: 'case_1', updated: '' }));
    const run = await runCli(['export', 'events', '--out', join(dir, 'events.csv'), '--state', state], {
      CLAIMS_BASE_URL: sandbox.url,
      CLAIMS_API_KEY: sandboxKey,
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('expected a state file for events, got one for cases');
    await expect(readFile(join(dir, 'events.csv'))).rejects.toThrow();
  });

  test('an unknown resource is a usage error (exit 2)', async () => {
    const run = await runCli(['export', 'disputes', '--out', '-'], {
      CLAIMS_BASE_URL: 'http://127.0.0.1:9',
      CLAIMS_API_KEY: sandboxKey,
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('expected one of cases, claims, events, got disputes');
  });

  test('no --base-url: claims from the embedded sandbox, said so on stderr', async () => {
    const dir = await tempDir();
    const out = join(dir, 'claims.csv');
    const run = await runCli(
      ['--log-level', 'silent', 'export', 'claims', '--out', out, '--sandbox-db', join(dir, 'sandbox.db')],
      { CLAIMS_API_KEY: sandboxKey },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('no --base-url: exporting from the embedded sandbox');
    expect(await readCsv(out)).toEqual([['claim_id', 'created', 'status']]);
    expect(run.stderr).toContain(`exported 0 claims to ${out} (bookmark: none)`);
  });
});
