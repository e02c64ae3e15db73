import { basename, extname } from 'node:path';

/**
 * The name of the job a file stands for, for the files a job names after its input: its base name
 * without its extension and without the parts this tool adds (`results`, `journal`, `sandbox`,
 * `dry-run`, `shard-i-of-n`, `track`, `withdraw`), wherever they stand. A fixed results file fed back
 * (`contestazioni.sandbox.fix-1.results.csv`) names its own files `contestazioni.fix-1…`, not
 * `contestazioni.sandbox.fix-1.results.sandbox.results.csv`. A name made only of such parts stays.
 */
export function jobStem(file: string): string {
  const name = basename(file, extname(file));
  const kept = name.split('.').filter((part) => !addedParts.has(part) && !/^shard-\d+-of-\d+$/.test(part));
  return kept.length === 0 ? name : kept.join('.');
}

const addedParts: ReadonlySet<string> = new Set(['results', 'journal', 'sandbox', 'dry-run', 'track', 'withdraw']);
