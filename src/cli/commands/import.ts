import { mkdir } from 'node:fs/promises';
import { requireFile } from './required-paths.js';
import { evidenceDirOf } from './evidence-dir.js';
import { jobStem } from '../../job-files/job-name.js';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Shard } from '../../job-files/claims/ids.js';
import { describeService } from '../../api/service-identity.js';
import { idPrefixExpected, idPrefixPattern } from '../../mapping/schema.js';
import { runImport, type ImportReport } from '../../import/run-import.js';
import { letYoungGenerationGrow, letYoungGenerationGrowForWorkbooks } from '../heap-tuning.js';
import type { ServiceTarget } from '../../api/service-target.js';
import { resolveNetwork } from '../network-settings.js';
import { isWorkbookFile } from '../../workbook/read-rows.js';
import { isObjectAddress, parseObjectAddress } from '../../storage/object-address.js';
import { formatSummary } from '../../import/summary.js';
import { describeEvidenceDir } from '../../evidence/index.js';
import { okOutcomes } from '../../job-files/import/columns.js';
import { claimsOf, phasesOf, rowsOf } from '../../metrics/recorder.js';
import type { CliContext } from '../context.js';
import { exitCodeHelp } from '../exit-code-help.js';
import { UsageError } from '../exit-codes.js';
import {
  addMetricsOptions,
  addPacingOptions,
  claimsInFlightHelp,
  integer,
  resultsFileName,
  resultsFormatOption,
} from '../flags.js';
import { resolveApiKey, resolveMaxRps } from '../settings.js';
import { runningClock } from './embedded-sandbox.js';
import { jobExitCode } from './job-ending.js';
import {
  addServiceOptions,
  sandboxNamePart,
  serviceTarget,
  stopOnSignal,
  usesEmbeddedSandbox,
  type ChosenService,
  type JobFlags,
} from './service-target.js';

interface ImportFlags extends JobFlags {
  mapping: string;
  acceptTrailerMismatch: boolean;
  results?: string;
  resultsFormat?: 'csv' | 'xlsx';
  sheet?: string;
  journal?: string;
  evidenceDir?: string;
  evidenceFetchConcurrency?: number;
  fileMode?: 'none' | 'auto' | 'chargeback';
  dryRun: boolean;
  payloads?: string;
  shard?: Shard;
  idPrefix?: string;
  breakerThreshold?: number;
}

const helpText = `
Examples:
  # try it: the bundled sample against the embedded sandbox (no --base-url)
  bulk-disputes import samples/generic-export.csv --mapping mappings/generic.yaml --evidence-dir samples/evidence

  # the nightly run against the service
  CLAIMS_BASE_URL=https://claims.example.com CLAIMS_API_KEY=... \\
    bulk-disputes import disputes.csv --mapping mappings/generic.yaml --results out/disputes.results.csv

  # a service that allows 50 requests a second: stay under it (docs/rate-limits.md)
  bulk-disputes import disputes.csv --mapping mappings/generic.yaml --max-rps 45 --concurrency 16

  # review in a spreadsheet: results as a workbook of text cells, fixed and fed back
  bulk-disputes import disputes.csv --mapping mappings/generic.yaml --results out/disputes.results.xlsx
  bulk-disputes import out/disputes.results.xlsx --mapping mappings/generic.yaml --journal out/disputes.fix-1.journal.sqlite

  # evidence under a bucket prefix (credentials from the AWS SDK's default chain: environment, profile, role)
  bulk-disputes import disputes.csv --mapping mappings/generic.yaml --evidence-dir s3://bank-evidence/disputes/
  # an export where the bank keeps it: results and journal here, named after the key (night.results.csv)
  AWS_REGION=eu-west-1 bulk-disputes import s3://bank-exports/exports/night.csv --mapping mappings/generic.yaml

  # check everything, send nothing; write each claim's body
  bulk-disputes import disputes.csv --mapping mappings/generic.yaml --dry-run --payloads claims.jsonl

A 429 sets the pace to the rate the service admits, probing back up within seconds; 503s each wait
their own Retry-After, and many at once cut the claims in flight. The summary says which one set the
pace, and for how long (docs/rate-limits.md).

Run the same command again after a crash, a Ctrl-C or exit code 3: it continues from the journal and
never creates a claim twice. A fixed results CSV can be fed back in as the input: claims the
service holds get what changed (PUT per case, new files attached) and are filed again; a filed
case cannot change (already_filed, nothing sent); the rest are sent. changed_fields says what
was updated.
`;

