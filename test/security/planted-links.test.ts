import { chmod, copyFile, lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, type CliRun } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { startReview } from '../card-numbers/review-page.js';

/**
 * A symbolic link planted at every path a job writes, pointing at a victim file (known content,
 * 0644): the job refuses it (exit 2, OUTPUT_IS_A_LINK naming the link and its target) or replaces
 * the link itself with a new file of its own, and the victim is never changed. Then the same jobs
 * over files they wrote before, made 0644 meanwhile: each ends with the mode docs/data.md promises.
 * The cases are keyed by the rows of docs/data.md's table of every file: a row without a case
 * fails, so a new output cannot be forgotten.
 */

const root = new URL('../..', import.meta.url).pathname;
const importFlags = [
  '--mapping',
  join(root, 'mappings/generic.yaml'),
  '--evidence-dir',
  join(root, 'samples/evidence'),
  '--sandbox-clock',
  '2026-11-20T12:00:00Z',
];
const sample = join(root, 'samples/generic-export.csv');
/** The sample with its first row's amount mistyped: the base import's row for the review to fix. */
const baseInput = () => join(base, 'base.csv');

/** What one job writes and how it is run in a folder of its own (`at` names a file in it). */
interface Case {
  /** The paths it writes, each planted with a link in a run of its own. */
  outputs: string[];
  run: (at: (name: string) => string) => Promise<CliRun>;
  /** The mode the file ends with; 0600 unless docs/data.md says otherwise. */
  mode?: number;
  /**
   * Where a job passes over what stands at its output and writes the next free name instead (the
   * review's fix file): a link there is left as it is; a second run writes these.
   */
  passesOver?: string[];
}

let base: string;
const baseJournal = () => join(base, 'base.journal.sqlite');
const sandboxDb = () => join(base, 'sandbox.db');
const env = {};

/** A job against the one sandbox the base import filed into (its claims are what the other jobs read). */
const job = async ([command = '', ...rest]: string[], cwd: string) =>
  runBin([command, '--sandbox-db', sandboxDb(), ...rest], env, { cwd });
/** A job that reads and writes files only. */
const local = async (argv: string[], cwd: string) => runBin(argv, env, { cwd });
const importInto = async (at: (name: string) => string, files: string[]) =>
  job(['import', sample, ...importFlags, ...files], at('.'));

