import { InvalidArgumentError, Option, type Command } from 'commander';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { UsageError } from './exit-codes.js';

/** Flag value parsers shared by the commands; each says "expected …, got …". */

export function integer(flag: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed >= min && parsed <= max))
      throw new InvalidArgumentError(`${flag}: expected a whole number from ${min} to ${max}, got ${value}`);
    return parsed;
  };
}

/** `--max-rps`'s help line: import, export and migrate-v1 all take it. */
export const maxRpsHelp =
  'requests per second for the whole job, retries and uploads included (default: CLAIMS_MAX_RPS, else no limit; 0.5 is one every 2 s)';

/** `--concurrency` of import and migrate-v1. */
export const claimsInFlightHelp =
  'the most claims in flight at once; fewer while the service answers 503, growing back while few are refused';

/** `--concurrency` when none is given: the review's feed-back of fixes runs at it too. */
export const defaultConcurrency = 8;

/**
 * A sender's pace: `--concurrency` (its help names what is in flight; absent for a sender that is
 * not concurrent, export) and `--max-rps`.
 */
export function addPacingOptions(command: Command, concurrencyHelp: string | undefined): Command {
  if (concurrencyHelp !== undefined)
    command.option('--concurrency <n>', concurrencyHelp, integer('--concurrency', 1, 256), defaultConcurrency);
  return command.option('--max-rps <n>', maxRpsHelp, positiveNumber('--max-rps'));
}

/** A positive decimal such as 45 or 0.5 (`--max-rps`); the same words for the flag and its variable. */
export function positiveNumber(flag: string) {
  return (value: string): number => {
    const parsed = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!(parsed > 0) || !Number.isFinite(parsed))
      throw new InvalidArgumentError(`${flag}: expected a positive number, got ${value}`);
    return parsed;
  };
}

/**
 * Where a job's metrics go (docs/monitoring.md): every job command takes these, as several take
 * `--max-rps`. Checked before the command runs (metrics-settings.ts).
 */
export function addMetricsOptions(command: Command): Command {
  return command
    .option(
      '--metrics-push <url>',
      "push the run's metrics to this Prometheus Pushgateway when it ends, e.g. http://gateway:9091 " +
        '(default: CLAIMS_METRICS_PUSH_URL; Basic credentials from the URL or CLAIMS_METRICS_PUSH_USER and ' +
        'CLAIMS_METRICS_PUSH_PASSWORD; through the same proxy, CAs and client certificate as the service; a ' +
        'failed push is a warning, never a change of the exit code)',
    )
    .option('--metrics-job <name>', "the metrics' job label (default: the command's name)")
    .option('--metrics-file <path>', 'write the same metrics in Prometheus text format to this file (atomically)');
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export type ResultsFormat = 'csv' | 'xlsx';

/** `--results-format`: shared by the commands that write a results file. */
export function resultsFormatOption(): Option {
  return new Option(
    '--results-format <format>',
    "csv, or xlsx: a workbook of text cells a spreadsheet cannot damage (default: from the results file's name)",
  ).choices(['csv', 'xlsx']);
}

/**
 * The results file's name: the one given, which must agree with `--results-format` (a workbook
 * is named .xlsx, and nothing else is one), or the default stem with the format's extension.
 */
export function resultsFileName(
  given: string | undefined,
  format: ResultsFormat | undefined,
  stem: string,
  fallback: ResultsFormat = 'csv',
): string {
  if (given === undefined) return `${stem}.${format ?? fallback}`;
  if (format === 'xlsx' && !isWorkbookFile(given))
    throw new UsageError(`--results ${given}: expected a name ending in .xlsx with --results-format xlsx, got another`);
  if (format === 'csv' && isWorkbookFile(given))
    throw new UsageError(`--results ${given}: expected a CSV name with --results-format csv, got one ending in .xlsx`);
  return given;
}
