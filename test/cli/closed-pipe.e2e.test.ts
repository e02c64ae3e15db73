import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi, type TestContext } from 'vitest';
import { runBin, runCli } from '../helpers/cli.js';
import { createSandbox } from '../../src/sandbox/server.js';
import { sandboxKey } from '../helpers/sandbox.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { plannedRows, writeDisputesCsv } from '../import/generate.js';

/**
 * A closed stdout ends every command quietly (a closed pipe is how a reader says it has enough,
 * not an error), as `bulk-disputes import --help | head -2` did not (an EPIPE stack, exit 1).
 * Each command that writes to stdout runs as the built CLI twice: into a reader that takes the
 * first chunk and closes, as `head` does, and into one gone before anything is written (the write
 * itself fails). No stack, no EPIPE, no fatal line on stderr; the exit code the command documents.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const mapping = join(repoRoot, 'mappings/generic.yaml');
const sample = join(repoRoot, 'samples/generic-export.csv');

type Reader = 'takes the first chunk' | 'is gone at once';
const readers: Reader[] = ['takes the first chunk', 'is gone at once'];

interface ClosedRun {
  exitCode: number | null;
  signal: string | null;
  firstChunk: string;
  stderr: string;
}

/**
 * The built CLI with its stdout piped into a reader that closes as `reader` says; killed when the
 * test ends (`onFinished`: the test's own hook, as the tests here run concurrently).
 */
function startIntoClosingReader(
  args: readonly string[],
  reader: Reader,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; onFinished?: TestContext['onTestFinished'] } = {},
) {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onFinished?.(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const seen = { firstChunk: '', stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (seen.stderr += chunk.toString('utf8')));
  if (reader === 'is gone at once') child.stdout.destroy();
  else {
    child.stdout.once('data', (chunk: Buffer) => {
      seen.firstChunk = chunk.toString('utf8');
      child.stdout.destroy();
    });
  }
  const exited = async (): Promise<ClosedRun> => {
    const [exitCode, signal] = (
      child.exitCode === null && child.signalCode === null
        ? await once(child, 'exit')
        : [child.exitCode, child.signalCode]
    ) as [number | null, string | null];
    if (!child.stderr.readableEnded) await once(child.stderr, 'end');
    return { exitCode, signal, ...seen };
  };
  return { child, seen, exited };
}

async function runIntoClosingReader(
  args: readonly string[],
  reader: Reader,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ClosedRun> {
  return startIntoClosingReader(args, reader, options).exited();
}

function expectQuiet(run: ClosedRun, exitCode: number): void {
  expect({ exitCode: run.exitCode, signal: run.signal }, run.stderr).toEqual({ exitCode, signal: null });
  expect(run.stderr).not.toMatch(/EPIPE|Unhandled|OUTPUT_CLOSED|node:internal|\n\s+at /);
  expect(run.stderr).not.toContain('bulk-disputes: ');
}

/** The commands `--help` lists, and `mapping`'s subcommands: help of every one. */
async function everyCommand(): Promise<string[][]> {
  const commandsOf = async (prefix: string[]) => {
    const { stdout } = await runCli([...prefix, '--help']);
    const section = stdout.split(/^Commands:$/m)[1]?.split(/\n\n/)[0] ?? '';
    return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)]
      .map((match) => match[1] ?? '')
      .filter((name) => name !== 'help');
  };
  const top = await commandsOf([]);
  const nested = await Promise.all(top.map(async (name) => (await commandsOf([name])).map((sub) => [name, sub])));
  return [[], ...top.map((name) => [name]), ...nested.flat()];
}

