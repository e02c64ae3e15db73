import { resourceFailure } from '../files/resource-failure.js';
import { OutputClosedError } from './exit-codes.js';
import { codeOf } from '../errors/coded-error.js';

/** A reader that has gone: the pipe closed under a write, or the stream was torn down. */
const closedCodes = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** stdout as the commands write to it: text in, backpressure out (export waits for `drain`). */
export interface CommandOutput {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
}

/**
 * The process's stdout for the commands (bin.ts). Node tells of a write to a
 * closed pipe (`| head -1`) with an 'error' event, which, unheard, ends the process with a stack
 * and exit 1. Heard here, it makes that write, or the next, throw OutputClosedError, which the
 * funnel in main.ts ends quietly. Any other failure (a full disk under `> file`) is thrown in
 * words naming stdout. Someone waiting for `drain` is woken by the failure, to meet it at once.
 */
export function commandOutput(stream: NodeJS.WriteStream): CommandOutput {
  let failure: Error | undefined;
  const waiting = new Set<() => void>();
  stream.on('error', (error) => {
    failure ??= error;
    for (const listener of waiting) listener();
    waiting.clear();
  });
  const throwIfFailed = () => {
    // `errored` is set during the write that failed; the 'error' event comes a tick later.
    const error = failure ?? stream.errored ?? undefined;
    if (error === undefined) return;
    if (closedCodes.has(String(codeOf(error)))) throw new OutputClosedError({ cause: error });
    throw resourceFailure(error, 'stdout') ?? error;
  };
  return {
    write(text) {
      throwIfFailed();
      const accepted = stream.write(text);
      throwIfFailed();
      return accepted;
    },
    once(_event, listener) {
      waiting.add(listener);
      stream.once('drain', () => {
        if (waiting.delete(listener)) listener();
      });
      return this;
    },
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  };
}

/**
 * The line a server prints once, its address (sandbox, review): a reader already gone does not
 * stop the server, which goes on serving until Ctrl-C, as it would after `| grep -m1 listening`.
 */
export function writeNotice(stdout: { write(text: string): unknown }, text: string): void {
  try {
    stdout.write(text);
  } catch (error) {
    if (!(error instanceof OutputClosedError)) throw error;
  }
}