const cases: Record<string, Case | { notAPath: string }> = {
  'Import journal (SQLite)': {
    outputs: ['j.sqlite', 'j.sqlite-wal', 'j.sqlite-shm', 'j.sqlite-journal'],
    run: async (at) => importInto(at, ['--journal', at('j.sqlite'), '--results', at('r.csv')]),
  },
  'Import results (CSV or .xlsx)': {
    outputs: ['r.csv', 'dry.results.csv', 'merged.csv'],
    run: async (at) => {
      const real = await importInto(at, ['--journal', at('j.sqlite'), '--results', at('r.csv')]);
      if (real.exitCode > 1) return real;
      const dry = await importInto(at, ['--dry-run', '--results', at('dry.results.csv')]);
      if (dry.exitCode > 1) return dry;
      return local(['merge-results', at('j.sqlite'), '--out', at('merged.csv')], at('.'));
    },
  },
  'Payloads (JSON Lines)': {
    // `.partial`: the file the run writes before it is renamed into place.
    outputs: ['p.jsonl', 'p.jsonl.partial'],
    run: async (at) =>
      importInto(at, ['--journal', at('j.sqlite'), '--results', at('r.csv'), '--payloads', at('p.jsonl')]),
  },
  'Review store (SQLite)': {
    outputs: ['j.sqlite.review.sqlite'],
    run: async (at) => {
      await copyFile(baseJournal(), at('j.sqlite'));
      return reviewRun([at('j.sqlite'), ...importFlags.slice(0, 4)]);
    },
  },
  'Fix file and its journal': {
    outputs: ['j.fix-1.results.csv'],
    passesOver: ['j.fix-2.results.csv'],
    run: async (at) => {
      await copyFile(baseJournal(), at('j.sqlite'));
      return reviewRun([at('j.sqlite'), ...importFlags.slice(0, 4)], { save: true });
    },
  },
  'Withdraw journal': {
    outputs: ['w.sqlite'],
    run: async (at) => withdrawRun(at),
  },
  'Withdraw results': {
    outputs: ['w.csv'],
    run: async (at) => withdrawRun(at),
  },
  'Track journal': {
    outputs: ['t.sqlite'],
    run: async (at) => trackRun(at),
  },
  'Status file, worklist': {
    outputs: ['t.csv', 't.worklist.csv'],
    run: async (at) => trackRun(at),
  },
  'Track page': {
    outputs: ['t.html'],
    run: async (at) => trackRun(at),
  },
  'Migration journal': {
    outputs: ['m.sqlite'],
    run: async (at) => job(['migrate-v1', '--journal', at('m.sqlite'), '--results', at('m.csv')], at('.')),
  },
  'Migration results': {
    outputs: ['m.csv'],
    run: async (at) => job(['migrate-v1', '--journal', at('m.sqlite'), '--results', at('m.csv')], at('.')),
  },
  Export: {
    outputs: ['cases.csv'],
    run: async (at) => job(['export', 'cases', '--out', at('cases.csv')], at('.')),
  },
  'Export state': {
    outputs: ['state.json'],
    run: async (at) => job(['export', 'claims', '--out', at('claims.csv'), '--state', at('state.json')], at('.')),
  },
  'Report page, results workbook': {
    outputs: ['report.html', 'report.xlsx'],
    run: async (at) =>
      local(
        ['report', join(base, 'base.results.csv'), '--html', at('report.html'), '--xlsx', at('report.xlsx')],
        at('.'),
      ),
  },
  'Prune record (JSON lines)': {
    outputs: ['prune-record.jsonl'],
    run: async (at) => local(['prune', at('.'), '--record', at('prune-record.jsonl')], at('.')),
  },
  "Report's copy of a journal": { notAPath: 'a folder mkdtemp names afresh in the temporary directory, 0700' },
  // Its mode and folder are checked in review-open.test.ts.
  "`--open`'s redirect file": {
    notAPath: 'created only (wx) in a folder mkdtemp names afresh in the temporary directory, 0700',
  },
  'Mapping draft': {
    outputs: ['draft.yaml'],
    run: async (at) => local(['mapping', 'guess', sample, '--out', at('draft.yaml'), '--force'], at('.')),
  },
  'Embedded sandbox': {
    outputs: ['own.db', 'own.db-wal', 'own.db-shm', 'own.db.blobs'],
    run: async (at) =>
      runBin(
        [
          'import',
          sample,
          ...importFlags,
          '--sandbox-db',
          at('own.db'),
          '--journal',
          at('j.sqlite'),
          '--results',
          at('r.csv'),
        ],
        env,
        { cwd: at('.') },
      ),
  },
  'Metrics file': {
    outputs: ['metrics.prom'],
    mode: 0o644,
    run: async (at) =>
      job(['export', 'events', '--out', at('events.csv'), '--metrics-file', at('metrics.prom')], at('.')),
  },
  Logs: { notAPath: 'stderr' },
  'Data on stdout': { notAPath: 'stdout' },
};

async function withdrawRun(at: (name: string) => string): Promise<CliRun> {
  const files = ['--journal', at('w.sqlite'), '--results', at('w.csv')];
  return job(['withdraw', baseJournal(), '--claim-key', 'D-2026-0102', '--yes', ...files], at('.'));
}

async function trackRun(at: (name: string) => string): Promise<CliRun> {
  const files = ['--journal', at('t.sqlite'), '--results', at('t.csv'), '--worklist', at('t.worklist.csv')];
  return job(['track', baseJournal(), ...files, '--html', at('t.html')], at('.'));
}

/** `review` as a process: refused before it listens (its exit and output), or serving (saving a fix when asked), then stopped. */
async function reviewRun(args: string[], options: { save?: boolean } = {}): Promise<CliRun> {
  let review;
  try {
    review = await startReview(args, env);
  } catch (error) {
    const text = String(error);
    const exit = /review exited with (\d+)/.exec(text);
    return { exitCode: Number(exit?.[1] ?? 99), stdout: '', stderr: text };
  }
  if (options.save === true) {
    const { rows } = JSON.parse(await review.get('/api/rows?scope=all')) as {
      rows: { line: number; outcome: string }[];
    };
    const line = rows.find((row) => row.outcome === 'invalid')?.line;
    expect(line).toBeDefined();
    await review.send('PUT', `/api/rows/${String(line)}`, { cells: { disputed_amount: '849.99' } });
    const saved = JSON.parse(await review.send('POST', '/api/save', {})) as { file?: string };
    expect(saved.file, JSON.stringify(saved)).toMatch(/\.fix-\d\.results\.csv$/);
  }
  return { exitCode: 0, stdout: '', stderr: await review.stop() };
}

/** docs/data.md's table of every file: the first cell of each row. */
async function documentedFiles(): Promise<string[]> {
  const page = await readFile(join(root, 'docs/data.md'), 'utf8');
  const table = page.slice(page.indexOf('## Every file, by job'), page.indexOf('## Deleting'));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| File |'))
    .map((line) => line.split(' | ')[0]?.slice(2).trim() ?? '');
}

const victimText = 'the victim: a file the job was never asked to write\n';

async function plantVictim(folder: string, name: string): Promise<string> {
  const victim = join(folder, `${name}.victim`);
  await writeFile(victim, victimText);
  await chmod(victim, 0o644);
  return victim;
}

