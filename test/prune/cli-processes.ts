import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cliBin } from '../helpers/sandbox-process.js';

/**
 * The built CLI as the night runs it: child processes in the job folder. Not the helpers that stop
 * their process when a test ends (test/helpers/sandbox-process.ts): a job folder is made once in
 * `beforeAll` and serves every test of its file.
 */

export interface CommandRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** `bulk-disputes …args` in `cwd`; refused unless it exits with one of `exitCodes`. */
export async function runCommand(
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; exitCodes: readonly number[] },
): Promise<CommandRun> {
  const run = await new Promise<CommandRun>((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...args],
      { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
  if (!options.exitCodes.includes(run.exitCode))
    throw new Error(
      `test: bulk-disputes ${args.join(' ')}: expected exit ${options.exitCodes.join(' or ')}, got ${String(run.exitCode)}\n${run.stdout}\n${run.stderr}`,
    );
  return run;
}

export interface ServingProcess {
  /** The first match of the pattern the process printed when it was ready. */
  readonly printed: RegExpExecArray;
  readonly output: () => string;
  /** SIGTERM, as Ctrl-C or a service manager stops it: it finishes what is in flight and closes its store. */
  stop(): Promise<void>;
}

/** A CLI command that serves until stopped (`sandbox`, `review`), once it printed `ready`. */
export async function startServing(
  args: readonly string[],
  ready: RegExp,
  options: { cwd: string; env: Record<string, string> },
): Promise<ServingProcess> {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const printed = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = ready.exec(output);
      if (match !== null) resolve(match);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      reject(
        new Error(`test: bulk-disputes ${args.join(' ')} exited with ${String(code)} before it was ready:\n${output}`),
      );
    });
  });
  return { printed, output: () => output, stop: async () => stopped(child, exited) };
}

async function stopped(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(late);
}
