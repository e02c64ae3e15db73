import { countOutside, describeLinesOutside } from '../csv/report-region.js';
import type { ImportReport } from './run-import.js';
import { formatThrottling, throttlingWorthTelling } from '../rate/throttling-summary.js';
import { okOutcomes, outcomes } from '../job-files/import/columns.js';
import { formatPhases } from '../progress/phases.js';
import { ConnectionSetupError } from '../api/network/setup-error.js';

const evidenceFolderCodes = new Set(['evidence_not_found', 'evidence_path_outside']);

/**
 * The end-of-run summary for people, on stderr: counts per outcome, the top error codes, where the
 * results are. `service` names where the claims went (so that a rehearsal and the real run read apart).
 */
export function formatSummary(
  report: ImportReport,
  options: {
    service?: string | undefined;
    embedded?: boolean;
    topErrors?: number;
    /** Where evidence was looked for (describeEvidenceDir): said when a row's file was not found there. */
    evidenceDir?: string | undefined;
  },
): string {
  const { summary } = report;
  const dryRun = report.mode === 'check';
  const service = options.service ?? (options.embedded === true ? 'the embedded sandbox' : undefined);
  const what = dryRun ? 'dry run' : service === undefined ? 'import' : `import into ${service}`;
  const lines = [
    `${what} ${report.abortedBecause === undefined ? 'finished' : 'stopped early'}: ${summary.rows} rows, ${report.claims} claims`,
  ];
  if (report.nothingToSend !== undefined) lines.push(nothingToSendLine(report, report.nothingToSend, dryRun));
  if (report.cellsReadAgain !== undefined) lines.push(report.cellsReadAgain);
  // Ten wide as always; wider only for a dry run's `would_not_file`, so that the counts stay in one column.
  const present = outcomes.filter((outcome) => summary.byOutcome[outcome] !== undefined);
  const width = Math.max(10, ...present.map((outcome) => outcome.length));
  for (const outcome of present)
    lines.push(`  ${outcome.padEnd(width)} ${String(summary.byOutcome[outcome] ?? 0).padStart(8)}`);
  // A dry run's prediction: the service's own review decides on the night (docs/import.md, "A dry run").
  const wouldNotFile = summary.byOutcome.would_not_file ?? 0;
  if (wouldNotFile > 0)
    lines.push(
      `rows whose case would not be filed: ${wouldNotFile} (by the filing rules the sandbox applies; ` +
        'error_code and error_message say why, as the real run would)',
    );
  // A report's title lines, trailer and blank lines: read and left out on purpose, never rows.
  if (report.linesOutside !== undefined && countOutside(report.linesOutside) > 0)
    lines.push(
      `lines outside the table, not rows: ${countOutside(report.linesOutside)} (${describeLinesOutside(report.linesOutside)})`,
    );
  // A file known to be wrong, imported on purpose: said after the counts, as the rows' warnings say it.
  for (const mismatch of report.trailerMismatches ?? [])
    lines.push(
      `imported all the same (--accept-trailer-mismatch): ${mismatch.message} (the rows of lines ` +
        `${mismatch.firstLine}–${mismatch.lastLine} say so in warnings)`,
    );
  // Rows set aside at staging: ok, and nothing of them sent (docs/import.md, "Duplicates").
  const skipped = summary.byOutcome.skipped ?? 0;
  const duplicate = summary.byOutcome.duplicate ?? 0;
  if (skipped + duplicate > 0)
    lines.push(
      `rows set aside, nothing of them sent: ${[
        ...(skipped > 0 ? [`${skipped} skipped by the mapping's rows.only`] : []),
        ...(duplicate > 0 ? [`${duplicate} duplicate of an earlier line`] : []),
      ].join(', ')} (error_message says which rule or line)`,
    );
  // Fixes fed back that reached cases the service held, or would in a dry run.
  if (summary.changed > 0)
    lines.push(
      `${dryRun ? 'cases that would be updated' : 'cases updated'}: ${summary.changed} (changed_fields says which fields)`,
    );
  // Sent all the same, so not among the errors: a card number typed into free text, masked.
  if (summary.masked > 0)
    lines.push(
      `${dryRun ? 'rows that would be sent' : 'rows sent'} with a card number masked: ${summary.masked} ` +
        '(warnings says which fields)',
    );
  const top = [...summary.byErrorCode].sort((left, right) => right[1] - left[1]).slice(0, options.topErrors ?? 5);
  if (top.length > 0) {
    lines.push('top errors:');
    for (const [code, count] of top) lines.push(`  ${code.padEnd(28)} ${String(count).padStart(8)}`);
  }
  // A file not found is most often a folder not the one meant: the folder searched, and how to change it.
  const evidenceMissed = [...evidenceFolderCodes].some((code) => summary.byErrorCode.has(code));
  if (evidenceMissed && options.evidenceDir !== undefined) lines.push(`evidence looked for in ${options.evidenceDir}`);
  // How the service's pace was kept: throttled answers, pauses, where concurrency settled.
  if (report.throttling !== undefined && throttlingWorthTelling(report.throttling))
    lines.push(...formatThrottling(report.throttling));
  // A certificate or a proxy set up wrongly: nothing reached the service, and only fixing it helps.
  const setup = report.fatal instanceof ConnectionSetupError;
  if (report.abortedBecause !== undefined)
    lines.push(
      `stopped because: ${report.abortedBecause}`,
      setup
        ? 'nothing was sent: once that is fixed, run the same command again'
        : 'run the same command again to continue',
    );
  // How long each phase took: where a long night went.
  if (report.phases !== undefined && report.phases.length > 0) lines.push(formatPhases(report.phases));
  lines.push(`results: ${report.resultsFile}`);
  return `${lines.join('\n')}\n`;
}

/** `2026-11-27 21:04 UTC`: when a run started, to the minute. */
function runTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * A re-run that found nothing to do says so first, and why: every row was settled by an earlier
 * run (named by when it started), how many of them are not ok, and where to read why.
 */
function nothingToSendLine(
  report: ImportReport,
  nothing: { settledByRunAt: string | undefined },
  dryRun: boolean,
): string {
  const { summary } = report;
  const run = nothing.settledByRunAt === undefined ? 'an earlier run' : `the run of ${runTime(nothing.settledByRunAt)}`;
  const notOk = outcomes.flatMap((outcome) => {
    const count = summary.byOutcome[outcome] ?? 0;
    return okOutcomes.includes(outcome) || count === 0 ? [] : [`${String(count)} ${outcome}`];
  });
  const rowsWere = summary.rows === 1 ? 'its one row was' : `all ${String(summary.rows)} rows were`;
  const settled = `${dryRun ? 'nothing to check' : 'nothing to send'}: ${rowsWere} settled by ${run} in this journal`;
  if (notOk.length === 0) return `${settled}, and ${summary.rows === 1 ? 'it is' : 'every one is'} ok`;
  return `${settled}; ${notOk.join(', ')}: see ${report.resultsFile} for why (fix those rows and feed that file back)`;
}
