import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../files/write-file.js';

/**
 * `--metrics-file`: the metrics as Prometheus text, written beside the target and renamed, so
 * that node_exporter's textfile collector never reads half a file. Readable by all (0644): the
 * collector runs as another user, and the metrics hold no secret and no card number.
 */
export async function writeMetricsFile(file: string, text: string): Promise<void> {
  // Its folder may not exist yet, as for every file a job writes: made, like `mkdir -p`.
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, text, 0o644);
}