/** `bulk-disputes import`: an issuer CSV through a mapping into claims, filed, with a results CSV. */
export function importCommand(context: CliContext): Command {
  const command = new Command('import')
    .description(
      'import disputes from a CSV export (or a workbook): map, upload evidence, create and file claims, write a results CSV or workbook',
    )
    .argument(
      '<input>',
      "the CSV export, a fixed-width record file (the mapping's fixed_width), or a workbook (.xlsx: a fed-back " +
        'results workbook, or an export delivered as one); a local file, or an object, s3://bucket/key (read ' +
        'where it is, with the credentials the AWS SDK finds: docs/network.md, "Object storage")',
    )
    .requiredOption('--mapping <file>', 'mapping file (YAML or JSON) for this export layout')
    .option('--sheet <name>', 'a workbook input: the sheet to read (default: its first)')
    .option(
      '--results <file>',
      'results file, one line per input row; .xlsx writes a workbook (default: <input ' +
        'name>[.shard-i-of-n][.sandbox|.dry-run].results.csv here, .xlsx for a workbook input)',
    )
    .addOption(resultsFormatOption())
    .option(
      '--journal <file>',
      'the job journal that makes re-runs resume; it belongs to the service of its first run (default: ' +
        '<input name>[.shard-i-of-n][.sandbox].journal.sqlite here, .sandbox into the embedded sandbox; a dry ' +
        'run uses a temporary one)',
    )
    .option(
      '--evidence-dir <dir>',
      "evidence paths in the CSV are inside this directory, or under this s3://bucket/prefix/ (default: the input file's " +
        "directory, an s3:// input's folder); s3:// and https:// cells besides only where the mapping's evidence_sources allows",
    )
    .option(
      '--evidence-fetch-concurrency <n>',
      'evidence objects and documents read at once from a store or a link host (default 16)',
      integer('--evidence-fetch-concurrency', 1, 256),
    )
    .addOption(
      new Option('--file-mode <mode>', "filing after creation (default: the mapping's file_mode)").choices([
        'none',
        'auto',
        'chargeback',
      ]),
    );
  addPacingOptions(command, claimsInFlightHelp);
  command
    .option(
      '--breaker-threshold <n>',
      "claims failed on the service's side in the last minute, and half of those that ended, that stop the run " +
        '(exit 3: run it again); default 5',
      integer('--breaker-threshold', 1, 10_000),
    )
    .option(
      '--dry-run',
      'map and check everything (evidence included), send nothing; outcomes are valid, invalid, or ' +
        'would_not_file where the filing rules the sandbox applies would not file the case (exit 1, as the real ' +
        "run's not_filed), and skipped and duplicate as in a real run. With a service named, a fed-back file is compared with the claims it holds: " +
        'changed_fields shows what would be updated',
      false,
    )
    .option('--payloads <file>', "write each claim's new_claim body to this JSON Lines file")
    .option('--shard <i/n>', 'process only the claims of shard i of n (1-based), by a hash of the claim key', shardOf)
    .option(
      '--id-prefix <prefix>',
      'a new id generation for this job: every claim and case id gets this prefix (in place of the ' +
        "mapping's claim.id_prefix), e.g. to send corrected rows again after their claims were withdrawn; " +
        "give it again on the job's re-runs and feed-backs",
      idPrefixOf,
    )
    .option('--restart', 'start over a journal made for another input, mapping, flags or service', false)
    .option(
      '--accept-trailer-mismatch',
      "import a file whose trailers disagree with what it holds (the mapping's controls), each row of such a " +
        'block warned in the results; without it such a file stops the import with nothing sent (exit 2)',
      false,
    );
  return addMetricsOptions(addServiceOptions(command, { sandbox: 'db-and-clock' }))
    .addHelpText('after', helpText)
    .addHelpText('after', exitCodeHelp('import'))
    .action(async (input: string, flags: ImportFlags) => {
      context.setExitCode(await runImportCommand(input, flags, context));
    });
}

