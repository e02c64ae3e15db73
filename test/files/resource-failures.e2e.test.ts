import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished, type TestContext } from 'vitest';
import { cliBin } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { readResults } from '../import/e2e-fixtures.js';
import { plannedRows, writeDisputesCsv } from '../import/generate.js';

/**
 * A full disk, a refused permission, a read-only folder, a folder gone mid-run,
 * each met for real by the built CLI (a small tmpfs, a read-only mount, /dev/full, a user who may
 * not write), told in words: the file named, nothing lost, what to do, exit 3; and the same
 * command, once the cause is gone, finishing the job with every claim once. Mounting takes root:
 * without it those cases are skipped, saying so.
 */

const execFileAsync = promisify(execFile);
const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const nothingLost = 'nothing was lost';

interface Run {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI in `cwd`, as `user` when given (root running the tests as someone the folder refuses). */
async function runCliProcess(
  args: readonly string[],
  options: { cwd: string; user?: { uid: number; gid: number } | undefined; stdout?: number },
): Promise<Run> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    ...options.user,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [exitCode] = (await once(child, 'close')) as [number | null];
  return { exitCode, stdout, stderr };
}

/** A night of `claims` one-row claims, and the import of it into the embedded sandbox, journal and results where given. */
async function night(claims: number) {
  const dir = await temporaryFolder('bulk-disputes-resources-');
  await writeDisputesCsv(join(dir, 'night.csv'), plannedRows({ claims, sizeOf: () => 1, block: 1 }));
  const importArgs = (journal: string, results: string) => [
    'import',
    'night.csv',
    '--mapping',
    mapping,
    '--evidence-dir',
    '.',
    '--sandbox-db',
    'sandbox.db',
    '--journal',
    journal,
    '--results',
    results,
    '--log-level',
    'warn',
  ];
  return { dir, importArgs };
}

/** Every row filed, and the sandbox holding each claim once: as many claims as rows, no id twice. */
async function expectEveryClaimOnce(dir: string, results: string, claims: number): Promise<void> {
  const { rows } = await readResults(resolve(dir, results));
  expect(rows.filter((row) => row.outcome === 'filed')).toHaveLength(claims);
  const exported = await runCliProcess(
    ['export', 'claims', '--out', '-', '--columns', 'claim_id', '--sandbox-db', 'sandbox.db', '--log-level', 'warn'],
    { cwd: dir },
  );
  const ids = exported.stdout.trim().split('\n').slice(1);
  expect(ids).toHaveLength(claims);
  expect(new Set(ids).size).toBe(claims);
}

/** A tmpfs mounted with `options` (`size=2m`, `ro`), unmounted when the test ends; the test skipped, saying why, where mounting is not allowed. */
async function smallDisk(context: TestContext, options: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-disk-'));
  try {
    await execFileAsync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const { stderr } = error as { stderr?: unknown };
    const why = (typeof stderr === 'string' && stderr !== '' ? stderr : (error as Error).message).split('\n')[0];
    return context.skip(`a real tmpfs takes root (mount -t tmpfs): ${why}`);
  }
  onTestFinished(async () => {
    await execFileAsync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  });
  return dir;
}

function expectInWords(run: Run, code: string, words: string, file: string): void {
  expect(run.exitCode, run.stderr).toBe(3);
  expect(run.stderr).toContain(`${code}: ${words} ${file}: ${nothingLost}; `);
  // No stack, and no code said twice (`ENOSPC: ENOSPC: no space left on device, write`).
  expect(run.stderr).not.toMatch(/\n\s+at |\b([A-Z_]+): \1: /);
}

