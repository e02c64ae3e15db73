import type { Logger } from 'pino';
import type { Progress } from '../progress/progress.js';
import type { RunRecorder } from '../metrics/recorder.js';
import type { ExitCodeValue } from './exit-codes.js';

/** What a command may touch: injected, so `main` runs in-process in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  /** Where logs, progress and summaries go; `isTTY` decides their shape. */
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
  /**
   * Asks a person a question on the terminal and returns the answer; absent when stdin or stderr
   * is not a terminal (cron, a pipe): a command that must confirm then refuses (withdraw).
   */
  ask?: (question: string) => Promise<string | undefined>;
  /** Registers what to do on SIGINT / SIGTERM (long-running commands such as `sandbox`). */
  onStop?: (handler: () => void) => void;
}

export interface CliContext {
  io: CliIo;
  logger: Logger;
  /** What the log lines are: `pretty` lines already say what a plain note on stderr would. */
  logFormat?: 'json' | 'pretty';
  /** The terminal's progress line on stderr; log lines clear it before they are written. */
  progress: Progress;
  setExitCode(code: ExitCodeValue): void;
  /** What a job command tells of its run; main.ts sends it as metrics once the exit code is final. */
  metrics: RunRecorder;
}
