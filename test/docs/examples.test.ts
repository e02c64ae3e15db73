import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { describe, expect, it } from 'vitest';
import { cliBin } from '../helpers/sandbox-process.js';
import { examplesOf, missingLines, type Example, type ExampleCommand } from './doc-examples.js';
import { oldestSupported, recommendedLine } from '../../src/runtime/supported.js';

/**
 * The README's and docs/'s shell examples, run against the embedded sandbox so that they cannot
 * drift (samples are executable and run by the test suite, after node-csv's test/samples.js). The
 * conventions are docs/README.md's "Examples that run".
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const docFiles = [
  'README.md',
  ...(await readdir(join(root, 'docs')))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const examples: Example[] = (
  await Promise.all(docFiles.map(async (file) => examplesOf(file, await readFile(join(root, file), 'utf8'))))
).flat();
const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };

const testKey = 'test_docs_examples';
const commandTimeoutMs = 30_000;
const serveReadyMs = 15_000;
/**
 * A server prints its address a moment before it takes Ctrl-C (its logger, then its handler):
 * a person's Ctrl-C comes later than that, and so does ours.
 */
const serveGraceMs = 500;
/** Two pages at a time: each command is a process, an import two with its sandbox. */
const pages = pLimit(2);

interface Ran {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

const runs = (example: Example) => example.marker !== undefined && example.marker.kind !== 'not run';
const where = (example: Example, command?: ExampleCommand) => `${example.file}:${command?.line ?? example.line}`;

/** What the shell runs for a documented command: the built CLI for `bulk-disputes`, the start script for `npm start`. */
function shellOf(command: string): string {
  if (/^npm start(\s+#.*)?$/.test(command))
    return packageJson.scripts.start.replace('node dist/cli/bin.js', 'bulk-disputes');
  return command.replace(/\bnpx bulk-disputes\b/g, 'bulk-disputes');
}

/** A folder of its own for one page's examples: the bundled samples and mappings, and the CLI on PATH. */
async function workspace(): Promise<{ folder: string; env: NodeJS.ProcessEnv }> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-docs-'));
  await cp(join(root, 'samples'), join(folder, 'samples'), { recursive: true });
  await cp(join(root, 'mappings'), join(folder, 'mappings'), { recursive: true });
  const bin = join(folder, '.bin');
  await mkdir(bin);
  await writeFile(join(bin, 'bulk-disputes'), `#!/bin/sh\nexec '${process.execPath}' '${cliBin}' "$@"\n`);
  await chmod(join(bin, 'bulk-disputes'), 0o755);
  // No CLAIMS_BASE_URL: every command meets the embedded sandbox, with a test key.
  return { folder, env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: folder, CLAIMS_API_KEY: testKey } };
}

/** Runs a shell command; `until` (a server) gets SIGINT once it holds, as Ctrl-C would send. */
async function run(
  shell: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  until?: (output: string) => boolean,
): Promise<Ran> {
  return new Promise((resolve) => {
    // exec: the signal reaches the CLI itself, not a shell around it.
    const child = spawn('sh', ['-c', until ? `exec ${shell}` : shell], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    const interrupt = (afterMs: number) => {
      if (interrupted) return;
      interrupted = true;
      setTimeout(() => child.kill('SIGINT'), afterMs);
    };
    const onData = () => {
      if (until?.(`${stdout}\n${stderr}`) === true) interrupt(serveGraceMs);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      onData();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      onData();
    });
    const ready = until
      ? setTimeout(() => {
          interrupt(0);
        }, serveReadyMs)
      : undefined;
    const killer = setTimeout(() => child.kill('SIGKILL'), commandTimeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(ready);
      clearTimeout(killer);
      resolve({ exitCode, stdout, stderr });
    });
  });
}

let serving: Promise<unknown> = Promise.resolve();

/** One server at a time: the README's and sandbox.md's sandboxes both listen on port 4010. */
async function exclusively<T>(task: () => Promise<T>): Promise<T> {
  const next = serving.then(task, task);
  serving = next.catch(() => undefined);
  return next;
}