describe('resource failures in words, and the same command continuing', () => {
  it(
    'the disk fills up mid-run under the journal (a 2 MiB tmpfs): named, exit 3; with room, the same command files every claim once',
    { timeout: 120_000 },
    async (context) => {
      const disk = await smallDisk(context, 'size=2m');
      const { dir, importArgs } = await night(800);
      const args = importArgs(join(disk, 'night.journal.sqlite'), 'night.results.csv');
      const full = await runCliProcess(args, { cwd: dir });
      expectInWords(full, 'SQLITE_FULL', 'disk full writing', join(disk, 'night.journal.sqlite'));
      expect(full.stderr).toContain('free some space and run the same command again (it continues where it stopped)');
      // Mid-run: some claims went out before the disk filled.
      const { rows } = await readResults(join(dir, 'night.results.csv'));
      expect(rows.filter((row) => row.outcome === 'filed').length).toBeGreaterThan(0);
      expect(rows.filter((row) => row.outcome === 'failed').length).toBeGreaterThan(0);

      await execFileAsync('mount', ['-o', 'remount,size=64m', disk]);
      const again = await runCliProcess(args, { cwd: dir });
      expect(again.exitCode, again.stderr).toBe(0);
      await expectEveryClaimOnce(dir, 'night.results.csv', 800);
    },
  );

  it(
    'no room for the results (a full tmpfs): named, not their temporary file, exit 3; space freed, the same command writes them',
    { timeout: 60_000 },
    async (context) => {
      const disk = await smallDisk(context, 'size=256k');
      await execFileAsync('dd', ['if=/dev/zero', `of=${join(disk, 'filler')}`, 'bs=1k', 'count=256']).catch(
        () => undefined,
      );
      const { dir, importArgs } = await night(40);
      const args = importArgs('night.journal.sqlite', join(disk, 'night.results.csv'));
      const full = await runCliProcess(args, { cwd: dir });
      expectInWords(full, 'ENOSPC', 'disk full writing', join(disk, 'night.results.csv'));
      expect(full.stderr).not.toContain('.tmp');

      await rm(join(disk, 'filler'));
      const again = await runCliProcess(args, { cwd: dir });
      expect(again.exitCode, again.stderr).toBe(0);
      await expectEveryClaimOnce(dir, join(disk, 'night.results.csv'), 40);
    },
  );

  it(
    'an export to stdout on a full device (/dev/full): "disk full writing stdout", exit 3',
    { timeout: 60_000 },
    async () => {
      const { dir, importArgs } = await night(5);
      expect(
        (await runCliProcess(importArgs('night.journal.sqlite', 'night.results.csv'), { cwd: dir })).exitCode,
      ).toBe(0);
      const device = openSync('/dev/full', 'w');
      try {
        const run = await runCliProcess(
          ['export', 'cases', '--out', '-', '--sandbox-db', 'sandbox.db', '--log-level', 'warn'],
          { cwd: dir, stdout: device },
        );
        expectInWords(run, 'ENOSPC', 'disk full writing', 'stdout');
      } finally {
        closeSync(device);
      }
    },
  );

  it(
    'results in a read-only folder (a tmpfs mounted ro): EROFS named, exit 3; mounted writable, the same command writes them',
    { timeout: 60_000 },
    async (context) => {
      const disk = await smallDisk(context, 'size=1m,ro');
      const { dir, importArgs } = await night(20);
      const args = importArgs('night.journal.sqlite', join(disk, 'night.results.csv'));
      const refused = await runCliProcess(args, { cwd: dir });
      expectInWords(refused, 'EROFS', 'read-only file system opening', join(disk, 'night.results.csv'));
      expect(refused.stderr).toContain('choose a path on a writable disk (or remount it writable)');

      await execFileAsync('mount', ['-o', 'remount,rw', disk]);
      const again = await runCliProcess(args, { cwd: dir });
      expect(again.exitCode, again.stderr).toBe(0);
      await expectEveryClaimOnce(dir, join(disk, 'night.results.csv'), 20);
    },
  );

  it(
    'results in a folder this user may not write: EACCES named, exit 3; made writable, the same command writes them',
    { timeout: 60_000 },
    async (context) => {
      const { dir, importArgs } = await night(20);
      const locked = join(dir, 'locked');
      await mkdir(locked);
      await chmod(locked, 0o555);
      // Root writes anywhere: the job then runs as nobody, to whom the folder is closed.
      const root = process.getuid?.() === 0;
      const user = root ? { uid: 65_534, gid: 65_534 } : undefined;
      if (root) await chmod(dir, 0o777);
      const probe = await runCliProcess(['--version'], { cwd: dir, user }).catch((error: unknown) => ({
        exitCode: -1,
        stdout: '',
        stderr: String(error),
      }));
      if (probe.exitCode !== 0)
        context.skip(`cannot run the CLI as an unprivileged user here: ${probe.stderr.split('\n')[0] ?? ''}`);
      const args = importArgs('night.journal.sqlite', join(locked, 'night.results.csv'));
      const refused = await runCliProcess(args, { cwd: dir, user });
      expectInWords(refused, 'EACCES', 'permission denied opening', join('locked', 'night.results.csv'));
      expect(refused.stderr).toContain('let this user write to locked (or choose another path)');

      await chmod(locked, 0o777);
      const again = await runCliProcess(args, { cwd: dir, user });
      expect(again.exitCode, again.stderr).toBe(0);
      await expectEveryClaimOnce(dir, join(locked, 'night.results.csv'), 20);
    },
  );

  it(
    "the results' folder deleted mid-run: ENOENT named, exit 3; the same command makes it again and writes them",
    { timeout: 60_000 },
    async () => {
      const { dir, importArgs } = await night(400);
      const folder = join(dir, 'out', 'tonight');
      const args = importArgs('night.journal.sqlite', join('out', 'tonight', 'night.results.csv'));
      const running = runCliProcess(args, { cwd: dir });
      // The import makes the folder before it stages; it is gone before the results are written.
      while (!existsSync(folder)) await new Promise((resolve) => setTimeout(resolve, 5));
      await rm(folder, { recursive: true });
      const gone = await running;
      expect(gone.exitCode, gone.stderr).toBe(3);
      expect(gone.stderr).toContain(
        `ENOENT: ${join('out', 'tonight', 'night.results.csv')} vanished while the command ran (it or its folder was moved or deleted): ${nothingLost}; put it or its folder back`,
      );

      const again = await runCliProcess(args, { cwd: dir });
      expect(again.exitCode, again.stderr).toBe(0);
      await expectEveryClaimOnce(dir, join('out', 'tonight', 'night.results.csv'), 400);
    },
  );
});