async function expectVictimUnchanged(victim: string): Promise<void> {
  expect(await readFile(victim, 'utf8')).toBe(victimText);
  expect((await lstat(victim)).mode & 0o777).toBe(0o644);
}

const runnable = Object.entries(cases).filter((entry): entry is [string, Case] => 'outputs' in entry[1]);

describe('every file a job writes, a link planted at it', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'bulk-disputes-planted-'));
    await writeFile(baseInput(), (await readFile(sample, 'utf8')).replace(',849.99,849.99,', ',84x.99,849.99,'));
    const first = await job(
      ['import', baseInput(), ...importFlags, '--journal', baseJournal(), '--results', join(base, 'base.results.csv')],
      base,
    );
    expect(first.exitCode, first.stderr).toBeLessThan(2);
  }, 120_000);
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("covers every row of docs/data.md's table of files", async () => {
    expect(Object.keys(cases).sort()).toEqual((await documentedFiles()).sort());
  });

  it.each(runnable.flatMap(([name, entry]) => entry.outputs.map((output) => [name, output, entry] as const)))(
    '%s: a link at %s is refused or replaced, never followed',
    async (_name, output, entry) => {
      const folder = await temporaryFolder('bulk-disputes-link-');
      const at = (name: string) => join(folder, name);
      const victim = await plantVictim(folder, 'planted');
      await symlink(victim, at(output));
      const run = await entry.run(at);
      await expectVictimUnchanged(victim);
      const now = await lstat(at(output)).catch(() => undefined);
      if (run.exitCode === 2) {
        expect(run.stderr).toContain('OUTPUT_IS_A_LINK');
        expect(run.stderr).toContain(`expected a file of our own at ${at(output)}, got a symbolic link to ${victim}`);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        expect(now?.isSymbolicLink()).toBe(true);
      } else {
        expect(run.exitCode, run.stderr).toBeLessThan(2);
        if (now?.isSymbolicLink() === true) {
          // Passed over: left as it was, the file written under the next free name.
          expect(entry.passesOver, `${output} still a link`).toBeDefined();
          expect(await readlink(at(output))).toBe(victim);
        } else if (now !== undefined) {
          // Replaced: a file of its own (or the blob folder), owner-only.
          expect(now.mode & 0o777).toBe(now.isDirectory() ? 0o700 : (entry.mode ?? 0o600));
        }
      }
    },
  );

  it.each(runnable.map(([name, entry]) => [name, entry] as const))(
    '%s: files written before and made 0644 end with the promised mode',
    async (_name, entry) => {
      const folder = await temporaryFolder('bulk-disputes-mode-');
      const at = (name: string) => join(folder, name);
      const first = await entry.run(at);
      expect(first.exitCode, first.stderr).toBeLessThan(2);
      const present: string[] = [];
      for (const output of entry.outputs) {
        const found = await lstat(at(output)).catch(() => undefined);
        if (found === undefined) continue;
        present.push(output);
        await chmod(at(output), found.isDirectory() ? 0o755 : 0o644);
      }
      expect(present.length).toBeGreaterThan(0);
      const again = await entry.run(at);
      expect(again.exitCode, again.stderr).toBeLessThan(2);
      for (const output of entry.passesOver ?? present) {
        const found = await lstat(at(output)).catch(() => undefined);
        // SQLite removes a journal's -wal and -shm when the last connection closes.
        if (found === undefined && /-(wal|shm|journal)$/.test(output)) continue;
        if (found === undefined) throw new Error(`${output}: expected the job to have written it, got nothing`);
        const expected = found.isDirectory() ? 0o700 : (entry.mode ?? 0o600);
        expect([output, found.mode & 0o777]).toEqual([output, expected]);
      }
    },
  );
});

// A folder of the path may be a link (the user's `out/` on another disk): only the file's own name is checked.
it('a folder on the path that is a link is followed, as the user chose', { timeout: 120_000 }, async () => {
  const folder = await temporaryFolder('bulk-disputes-linked-folder-');
  await mkdir(join(folder, 'disk'));
  await symlink(join(folder, 'disk'), join(folder, 'out'));
  const run = await runBin(
    ['import', sample, ...importFlags, '--sandbox-db', join(folder, 'sandbox.db')].concat([
      '--journal',
      join(folder, 'out/j.sqlite'),
      '--results',
      join(folder, 'out/r.csv'),
    ]),
    env,
    { cwd: folder },
  );
  expect(run.exitCode, run.stderr).toBeLessThan(2);
  expect((await lstat(join(folder, 'disk/j.sqlite'))).mode & 0o777).toBe(0o600);
  expect((await lstat(join(folder, 'disk/r.csv'))).mode & 0o777).toBe(0o600);
});
