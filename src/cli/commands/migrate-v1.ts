import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { describeService } from '../../api/service-identity.js';
import { parseGroupBy } from '../../job-files/migrate/group.js';
import { formatMigrateSummary } from '../../migrate/results.js';
import { runMigrate } from '../../migrate/run-migrate.js';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { claimsInFlightHelp, resultsFileName, resultsFormatOption, type ResultsFormat } from '../flags.js';
import { resolveMaxRps } from '../settings.js';
import { claimsOf, phasesOf, rowsOf } from '../../metrics/recorder.js';
import { jobExitCode, writeSummaryTail } from './job-ending.js';
import { addJobOptions } from './job-options.js';
import { runAgainstService, sandboxNamePart, type JobFlags } from './service-target.js';

interface MigrateFlags extends JobFlags {
  groupBy?: string[];
  results?: string;
  resultsFormat?: ResultsFormat;
  journal?: string;
  dryRun: boolean;
}

const helpText = `
Examples:
  # one claim per v1 case, against the service
  CLAIMS_BASE_URL=https://claims.example.com CLAIMS_API_KEY=... \\
    bulk-disputes migrate-v1 --results out/migrate-v1.results.csv

  # the cases of one dispute reference into one claim; check first, send nothing
  bulk-disputes migrate-v1 --group-by custom_fields.dispute_ref --dry-run
  bulk-disputes migrate-v1 --group-by cardholder.email,dispute.date

Reads every case from GET /v1/issuer/cases and creates version 2 claims from them with
POST /v2/issuer/claims (case_ids and a deterministic claim_id: mig_ + 24 hex of the group key's
sha256). Cases already in a claim are skipped. Run the same command again after a crash, a Ctrl-C
or exit code 3: it continues from the journal and never creates a claim twice.

Version 1 cases in a CSV file instead? Import them through the bundled mapping:
  bulk-disputes import samples/v1-cases.csv --mapping mappings/v1-cases.yaml
`;

/** `bulk-disputes migrate-v1`: version 1 cases into version 2 claims. */
export function migrateV1Command(context: CliContext): Command {
  const command = new Command('migrate-v1')
    .description("group the service's version 1 cases into version 2 claims, once each, with a results CSV")
    .option(
      '--group-by <fields>',
      'dot paths of the v1 case whose equal values share a claim, comma-separated (default: one claim per case); blank values go alone',
      groupByOf,
    )
    .option(
      '--results <file>',
      'results file, one line per v1 case; .xlsx writes a workbook (default: ' +
        'migrate-v1[.sandbox][.dry-run].results.csv here, .sandbox from the embedded sandbox)',
    )
    .addOption(resultsFormatOption())
    .option(
      '--journal <file>',
      'the job journal that makes re-runs resume; it belongs to the service of its first run (default: ' +
        'migrate-v1[.sandbox].journal.sqlite here; a dry run uses a temporary one)',
    )
    .option('--dry-run', 'list and group, send nothing; outcomes are valid or skipped', false);
  return addJobOptions(command, {
    job: 'migrate-v1',
    concurrency: claimsInFlightHelp,
    restart: 'start over a journal made with other --group-by or --dry-run, or against another service',
    after: helpText,
  }).action(async (flags: MigrateFlags) => {
    context.setExitCode(await runMigrateCommand(flags, context));
  });
}

function groupByOf(value: string): string[] {
  try {
    return parseGroupBy(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

async function runMigrateCommand(flags: MigrateFlags, context: CliContext) {
  const { io, logger } = context;
  const { resultsFile, journalFile } = await filesOf(flags, io.env);
  // Checked before anything is sent, like the flag itself (exit 2).
  const maxRps = resolveMaxRps(flags.maxRps, io.env);
  // A full disk, a refused or read-only folder: in words naming the journal or the file.
  const doing = 'migrating the v1 cases of';
  return runAgainstService(flags, context, { doing, journalFile, maxRps }, async (job) => {
    const { service } = job;
    const report = await runMigrate({
      ...job,
      journalFile,
      resultsFile,
      groupBy: flags.groupBy,
      dryRun: flags.dryRun,
    });
    logger.info(
      {
        service: describeService(service.identity),
        cases: report.summary.cases,
        outcomes: report.summary.byOutcome,
        created: report.claimsCreated,
        adopted: report.claimsAdopted,
        throttling: report.throttling,
        results: resultsFile,
      },
      'migrate-v1 finished',
    );
    io.stderr.write(formatMigrateSummary(report.summary, report.mode));
    io.stderr.write(`service: ${describeService(service.identity)}\n`);
    writeSummaryTail(io, report, `results: ${resultsFile}\n`);
    context.metrics.record({
      rows: rowsOf(report.summary.byOutcome, (outcome) => outcome !== 'failed' && outcome !== 'rejected'),
      claims: claimsOf({ created: report.claimsCreated, adopted: report.claimsAdopted }),
      phases: phasesOf(report.phases),
      throttling: report.throttling,
    });
    return jobExitCode(report, report.summary.allOk, io);
  });
}

/**
 * The results file and the journal: given, or the defaults (a dry run's journal in memory); their
 * folders made.
 */
async function filesOf(
  flags: MigrateFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ resultsFile: string; journalFile: string }> {
  // A rehearsal into the embedded sandbox never shares a default file with the real run.
  const name = `migrate-v1${sandboxNamePart(flags, env)}`;
  const resultsFile = resolve(
    resultsFileName(flags.results, flags.resultsFormat, `${name}${flags.dryRun ? '.dry-run' : ''}.results`),
  );
  const journalFile =
    flags.journal === undefined
      ? flags.dryRun
        ? ':memory:'
        : resolve(`${name}.journal.sqlite`)
      : resolve(flags.journal);
  if (resultsFile === journalFile)
    throw new UsageError(`--results ${resultsFile}: expected a file of its own, got the journal`);
  for (const file of [resultsFile, journalFile === ':memory:' ? undefined : journalFile]) {
    if (file !== undefined) await mkdir(dirname(file), { recursive: true });
  }
  return { resultsFile, journalFile };
}
