import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { cliBin } from '../helpers/sandbox-process.js';

/**
 * `bulk-disputes review` as a process: its page and the JSON the page loads, read over HTTP as a
 * browser on the page reads them, and the edits a reviewer makes sent the same way.
 */
export interface ReviewProcess {
  /** GET a path with the page's session cookie: the answer's text. */
  get: (path: string) => Promise<string>;
  /** A write as the page sends it (cookie and Origin): the answer's text. */
  send: (method: 'PUT' | 'POST', path: string, body: unknown) => Promise<string>;
  /** Stops the server (SIGTERM) and returns what it printed. */
  stop: () => Promise<string>;
}

export async function startReview(args: string[], env: NodeJS.ProcessEnv): Promise<ReviewProcess> {
  const child = spawn(process.execPath, [cliBin, 'review', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, ...env },
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const address = await new Promise<URL>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /review: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(new URL(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`review exited with ${String(code)} before listening:\n${output}`));
    });
  });
  // The printed address's first load: its token exchanged for the session cookie.
  const first = await fetch(address, { redirect: 'manual' });
  const cookie = /^[^;]+/.exec(first.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const get = async (path: string) => (await fetch(`${address.origin}${path}`, { headers: { cookie } })).text();
  const send = async (method: 'PUT' | 'POST', path: string, body: unknown) =>
    (
      await fetch(`${address.origin}${path}`, {
        method,
        headers: { cookie, origin: address.origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).text();
  const stop = async () => {
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        resolve();
      }),
    );
    child.kill('SIGTERM');
    await exited;
    return output;
  };
  return { get, send, stop };
}
