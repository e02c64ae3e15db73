import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../files/write-file.js';
import { codeOf } from '../errors/coded-error.js';

/**
 * `--metrics-file`: the metrics as Prometheus text, written beside the target and renamed, so
 * that node_exporter's textfile collector never reads half a file. Readable by all (0644): the
 * collector runs as another user, and the metrics hold no secret and no card number.
 *
 * A run that did not finish has no last success of its own: the file keeps the one the previous
 * run wrote there, as the Pushgateway keeps it (docs/monitoring.md), so a failed night does not
 * also read as a job that never succeeded. A prune that did not finish has no policy's period of
 * its own either, and the file keeps the previous one the same way: the alert rules tell a prune
 * group by it.
 */
export async function writeMetricsFile(file: string, text: string): Promise<void> {
  // Its folder may not exist yet, as for every file a job writes: made, like `mkdir -p`.
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, await withPreviousKept(file, text), 0o644);
}

/** The metrics a run may lack that the file keeps from the run before it. */
const keptWhenMissing = [
  'bulk_disputes_last_success_timestamp_seconds',
  'bulk_disputes_prune_keep_personal_data_seconds',
] as const;

async function withPreviousKept(file: string, text: string): Promise<string> {
  const missing = keptWhenMissing.filter((name) => !hasMetric(text, name));
  if (missing.length === 0) return text;
  const previous = await readFile(file, 'utf8').catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return '';
    throw error;
  });
  const kept = missing.flatMap((name) => {
    const lines = previous.split('\n').filter((line) => lineOf(line, name));
    return lines.some((line) => !line.startsWith('#')) ? lines : [];
  });
  if (kept.length === 0) return text;
  return `${text.endsWith('\n') || text === '' ? text : `${text}\n`}${kept.join('\n')}\n`;
}

function hasMetric(text: string, name: string): boolean {
  return text.split('\n').some((line) => !line.startsWith('#') && lineOf(line, name));
}

/** A sample of `name` (`name{…} value` or `name value`), or its `# HELP` / `# TYPE` line. */
function lineOf(line: string, name: string): boolean {
  return (
    line.startsWith(`${name}{`) ||
    line.startsWith(`${name} `) ||
    line.startsWith(`# HELP ${name} `) ||
    line.startsWith(`# TYPE ${name} `)
  );
}
