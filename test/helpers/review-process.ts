import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { cliBin } from './sandbox-process.js';

/** `bulk-disputes review` as a process; resolves with the address it prints. Stopped at test end. */
export async function startReview(args: readonly string[], cwd: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [cliBin, '--log-level', 'warn', 'review', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, ...env },
  });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /review: (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`review exited with ${String(code)}:\n${output}`));
    });
  });
}
