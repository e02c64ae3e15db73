import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { createSandbox } from '../../src/sandbox/server.js';
import { cliBin } from '../helpers/sandbox-process.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** `npm start` is the bundled sample through the bundled mapping into the embedded sandbox. */
describe('npm start', () => {
  it('imports the sample, files every claim, ends with the summary and the results path; the sandbox holds the claims', async () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const [node, bin, ...args] = scripts.start.split(' ');
    expect([node, bin]).toEqual(['node', 'dist/cli/bin.js']);
    // Same arguments, outputs moved to a temporary directory (later flags win).
    const out = mkdtempSync(join(tmpdir(), 'npm-start-'));
    directories.push(out);
    const overrides = [
      '--results',
      join(out, 'results.csv'),
      '--journal',
      join(out, 'journal.sqlite'),
      '--sandbox-db',
      join(out, 'sandbox.db'),
    ];
    const { stderr } = await run(process.execPath, [cliBin, ...args, ...overrides], { cwd: root });
    expect(stderr).toContain('importing into the embedded sandbox');
    expect(stderr).toMatch(
      /import into the embedded sandbox finished: 10 rows, 5 claims\n\s+filed\s+10\ntook \S+: staging \S+, sending \S+(?: \(\S+ of it while staging\))?, results \S+\nresults: .*results\.csv\n$/,
    );

    const rows: Record<string, string>[] = parse(readFileSync(join(out, 'results.csv')), { columns: true });
    expect(rows.map((row) => row.outcome)).toEqual(Array(10).fill('filed'));
    const sandbox = await createSandbox({ db: join(out, 'sandbox.db') });
    try {
      const claims = sandbox.core.database.prepare('SELECT claim_id, status FROM claims ORDER BY claim_id').all();
      expect(claims).toEqual(
        ['0101', '0102', '0103', '0104', '0105'].map((n) => ({ claim_id: `CLM-D-2026-${n}`, status: 'filed' })),
      );
    } finally {
      await sandbox.close();
    }
  });

  it('imports the version 1 sample through mappings/v1-cases.yaml and files every claim', async () => {
    const out = mkdtempSync(join(tmpdir(), 'v1-sample-'));
    directories.push(out);
    const args = [
      'import',
      'samples/v1-cases.csv',
      '--mapping',
      'mappings/v1-cases.yaml',
      '--evidence-dir',
      'samples/evidence',
      '--sandbox-clock',
      '2026-11-20T12:00:00Z',
    ];
    const outputs = [
      '--results',
      join(out, 'results.csv'),
      '--journal',
      join(out, 'journal.sqlite'),
      '--sandbox-db',
      join(out, 'sandbox.db'),
      '--log-level',
      'warn',
    ];
    const { stderr } = await run(process.execPath, [cliBin, ...args, ...outputs], { cwd: root });
    expect(stderr).toMatch(/import into the embedded sandbox finished: 6 rows, 6 claims\n\s+filed\s+6\n/);
  });
});