async function runImportCommand(input: string, flags: ImportFlags, context: CliContext) {
  const { io, logger } = context;
  // An object is identified by the import's plan (HeadObject), with the store's own words if it is not there.
  const object = isObjectAddress(input) ? parseObjectAddress(input, 'input') : undefined;
  if (object === undefined) await requireFile(input, 'input', 'a readable CSV or .xlsx file');
  if (flags.sheet !== undefined && !isWorkbookFile(input))
    throw new UsageError(`--sheet ${flags.sheet}: expected a workbook input (.xlsx), got ${input}`);
  const { evidenceDir, evidenceDirSetBy } = await evidenceDirOf(flags.evidenceDir, input);
  await requireFile(flags.mapping, '--mapping', 'a readable mapping file');
  // A workbook's reader makes garbage faster than a CSV's; a larger young generation collects it (heap-tuning.ts).
  if (isWorkbookFile(input)) letYoungGenerationGrowForWorkbooks();
  const { resultsFile, journalFile } = await filesOf(input, flags, io.env);
  // Checked before anything is sent, like the flag itself (exit 2).
  const maxRps = resolveMaxRps(flags.maxRps, io.env);
  const target = flags.dryRun ? undefined : await serviceTarget(flags, context, 'importing into');
  const { embedded } = target ?? {};
  // A dry run sends nothing; given a service, it reads the claims a fed-back file reports created.
  const readFrom = flags.dryRun ? await dryRunService(flags, context) : undefined;
  const stopRequested = stopOnSignal(context);
  try {
    const report = await runImport({
      input,
      sheet: flags.sheet,
      mappingFile: flags.mapping,
      resultsFile,
      journalFile,
      evidenceDir,
      evidenceDirSetBy,
      evidenceFetchConcurrency: flags.evidenceFetchConcurrency,
      // Evidence links are reached the way the service is (its --proxy and --ca-file), in a dry run too.
      evidenceNetwork: await resolveNetwork(flags, io.env),
      fileMode: flags.fileMode,
      concurrency: flags.concurrency,
      maxRps,
      breakerThreshold: flags.breakerThreshold,
      dryRun: flags.dryRun,
      // Filing checked at the time the real run would file: the embedded sandbox's clock, when it goes there.
      filingClock:
        flags.dryRun && flags.sandboxClock !== undefined && usesEmbeddedSandbox(flags, io.env)
          ? runningClock(flags.sandboxClock)
          : undefined,
      payloadsFile: flags.payloads,
      shard: flags.shard,
      idPrefix: flags.idPrefix,
      restart: flags.restart,
      acceptTrailerMismatch: flags.acceptTrailerMismatch,
      service: target?.service ?? readFrom,
      logger,
      progress: context.progress,
      stopRequested,
      // The peak of a job's memory is staging's; past it, a young generation kept small costs time (heap-tuning.ts).
      onStaged: letYoungGenerationGrow,
    });
    logger.info(finishedRecord(report, target, { resultsFile, journalFile }), 'import finished');
    io.stderr.write(
      formatSummary(report, {
        embedded: embedded !== undefined,
        service: target === undefined || embedded !== undefined ? undefined : describeService(target.service.identity),
        evidenceDir: describeEvidenceDir(evidenceDir, evidenceDirSetBy),
      }),
    );
    context.metrics.record({
      rows: rowsOf(report.summary.byOutcome, (outcome) => okOutcomes.includes(outcome)),
      claims: claimsOf(report.claimsByOutcome ?? {}),
      phases: phasesOf(report.phases),
      throttling: report.throttling,
    });
    // The funnel in main.ts gives a refused key or a failing disk its message and exit code.
    return jobExitCode(report, report.summary.allOk);
  } finally {
    await embedded?.close();
  }
}

/**
 * The results file and the journal: given, or named after the input; their folders made, and the
 * payloads file's.
 */
