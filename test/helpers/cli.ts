import { execFile } from 'node:child_process';
import { main } from '../../src/cli/main.js';
import { cliBin } from './sandbox-process.js';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The CLI in-process (a tiny bin; `main(argv, io)` is injectable, so tests call it here), with what it wrote. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const exitCode = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { exitCode, stdout, stderr };
}

/** The built CLI as a child process (`npm test` builds first), for what only a process has: its TZ, its exit. */
export async function runBin(argv: string[], env: NodeJS.ProcessEnv, options: { cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...argv],
      { env: { PATH: process.env.PATH, ...env }, cwd: options.cwd },
      (error, stdout, stderr) => {
        resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}
