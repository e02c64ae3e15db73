import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SandboxDatabase } from './database.js';

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that
 * passes 1,000 WAL pages: it copies them into the database file and waits for two fsyncs, and every
 * request of the sandbox waited with it (in-process new_claim: ~90 µs a request without it, 155-280
 * with it). Here a worker thread with a connection of its own checkpoints (PASSIVE: never blocking
 * the writer) at most every `intervalMs` while there are new commits.
 *
 * Durability does not change: a reply still waits for its commit in the WAL. The WAL only starts
 * over once it is wholly copied when a transaction begins, which a busy sandbox rarely sees; so
 * once it holds `restartFrames` pages, the sandbox restarts it itself between two transactions
 * (a short wait: the worker has copied nearly all of it).
 */
export interface Checkpoints {
  /** Called after each commit, outside any transaction. */
  readonly afterCommit: () => void;
  readonly close: () => Promise<void>;
}

export interface CheckpointOptions {
  intervalMs?: number;
  restartFrames?: number;
  onError: (error: unknown) => void;
}

/** The worker: checkpoints when asked, answers with the WAL's size. CommonJS, so it runs as is from sources and build alike. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path);
database.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    database.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = database.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ log: result.log });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

/** A checkpoint worker for the database file at `path` (not for `:memory:`). */
export function startCheckpoints(database: SandboxDatabase, path: string, options: CheckpointOptions): Checkpoints {
  const intervalMs = options.intervalMs ?? 200;
  const restartFrames = options.restartFrames ?? 16_384;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(workerSource, { eval: true, workerData: { driver, path } });
  // Never what keeps the process alive.
  worker.unref();
  database.pragma('wal_autocheckpoint = 0');
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let restartDue = false;
  let failed = false;

  const fallBack = (error: unknown) => {
    if (failed) return;
    failed = true;
    options.onError(error);
    // SQLite's own checkpoints again: slower replies, but a WAL that cannot grow without end.
    database.pragma('wal_autocheckpoint = 1000');
  };
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      fallBack(new Error('sandbox WAL checkpoint worker exited'));
      resolve();
    }),
  );

  const schedule = () => {
    timer = setTimeout(checkpoint, intervalMs);
    timer.unref();
  };
  const checkpoint = () => {
    timer = undefined;
    if (failed) return;
    // One at a time: a restart must never wait on the worker's checkpoint.
    if (running) {
      schedule();
      return;
    }
    running = true;
    worker.postMessage('checkpoint');
  };
  worker.on('message', (reply: { log?: number; error?: string }) => {
    running = false;
    if (reply.error !== undefined) fallBack(new Error(`sandbox WAL checkpoint failed: ${reply.error}`));
    else if ((reply.log ?? 0) >= restartFrames) restartDue = true;
  });
  worker.on('error', fallBack);

  return {
    afterCommit: () => {
      if (failed) return;
      if (restartDue && !running) {
        restartDue = false;
        database.pragma('wal_checkpoint(RESTART)');
      }
      if (timer === undefined) schedule();
    },
    close: async () => {
      clearTimeout(timer);
      failed = true;
      if (exited) return;
      // Unreferenced while it runs; its exit must now be waited for (an awaited promise alone
      // does not keep the process alive: a CLI run ended with exit 13, an unsettled await).
      worker.ref();
      worker.postMessage('close');
      await exit;
    },
  };
}
