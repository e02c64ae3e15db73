import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A server under test in a process of its own, so the load the benchmark generates does not run on
 * the event loop it is measuring. The child prints its URL once listening; `stop()` asks it to go
 * (SIGTERM, so the sandbox closes its SQLite file) and forces it after a grace period.
 */
export interface ChildServer {
  readonly url: string;
  /** Everything the child wrote so far (stdout and stderr), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** Arguments to `node` (script first). */
  readonly args: readonly string[];
  /** Matches the line announcing the URL; group 1 is the URL. */
  readonly listening: RegExp;
  readonly env?: NodeJS.ProcessEnv;
  readonly startTimeoutMs?: number;
}

const stopGraceMs = 5_000;
/** Kept for error messages only; a chatty child must not grow the benchmark's memory. */
const maxOutputChars = 64 * 1024;

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(process.execPath, [...options.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-maxOutputChars);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  try {
    const url = await waitForUrl(child, options, () => output);
    return { url, output: () => output, stop: async () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

async function waitForUrl(child: ChildProcess, options: ChildServerOptions, output: () => string): Promise<string> {
  const startTimeoutMs = options.startTimeoutMs ?? 15_000;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(
          `child server: expected "${String(options.listening)}" within ${startTimeoutMs} ms, got:\n${output()}`,
        ),
      );
    }, startTimeoutMs);
    const onData = () => {
      const url = options.listening.exec(output())?.[1];
      if (url === undefined) return;
      finish();
      resolve(url);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      finish();
      reject(new Error(`child server: expected it to listen, got exit ${String(code ?? signal)}:\n${output()}`));
    };
    const finish = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    // Registered after `keep` in startChildServer, so output() already holds the chunk.
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL if the child has not exited within the grace period. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
  await exited;
  clearTimeout(timer);
}
