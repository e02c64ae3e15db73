import { writeFileAtomic } from '../files/write-file.js';

/**
 * `--metrics-file`: the metrics as Prometheus text, written beside the target and renamed, so
 * that node_exporter's textfile collector never reads half a file. Readable by all (0644): the
 * collector runs as another user, and the metrics hold no secret and no card number.
 */
export async function writeMetricsFile(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text, 0o644);
}
