import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

/** The built CLI, as `npm ci` leaves it (npm test builds before the tests run). */
export const cliBin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export interface SandboxProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
}

/** Starts `bulk-disputes sandbox` as a real process and waits for its URL; killed at test end. */
export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [cliBin, 'sandbox', '--port', '0', '--log-level', 'warn', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /sandbox listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`sandbox exited with ${String(code)} before listening:\n${output}`));
    });
  });
  return { url, child, output: () => output };
}

/** SIGKILL: no cleanup, no flush, no goodbye. */
export async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  child.kill('SIGKILL');
  await exited;
}
