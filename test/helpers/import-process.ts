import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { testApiKey } from './client.js';

export interface ImportExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last 20,000 characters: what explains a failure, bounded. */
  stderr: string;
}

export interface ImportProcess {
  exit: Promise<ImportExit>;
  /** How it ended, once it has. */
  exited: () => ImportExit | undefined;
  /** SIGKILL: no cleanup, no flush. */
  kill: () => Promise<ImportExit>;
}

/**
 * `node <args>` (the built CLI's import) as a child process for the crash tests, with the key from
 * the environment (never a flag, which the process list and shell history would show) and no
 * CLAIMS_BASE_URL from the caller's. A watchdog kills it after `deadlineMs`; it is killed at the end of the test anyway.
 */
export function startImportProcess(
  args: readonly string[],
  deadlineMs: number,
  /** More of the environment (an object store's), over the caller's. */
  more: NodeJS.ProcessEnv = {},
): ImportProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAIMS_API_KEY: testApiKey, ...more };
  delete env.CLAIMS_BASE_URL;
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
  });
  const watchdog = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  onTestFinished(() => {
    clearTimeout(watchdog);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let result: ImportExit | undefined;
  const exit = new Promise<ImportExit>((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(watchdog);
      result = { code, signal, stderr };
      resolve(result);
    });
  });
  return {
    exit,
    exited: () => result,
    kill: async () => {
      child.kill('SIGKILL');
      return exit;
    },
  };
}