let folder: string;
let results: string;
let helpCommands: string[][];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-pipes-'));
  // Enough cases for an export well past a pipe's buffer (64 KiB): the writes after the reader is
  // gone meet a closed pipe, not free room.
  await writeDisputesCsv(join(folder, 'night.csv'), plannedRows({ claims: 800, sizeOf: () => 1, block: 1 }));
  const run = await runBin(
    [
      'import',
      'night.csv',
      '--mapping',
      mapping,
      '--evidence-dir',
      '.',
      '--sandbox-db',
      'sandbox.db',
      '--results',
      'night.results.csv',
      '--log-level',
      'warn',
    ],
    {},
    { cwd: folder },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  results = join(folder, 'night.results.csv');
  helpCommands = await everyCommand();
}, 120_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe.concurrent('a closed stdout ends every command quietly', () => {
  it('help of every command, and --version: exit 0', { timeout: 120_000 }, async () => {
    expect(helpCommands).toEqual(
      expect.arrayContaining([['import'], ['export'], ['report'], ['mapping', 'explain'], ['mapping', 'guess']]),
    );
    for (const reader of readers) {
      const runs = await Promise.all(
        [...helpCommands.map((command) => [...command, '--help']), ['--version']].map(async (args) => ({
          args,
          run: await runIntoClosingReader(args, reader),
        })),
      );
      for (const { args, run } of runs) {
        expect.soft(run.exitCode, `${args.join(' ')}, a reader that ${reader}: ${run.stderr}`).toBe(0);
        expectQuiet(run, 0);
      }
    }
  });

  it.each(readers)(
    'export cases --out - into a reader that %s: exit 0, no summary; a --state bookmark not moved',
    { timeout: 60_000 },
    async (reader) => {
      const state = join(folder, `cases-${reader.replaceAll(' ', '-')}.state.json`);
      const run = await runIntoClosingReader(
        ['export', 'cases', '--out', '-', '--sandbox-db', 'sandbox.db', '--state', state, '--log-level', 'warn'],
        reader,
        { cwd: folder },
      );
      expectQuiet(run, 0);
      if (reader === 'takes the first chunk') expect(run.firstChunk).toMatch(/^case_id,claim_id,status/);
      // Only a finished export moves the bookmark: the reader took part of it at most.
      expect(run.stderr).not.toContain('exported');
      expect(existsSync(state)).toBe(false);

      // A bookmark already there stays as it was, byte for byte.
      const full = await runBin(
        [
          'export',
          'cases',
          '--out',
          join(folder, `all-${reader.replaceAll(' ', '-')}.csv`),
          '--sandbox-db',
          'sandbox.db',
          '--state',
          state,
          '--log-level',
          'warn',
        ],
        {},
        { cwd: folder },
      );
      expect(full.exitCode, full.stderr).toBe(0);
      const bookmark = await readFile(state, 'utf8');
      const again = await runIntoClosingReader(
        [
          'export',
          'cases',
          '--out',
          '-',
          '--sandbox-db',
          'sandbox.db',
          '--state',
          state,
          '--restart',
          '--log-level',
          'warn',
        ],
        reader,
        { cwd: folder },
      );
      expectQuiet(again, 0);
      expect(await readFile(state, 'utf8')).toBe(bookmark);
    },
  );

  it.each(readers)(
    'report, mapping explain, lint and guess into a reader that %s: their exit 0',
    { timeout: 60_000 },
    async (reader) => {
      const commands = [
        ['report', results],
        ['mapping', 'explain', mapping, sample, '--line', '2'],
        ['mapping', 'lint', mapping],
        ['mapping', 'guess', sample],
      ];
      const runs = await Promise.all(
        commands.map(async (args) => ({ args, run: await runIntoClosingReader(args, reader, { cwd: folder }) })),
      );
      for (const { args, run } of runs) {
        expect.soft(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(0);
        expectQuiet(run, 0);
      }
    },
  );

  it.for(readers)('check into a reader that %s: exit 0', { timeout: 30_000 }, async (reader, { onTestFinished }) => {
    const sandbox = await createSandbox({ apiKeys: [sandboxKey] });
    onTestFinished(async () => sandbox.close());
    const run = await runIntoClosingReader(['check'], reader, {
      env: { CLAIMS_BASE_URL: sandbox.url, CLAIMS_API_KEY: sandboxKey },
    });
    expectQuiet(run, 0);
  });

  it.for(readers)(
    'sandbox and review (a job journal, no --mapping) into a reader that %s: each serves on until stopped, then exit 0',
    { timeout: 60_000 },
    async (reader, { onTestFinished }) => {
      const servers = [
        {
          args: ['sandbox', '--port', '0', '--db', join(folder, `other-${reader.replaceAll(' ', '-')}.db`)],
          started: /"url":"(http:[^"]+)".*"msg":"sandbox started"/,
        },
        {
          args: ['review', 'night.sandbox.journal.sqlite', '--port', '0'],
          started: /"origin":"(http:[^"]+)".*"msg":"review started"/,
        },
      ];
      for (const { args, started } of servers) {
        const server = startIntoClosingReader([...args, '--log-level', 'info'], reader, {
          cwd: folder,
          onFinished: onTestFinished,
        });
        const address = await vi.waitFor(
          () => {
            const found = started.exec(server.seen.stderr)?.[1];
            if (found === undefined) throw new Error(`${args[0] ?? ''} not started yet: ${server.seen.stderr}`);
            return found;
          },
          { timeout: 20_000, interval: 50 },
        );
        // Still serving after its address went nowhere.
        const answer = await fetch(address);
        await answer.body?.cancel();
        expect(answer.status).toBeGreaterThan(0);
        server.child.kill('SIGTERM');
        expectQuiet(await server.exited(), 0);
      }
    },
  );
});
