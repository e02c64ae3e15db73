import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { maskCardNumbersInJsonLine } from './card-numbers.js';

/**
 * Paths that may carry a secret, censored wherever they appear in a log line (pino's
 * redaction option). The client never logs headers or the key; this is the second lock.
 */
export const redactedPaths = [
  'apiKey',
  'api_key',
  'authorization',
  'password',
  '*.apiKey',
  '*.api_key',
  '*.authorization',
  '*.password',
  'headers.authorization',
  '*.headers.authorization',
];

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Where JSON lines go: stderr by default, so stdout stays free for data (`--out -`). */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { name: 'bulk-disputes' },
      redact: { paths: redactedPaths, censor: '[REDACTED]' },
      // A full card number never reaches a log, whichever field or message carries it: every line
      // is masked as it is written, before the JSON or the human format sees it (card-numbers.ts).
      hooks: { streamWrite: maskCardNumbersInJsonLine },
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

export type { Logger };