async function filesOf(
  input: string,
  flags: ImportFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ resultsFile: string; journalFile: string | undefined }> {
  // Shards, dry runs and rehearsals into the embedded sandbox get names of their own, so that none
  // overwrites another's files, and a rehearsal's journal is never the real run's.
  const shard = flags.shard === undefined ? '' : `.shard-${flags.shard.index}-of-${flags.shard.count}`;
  const rehearsal = flags.dryRun ? '.dry-run' : sandboxNamePart(flags, env);
  const name = `${jobStem(input)}${shard}${rehearsal}`;
  // A workbook in, a workbook out: the reviewer's loop stays in the spreadsheet.
  const resultsFile = resolve(
    resultsFileName(flags.results, flags.resultsFormat, `${name}.results`, isWorkbookFile(input) ? 'xlsx' : 'csv'),
  );
  const journalFile =
    flags.journal === undefined
      ? flags.dryRun
        ? undefined
        : resolve(`${name}.journal.sqlite`)
      : resolve(flags.journal);
  // Named after an object's key, in this folder: `night.results.csv` for `s3://bucket/exports/night.csv`.
  if ([isObjectAddress(input) ? undefined : resolve(input), journalFile].includes(resultsFile))
    throw new UsageError(`--results ${resultsFile}: expected a file of its own, got the input or the journal`);

  // Where the job writes may not exist yet (a fresh `out/`): made, like `mkdir -p`.
  for (const file of [resultsFile, journalFile, flags.payloads]) {
    if (file !== undefined) await mkdir(dirname(resolve(file)), { recursive: true });
  }
  return { resultsFile, journalFile };
}

/** The closing JSON line's fields: what a scheduler's log keeps of the night. */
function finishedRecord(
  report: ImportReport,
  target: ChosenService | undefined,
  files: { resultsFile: string; journalFile: string | undefined },
): Record<string, unknown> {
  return {
    service: target === undefined ? undefined : describeService(target.service.identity),
    rows: report.summary.rows,
    outcomes: report.summary.byOutcome,
    throttling: report.throttling,
    // How long each phase took, as the summary's `took` line says it: a night's monitoring reads it.
    phasesMs: phasesMsOf(report.phases),
    // Of each, what ran alongside the phase before it: sending while staging went on.
    phasesOverlapMs: overlapsMsOf(report.phases),
    results: files.resultsFile,
    journal: files.journalFile,
    // A re-run with nothing left: which run settled the rows (null: a journal that did not record it).
    nothingToSend: report.nothingToSend && { settledByRunAt: report.nothingToSend.settledByRunAt ?? null },
    // A report's title lines, trailer, blank lines: counted by why, never rows.
    linesOutside: report.linesOutside,
  };
}

/** `{ staging: 812, sending: 40123, results: 95 }`: each phase's milliseconds, whole. */
function phasesMsOf(phases: ImportReport['phases']): Record<string, number> | undefined {
  if (phases === undefined) return undefined;
  return Object.fromEntries(phases.map(({ phase, ms }) => [phase, Math.round(ms)]));
}

/** `{ sending: 412 }`: the milliseconds of each phase that ran alongside the one before it; undefined when none did. */
function overlapsMsOf(phases: ImportReport['phases']): Record<string, number> | undefined {
  const overlaps = (phases ?? []).filter((time) => time.overlapMs !== undefined);
  if (overlaps.length === 0) return undefined;
  return Object.fromEntries(overlaps.map(({ phase, overlapMs }) => [phase, Math.round(overlapMs ?? 0)]));
}

/** `--id-prefix`: checked as the mapping's claim.id_prefix is, before anything is read (exit 2). */
function idPrefixOf(value: string): string {
  if (!idPrefixPattern.test(value)) throw new InvalidArgumentError(`${idPrefixExpected}, got ${JSON.stringify(value)}`);
  return value;
}

/** The service a dry run reads from: the one named by --base-url or CLAIMS_BASE_URL with a key, else none (never the embedded sandbox). */
async function dryRunService(flags: ImportFlags, context: CliContext): Promise<ServiceTarget | undefined> {
  if (usesEmbeddedSandbox(flags, context.io.env)) return undefined;
  const apiKey = await resolveApiKey(flags, context.io.env);
  const baseUrl = flags.baseUrl ?? context.io.env.CLAIMS_BASE_URL ?? '';
  if (apiKey === undefined) {
    context.logger.warn(
      'dry run: a service is named but no API key: a fed-back file is not compared with the claims the service holds',
    );
    return undefined;
  }
  return { baseUrl, apiKey, network: await resolveNetwork(flags, context.io.env) };
}

function shardOf(value: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new InvalidArgumentError(`--shard: expected i/n with 1 <= i <= n, such as 2/4, got ${value}`);
  }
  return { index, count };
}