const tail = (text: string) => (text.length > 1500 ? `…${text.slice(-1500)}` : text);

/** Why a command's run does not match its page, or nothing. */
function failureOf(example: Example, command: ExampleCommand, shell: string, ran: Ran): string | undefined {
  const problems: string[] = [];
  if (/\bnpm\b|\bnpx\b/.test(shell))
    problems.push('runs npm or npx: only bulk-disputes, npx bulk-disputes and npm start are run');
  if (ran.exitCode !== command.expectedExit)
    problems.push(`exit ${String(ran.exitCode)}, expected ${command.expectedExit}`);
  const missing = missingLines(command.output, `${ran.stdout}\n${ran.stderr}`);
  if (missing.length > 0) problems.push(`not in its output:\n${missing.map((line) => `      ${line}`).join('\n')}`);
  if (problems.length === 0) return undefined;
  return `${where(example, command)}: ${command.text}\n  ${problems.join('\n  ')}\n  stdout: ${tail(ran.stdout)}\n  stderr: ${tail(ran.stderr)}`;
}

/** Runs one page's examples in order in one folder; the failures, each naming its line. */
async function runPage(file: string): Promise<string[]> {
  const { folder, env } = await workspace();
  const failures: string[] = [];
  try {
    for (const example of examples.filter((candidate) => candidate.file === file && runs(candidate))) {
      for (const command of example.commands) {
        const shell = shellOf(command.text);
        const ran =
          example.marker?.kind === 'serve'
            ? await exclusively(async () =>
                run(shell, folder, env, (output) => missingLines(command.output, output).length === 0),
              )
            : await run(shell, folder, env);
        const failure = failureOf(example, command, shell, ran);
        if (failure !== undefined) failures.push(failure);
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return failures;
}

describe("the documentation's shell examples", () => {
  it('every ```sh block of the README and docs/ is marked: run, serve, or not run with its reason', () => {
    expect(examples.filter((example) => example.marker === undefined).map((example) => where(example))).toEqual([]);
    expect(
      examples
        .filter((example) => example.marker?.kind === 'not run' && example.marker.reason.trim() === '')
        .map((example) => where(example)),
    ).toEqual([]);
  });

  it('a serve example is one command and shows what it prints before it is stopped', () => {
    const served = examples.filter((example) => example.marker?.kind === 'serve');
    expect(served.length).toBeGreaterThan(0);
    expect(
      served
        .filter((example) => example.commands.length !== 1 || example.commands[0]?.output.length === 0)
        .map((example) => where(example)),
    ).toEqual([]);
  });

  it('the README shows a run example for each of the three jobs, and .ci/run runs exactly its test command', async () => {
    const readme = examples.filter((example) => example.file === 'README.md');
    const commands = readme.filter(runs).flatMap((example) => example.commands.map((command) => command.text));
    for (const job of ['bulk-disputes import', 'bulk-disputes migrate-v1', 'bulk-disputes review']) {
      expect(commands.some((command) => command.startsWith(job))).toBe(true);
    }
    const setup = readme.flatMap((example) => example.commands).map((command) => command.text.replace(/\s+#.*$/, ''));
    // .ci/run runs that command, and nothing else of npm's, once on each supported Node.js line.
    const ciLines = (await readFile(join(root, '.ci/run'), 'utf8'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const ciCommands = ciLines.filter((line) => /^npm (ci|test|run)\b/.test(line));
    expect(ciCommands).toEqual(['npm ci && npm test']);
    expect(setup).toContain(ciCommands[0]);
    const supported = /^lines="([\d ]+)"$/m.exec(ciLines.join('\n'))?.[1]?.split(' ').map(Number);
    expect(supported).toEqual([recommendedLine, oldestSupported.major]);
  });

  const pagesThatRun = docFiles.filter((file) => examples.some((example) => example.file === file && runs(example)));
  for (const file of pagesThatRun) {
    it.concurrent(
      `${file}: its examples run against the embedded sandbox`,
      { timeout: 180_000 },
      async ({ expect }) => {
        const failures = await pages(async () => runPage(file));
        expect(failures).toEqual([]);
      },
    );
  }
});
