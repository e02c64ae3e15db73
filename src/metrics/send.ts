import { pushMetrics } from './push.js';
import type { MetricsSettings } from './recorder.js';
import { groupingOf, metricsText } from './registry.js';
import type { RunOutcome } from './run-outcome.js';
import { writeMetricsFile } from './text-file.js';

/** How a failed push or file is told: one warning, never a change of the run's exit code. */
export type MetricsWarning = (line: string, fields: Record<string, unknown>) => void;

/**
 * The run's metrics, where the settings say: the file written, then the push. Never throws: a
 * failure is one warning each, and the run's exit code and results stand (docs/monitoring.md).
 */
export async function sendMetrics(settings: MetricsSettings, outcome: RunOutcome, warn: MetricsWarning): Promise<void> {
  const text = await metricsText(outcome);
  if (settings.file !== undefined) {
    await writeMetricsFile(settings.file, text).catch((error: unknown) => {
      warn(
        `metrics file ${settings.file ?? ''} not written: ${error instanceof Error ? error.message : String(error)}`,
        {
          file: settings.file,
        },
      );
    });
  }
  const { push } = settings;
  if (push === undefined) return;
  await pushMetrics(push, groupingOf(outcome), text).catch((error: unknown) => {
    const url = push.url.href.replace(/\/$/, '');
    warn(`metrics push to ${url} failed: ${error instanceof Error ? error.message : String(error)}`, { url });
  });
}
