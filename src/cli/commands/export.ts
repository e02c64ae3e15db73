import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { clientOf } from '../../api/service-target.js';
import {
  defaultColumns,
  exportResources,
  isExportResource,
  parseColumns,
  unknownColumns,
  type ExportResource,
} from '../../export/columns.js';
import { runExport } from '../../export/run-export.js';
import { checkStateService, readState, writeState, type ExportState } from '../../export/state.js';
import { describeService, type ServiceIdentity } from '../../api/service-identity.js';
import type { CliContext } from '../context.js';
import { exitCodeHelp } from '../exit-code-help.js';
import { UsageError } from '../exit-codes.js';
import { pacingSummary } from '../../rate/throttling-summary.js';
import { addPacingOptions, addMetricsOptions } from '../flags.js';
import { resolveMaxRps } from '../settings.js';
import { writeSummaryTail } from './job-ending.js';
import { addServiceOptions, serviceTarget } from './service-target.js';
import { PhaseTimer } from '../../progress/phases.js';
import { phasesOf } from '../../metrics/recorder.js';
import { showServiceWaits } from '../../progress/service-notices.js';

interface ExportFlags {
  out: string;
  columns?: string;
  state?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  maxRps?: number;
  sandboxDb: string;
  restart: boolean;
}

const helpText = `
Columns are dot-paths into each record (dispute.reason, transaction.card.last4); arrays of values
are joined with ";", arrays of objects written as JSON. Default columns:
  cases   ${defaultColumns.cases.join(', ')}
  claims  ${defaultColumns.claims.join(', ')}
  events  ${defaultColumns.events.join(', ')}

Examples:
  # try it: what \`npm start\` put into the embedded sandbox (no --base-url)
  bulk-disputes export claims --out claims.csv --sandbox-db out/sandbox.db

  # every case, chosen columns, to stdout
  bulk-disputes export cases --out - --columns case_id,status,dispute.amount,custom_fields.ref

  # the nightly job: only the events newer than last night's bookmark, oldest first
  CLAIMS_BASE_URL=https://claims.example.com CLAIMS_API_KEY=... \\
    bulk-disputes export events --out "events-$(date +%F).csv" --state events.state.json

The first run with --state (no file yet) exports everything; each successful run then rewrites
the state file with the newest id exported. A failed run leaves it as it was: run the same
command again. A state file belongs to the service it was written against: with another
--base-url or key environment the export stops (exit 2) before reading anything; give that
service a --state file of its own, or --restart to export everything from it.
`;

/** `bulk-disputes export`: one list of the service to a spreadsheet-safe CSV, optionally incremental. */
export function exportCommand(context: CliContext): Command {
  const command = new Command('export')
    .description('export cases, claims or events to CSV; --state makes it incremental for a nightly job')
    .argument('<resource>', `what to export: ${exportResources.join(', ')}`)
    .requiredOption('--out <file>', 'the CSV to write (through a temporary file and a rename); - for stdout')
    .option('--columns <list>', 'comma-separated dot-path columns (default: a set per resource, see below)')
    .option(
      '--state <file>',
      "bookmark file: export only what is newer than the last run's newest record, then move the bookmark",
    );
  addPacingOptions(command, undefined);
  command.option(
    '--restart',
    'with --state: drop its bookmark (also one taken from another service) and export everything, then bookmark this service',
    false,
  );
  return addMetricsOptions(addServiceOptions(command))
    .addHelpText('after', helpText)
    .addHelpText('after', exitCodeHelp('export'))
    .action(async (resource: string, flags: ExportFlags) => {
      await runExportCommand(resource, flags, context);
    });
}

