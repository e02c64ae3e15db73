import { clientOf } from '../api/service-target.js';
import { PhaseTimer, type PhaseTime } from '../progress/phases.js';
import { showServiceWaits } from '../progress/service-notices.js';
import type { ThrottlingSummary } from '../rate/follow-throttling.js';
import { pacingSummary } from '../rate/throttling-summary.js';
import { resolveExportPlan, type ExportPlan, type ExportRequest } from './plan.js';
import { writeState } from './state.js';
import { writeExportCsv, type WrittenCsv } from './write-csv.js';

export type { ExportRequest, ExportTarget } from './plan.js';

export interface ExportReport extends WrittenCsv {
  /** What the service's pace did to the paging (an export has no concurrency of its own). */
  throttling: ThrottlingSummary;
  /** How long exporting took. */
  phases: PhaseTime[];
}

/**
 * `bulk-disputes export` (docs/export.md): one list of the service to CSV; with `--state`, only
 * what is newer than the bookmark, which moves to the newest id exported once the CSV is written.
 * A failed run leaves the bookmark as it was.
 */
export async function runExport(request: ExportRequest): Promise<ExportReport> {
  return exportByPlan(resolveExportPlan(request));
}

async function exportByPlan(plan: ExportPlan): Promise<ExportReport> {
  const { progress } = plan;
  const client = clientOf(plan.service, { ...plan.pacing, logger: plan.logger });
  try {
    // records/s and elapsed on a terminal; a list has no total to count down.
    const phases = new PhaseTimer();
    phases.next('exporting');
    progress?.begin({ label: 'exporting', unit: plan.resource });
    const stopShowingWaits = progress === undefined ? () => undefined : showServiceWaits(client, progress);
    const written = await writeExportCsv(client, plan).finally(() => {
      stopShowingWaits();
      progress?.done();
    });
    if (plan.bookmark !== undefined)
      await writeState(plan.bookmark.file, {
        resource: plan.resource,
        bookmark: written.bookmark ?? null,
        updated: new Date().toISOString(),
        service: plan.serviceIdentity,
      });
    return { ...written, throttling: pacingSummary(client), phases: phases.end() };
  } finally {
    await client.close();
  }
}
