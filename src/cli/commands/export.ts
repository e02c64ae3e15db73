import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import {
  defaultColumns,
  exportResources,
  isExportResource,
  parseColumns,
  unknownColumns,
  type ExportResource,
} from '../../export/columns.js';
import { runExport } from '../../export/run-export.js';
import { readStateFile } from '../../export/state.js';
import { describeService } from '../../api/service-identity.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { resolveMaxRps } from '../settings.js';
import { writeSummaryTail } from './job-ending.js';
import { addJobOptions } from './job-options.js';
import { serviceTarget } from './service-target.js';
import { phasesOf } from '../../metrics/recorder.js';

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
  return addJobOptions(command, {
    job: 'export',
    concurrency: undefined,
    restart:
      'with --state: drop its bookmark (also one taken from another service) and export everything, then bookmark this service',
    after: helpText,
  }).action(async (resource: string, flags: ExportFlags) => {
    await runExportCommand(resource, flags, context);
  });
}

async function runExportCommand(resourceName: string, flags: ExportFlags, context: CliContext): Promise<void> {
  const { io, logger } = context;
  if (!isExportResource(resourceName))
    throw new UsageError(`resource: expected one of ${exportResources.join(', ')}, got ${resourceName}`);
  const resource: ExportResource = resourceName;
  const columns = flags.columns === undefined ? undefined : columnsOf(flags.columns, resource, io);
  const toStdout = flags.out === '-';
  const outFile = toStdout ? undefined : resolve(flags.out);
  const stateFile = flags.state === undefined ? undefined : resolve(flags.state);
  // Read before anything is sent: a state file for another list stops the run here.
  const state = stateFile === undefined ? undefined : await readStateFile(stateFile, resource);
  for (const file of [outFile, stateFile]) if (file !== undefined) await mkdir(dirname(file), { recursive: true });
  const maxRps = resolveMaxRps(flags.maxRps, io.env);

  const { service, embedded } = await serviceTarget(flags, context, 'exporting from');
  try {
    const report = await runExport({
      resource,
      columns,
      target: outFile === undefined ? { sink: io.stdout } : { file: outFile },
      state,
      restart: flags.restart,
      service,
      maxRps,
      logger,
      // Not over the CSV itself when it goes to this same terminal.
      progress: toStdout && io.stdout.isTTY === true ? undefined : context.progress,
    });
    const { throttling, phases } = report;
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
    context.metrics.record({
      rows: [{ outcome: 'exported', ok: true, count: report.rows }],
      phases: phasesOf(phases),
      throttling,
    });
    // As import and migrate-v1: lines only when the service throttled or --max-rps paced the run.
    writeSummaryTail(io, { throttling, phases });
  } finally {
    await embedded?.close();
  }
}

/**
 * `--columns`: at least one. Columns the interface does not document: a warning, not an error (the
 * service may send more than it documents); the default columns are all documented.
 */
function columnsOf(value: string, resource: ExportResource, io: CliContext['io']): string[] {
  const columns = parseColumns(value);
  if (columns.length === 0) throw new UsageError('--columns: expected at least one column name, got none');
  const unknown = unknownColumns(resource, columns);
  if (unknown.length > 0)
    io.stderr.write(
      `warning: ${unknown.join(', ')}: not documented fields of ${resource}; their cells stay empty unless the service sends them\n`,
    );
  return columns;
}