async function runExportCommand(resourceName: string, flags: ExportFlags, context: CliContext): Promise<void> {
  const { io, logger } = context;
  if (!isExportResource(resourceName))
    throw new UsageError(`resource: expected one of ${exportResources.join(', ')}, got ${resourceName}`);
  const resource: ExportResource = resourceName;
  const columns = flags.columns === undefined ? defaultColumns[resource] : parseColumns(flags.columns);
  if (columns.length === 0) throw new UsageError('--columns: expected at least one column name, got none');
  warnOfUnknownColumns(resource, columns, io);
  const toStdout = flags.out === '-';
  const outFile = toStdout ? undefined : resolve(flags.out);
  const stateFile = flags.state === undefined ? undefined : resolve(flags.state);
  // Read before anything is sent: a state file for another list stops the run here.
  const recorded = stateFile === undefined ? undefined : await readState(stateFile, resource);
  for (const file of [outFile, stateFile]) if (file !== undefined) await mkdir(dirname(file), { recursive: true });
  const maxRps = resolveMaxRps(flags.maxRps, io.env);

  const { service, embedded } = await serviceTarget(flags, context, 'exporting from');
  const client = clientOf(service, { maxRps, logger });
  try {
    // Checked before the first page is read: another service's bookmark would skip this one's records.
    const state =
      recorded === undefined || stateFile === undefined
        ? undefined
        : stateFor(recorded, stateFile, service.identity, flags.restart, context);
    // records/s and elapsed on a terminal; a list has no total to count down.
    const phases = new PhaseTimer();
    phases.next('exporting');
    // Not over the CSV itself when it goes to this same terminal.
    if (!(toStdout && io.stdout.isTTY === true)) context.progress.begin({ label: 'exporting', unit: resource });
    const stopShowingWaits = showServiceWaits(client, context.progress);
    const report = await runExport({
      client,
      resource,
      columns,
      target: outFile === undefined ? { sink: io.stdout } : { file: outFile },
      after: state?.bookmark ?? undefined,
      onRecord: (rows) => {
        context.progress.update(rows);
      },
    }).finally(() => {
      stopShowingWaits();
      context.progress.done();
    });
    if (stateFile !== undefined)
      await writeState(stateFile, {
        resource,
        bookmark: report.bookmark ?? null,
        updated: new Date().toISOString(),
        service: service.identity,
      });
    const throttling = pacingSummary(client);
    logger.info(
      {
        resource,
        service: describeService(service.identity),
        rows: report.rows,
        out: outFile ?? 'stdout',
        bookmark: report.bookmark,
        state: stateFile,
        throttling,
      },
      'export finished',
    );
    io.stderr.write(
      `exported ${report.rows} ${resource} to ${outFile ?? 'stdout'} (bookmark: ${report.bookmark ?? 'none'})\n`,
    );
    const took = phases.end();
    context.metrics.record({
      rows: [{ outcome: 'exported', ok: true, count: report.rows }],
      phases: phasesOf(took),
      throttling,
    });
    // As import and migrate-v1: lines only when the service throttled or --max-rps paced the run.
    writeSummaryTail(io, { throttling, phases: took });
  } finally {
    await client.close();
    await embedded?.close();
  }
}

/** Columns the interface does not document: a warning, not an error (the service may send more than it documents). */
function warnOfUnknownColumns(
  resource: Parameters<typeof unknownColumns>[0],
  columns: readonly string[],
  io: CliContext['io'],
): void {
  const unknown = unknownColumns(resource, columns);
  if (unknown.length > 0)
    io.stderr.write(
      `warning: ${unknown.join(', ')}: not documented fields of ${resource}; their cells stay empty unless the service sends them\n`,
    );
}

/**
 * The bookmark to export after, if it is this service's; `--restart` drops it (export everything).
 * A bookmark of nothing yet (null) skips nothing, whichever service it came from.
 */
function stateFor(
  recorded: ExportState,
  file: string,
  current: ServiceIdentity,
  restart: boolean,
  context: CliContext,
): ExportState | undefined {
  if (restart) {
    context.logger.warn(
      { state: file },
      '--restart: the bookmark is dropped; exporting everything, then a new bookmark for this service',
    );
    return undefined;
  }
  if (recorded.bookmark === null) return recorded;
  if (checkStateService(recorded, file, current) === 'unrecorded') {
    context.logger.warn(
      { state: file, service: describeService(current) },
      `--state ${file} records no service (written before bookmarks recorded one): taken as ${describeService(current)}'s from now on`,
    );
  }
  return recorded;
}
