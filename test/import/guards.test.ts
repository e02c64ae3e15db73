import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/import/journal/journal.js';
import { runBin, runCli } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function workspace(): string {
  const directory = mkdtempSync(join(tmpdir(), 'guards-'));
  directories.push(directory);
  return directory;
}

describe('import guards', () => {
  it('refuses a journal another run holds: two runs of one job never race', () => {
    const file = join(workspace(), 'journal.sqlite');
    const first = new Journal(file);
    try {
      expect(() => new Journal(file)).toThrow(expect.objectContaining({ code: 'JOURNAL_BUSY' }) as Error);
    } finally {
      first.close();
    }
    // Released on close (and by the OS when a process dies).
    new Journal(file).close();
  });

  it('refuses a live key with no service address instead of importing into a local sandbox', async () => {
    const dir = workspace();
    const input = join(dir, 'in.csv');
    writeFileSync(input, 'a\n1\n');
    const run = await runCli(
      [
        'import',
        input,
        '--mapping',
        join(root, 'mappings/generic.yaml'),
        '--results',
        join(dir, 'r.csv'),
        '--sandbox-db',
        join(dir, 's.db'),
      ],
      { CLAIMS_API_KEY: 'live_key_123' },
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('expected --base-url URL or CLAIMS_BASE_URL with a live API key');
  });

  it('names a missing mapping file and exits 2 before anything starts', async () => {
    const dir = workspace();
    const input = join(dir, 'in.csv');
    writeFileSync(input, 'a\n1\n');
    const run = await runCli(
      ['import', input, '--mapping', join(dir, 'nope.yaml'), '--results', join(dir, 'r.csv')],
      {},
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--mapping .*nope\.yaml: expected a readable mapping file, got nothing there/);
  });

  it("reads back a results file whose source has columns named like status columns (the v1 sample's case_id)", async () => {
    const dir = workspace();
    const common = [
      '--mapping',
      'mappings/v1-cases.yaml',
      '--evidence-dir',
      'samples/evidence',
      '--sandbox-clock',
      '2026-11-20T12:00:00Z',
      '--sandbox-db',
      join(dir, 'sandbox.db'),
      '--log-level',
      'warn',
    ];
    const first = await runBin(
      [
        'import',
        'samples/v1-cases.csv',
        ...common,
        '--results',
        join(dir, 'first.csv'),
        '--journal',
        join(dir, 'first.sqlite'),
      ],
      {},
      { cwd: root },
    );
    expect(first.exitCode).toBe(0);
    const again = await runBin(
      [
        'import',
        join(dir, 'first.csv'),
        ...common,
        '--results',
        join(dir, 'again.csv'),
        '--journal',
        join(dir, 'again.sqlite'),
      ],
      {},
      { cwd: root },
    );
    expect(again.stderr).toMatch(/finished: 6 rows, 6 claims\n\s+filed\s+6\n/);
    expect(again.exitCode).toBe(0);
    const records: string[][] = parse(readFileSync(join(dir, 'again.csv')), { to: 1 });
    const header = records[0] ?? [];
    expect(header.filter((name) => name === 'case_id')).toHaveLength(2);
    expect(readFileSync(join(dir, 'again.csv'), 'utf8').split('\n')[0]).toBe(
      readFileSync(join(dir, 'first.csv'), 'utf8').split('\n')[0],
    );
  });
});
