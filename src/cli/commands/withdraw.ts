import { mkdir } from 'node:fs/promises';
import { jobStem } from '../../job-files/job-name.js';
import { dirname, extname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { describeService, keyEnvironmentOf } from '../../api/service-identity.js';
import { formatPreview, type WithdrawPreview } from '../../withdraw/preview.js';
import { formatWithdrawSummary } from '../../withdraw/results.js';
import type { WithdrawFiles, WithdrawRequest } from '../../withdraw/plan.js';
import { runWithdraw } from '../../withdraw/run-withdraw.js';
import type { CliContext } from '../context.js';
import { withdrawOkOutcomes } from '../../job-files/withdraw/columns.js';
import { phasesOf, rowsOf } from '../../metrics/recorder.js';
import { UsageError } from '../exit-codes.js';
import { collect, resultsFileName, resultsFormatOption, type ResultsFormat } from '../flags.js';
import { resolveApiKey, resolveMaxRps } from '../settings.js';
import { requireFile } from './required-paths.js';
import { jobExitCode, writeSummaryTail } from './job-ending.js';
import { addJobOptions, type JobOptionsHelp } from './job-options.js';
import {
  runAgainstService,
  sandboxNamePart,
  usesEmbeddedSandbox,
  type JobFlags,
  type JobSetUp,
} from './service-target.js';

interface WithdrawFlags extends JobFlags {
  scope: 'claim' | 'case';
  deleteUnfiled: boolean;
  outcome: string[];
  claimKey: string[];
  column?: string;
  results?: string;
  resultsFormat?: ResultsFormat;
  journal?: string;
  dryRun: boolean;
  yes: boolean;
}

/** What the job's shared flags say for withdraw, and its help after the options. */
const jobHelp: JobOptionsHelp = {
  job: 'withdraw',
  concurrency: 'the most claims in flight at once; fewer while the service answers 503, paced while it answers 429',
  restart: 'start over a journal made for other sources or flags, or another service',
  after: `
Sources name the claims to take back:
  an import's journal (or its shards' journals), or a migrate-v1 journal: every claim that job
    created, each proven the job's own before it is touched; --outcome and --claim-key narrow it
  a results file of ours (CSV in any dialect we write, or .xlsx), e.g. filtered in a spreadsheet:
    the claims and cases its lines name
  a CSV or workbook with a claim_id or case_id column (--column for another header)

Examples:
  # what would happen, nothing sent
  bulk-disputes withdraw out/disputes-2026-11-26.journal.sqlite --dry-run

  # take back last night's import (a live key asks first on a terminal; in a script, --yes)
  CLAIMS_BASE_URL=https://claims.example.com CLAIMS_API_KEY=... \\
    bulk-disputes withdraw out/disputes-2026-11-26.journal.sqlite --yes

  # only the cases of a filtered results workbook; unfiled ones deleted
  bulk-disputes withdraw refunded.xlsx --scope case --delete-unfiled

Each withdrawal or delete is sent once: a crash or a lost answer is settled by retrieving the
claim or case, never by sending it again. Run the same command again to continue; once done, it
sends nothing. Results: one line per case (withdrawn, deleted, already_closed, not_found,
refused, failed).
`,
};

/** `bulk-disputes withdraw`: take claims back in bulk, exactly once. */
export function withdrawCommand(context: CliContext): Command {
  const command = new Command('withdraw')
    .description(
      'withdraw (or delete) in bulk the claims and cases a journal, a results file or a list names, each exactly once, with a results file',
    )
    .argument(
      '<source...>',
      'import or migrate-v1 journals, results files (CSV or .xlsx), or CSV/workbook lists with a claim_id or case_id column',
    )
    .addOption(
      new Option('--scope <scope>', 'claim: withdraw each whole claim; case: only the cases the sources name')
        .choices(['claim', 'case'])
        .default('claim'),
    )
    .option('--delete-unfiled', 'with --scope case: delete unfiled cases instead of withdrawing them', false)
    .option(
      '--outcome <outcome>',
      'journals and results: only the rows with this outcome (filed, not_filed, created, failed; repeatable)',
      collect,
      [],
    )
    .option('--claim-key <key>', 'journals and results: only this claim key (repeatable)', collect, [])
    .option('--column <header>', 'a list: the header of the column holding claim ids (default: claim_id, or case_id)')
    .option(
      '--results <file>',
      'results file, one line per case; .xlsx writes a workbook (default: <first source>.withdraw[.sandbox|.dry-run].results.csv here)',
    )
    .addOption(resultsFormatOption())
    .option(
      '--journal <file>',
      'the withdraw journal that makes re-runs continue (default: <first ' +
        'source>.withdraw[.sandbox].journal.sqlite beside the source; a dry run uses a temporary one)',
    )
    .option('--dry-run', 'retrieve and list what would happen to each claim and case; send nothing', false)
    .option('--yes', 'a live key without a terminal: go ahead without asking', false);
  return addJobOptions(command, jobHelp).action(async (sources: string[], flags: WithdrawFlags) => {
    context.setExitCode(await runWithdrawCommand(sources, flags, context));
  });
}

async function runWithdrawCommand(sources: string[], flags: WithdrawFlags, context: CliContext) {
  const { io, logger } = context;
  for (const source of sources) await requireFile(source, 'source', 'a readable journal, results file or list');
  if (flags.deleteUnfiled && flags.scope !== 'case')
    throw new UsageError(
      '--delete-unfiled: expected --scope case (a whole claim is withdrawn, never deleted), got --scope claim',
    );
  const files = await filesOf(sources, flags, io.env);
  const { resultsFile, journalFile } = files;
  const maxRps = resolveMaxRps(flags.maxRps, io.env);
  const live = !flags.dryRun && !flags.yes && (await liveKeyAhead(flags, context));
  // Without a terminal, a live key needs --yes: refused before any request.
  if (live && io.ask === undefined)
    throw new UsageError(
      'withdraw with a live key: expected --yes (or a terminal to confirm on), got neither; nothing was sent. Try --dry-run first to see what would happen',
    );
  // A full disk, a refused or read-only folder: in words naming the journal or the file.
  return runAgainstService(flags, context, { doing: 'withdrawing from', journalFile, maxRps }, async (job) => {
    const { service } = job;
    const confirm = live ? async (preview: WithdrawPreview) => confirmOnTerminal(preview, context) : undefined;
    const report = await runWithdraw(withdrawRequestOf(sources, flags, files, { ...job, confirm }));
    logger.info(
      {
        service: describeService(service.identity),
        cases: report.summary.cases,
        outcomes: report.summary.byOutcome,
        throttling: report.throttling,
        results: resultsFile,
      },
      'withdraw finished',
    );
    if (flags.dryRun) io.stderr.write(formatPreview(report.preview));
    if (report.summary.cases === 0)
      io.stderr.write(
        `nothing to take back: the sources name no ` +
          `claim${flags.outcome.length > 0 || flags.claimKey.length > 0 ? ' with the --outcome and --claim-key given' : ''}\n`,
      );
    io.stderr.write(formatWithdrawSummary(report.summary, flags.dryRun));
    writeSummaryTail(io, report, `results: ${resultsFile}\n`);
    context.metrics.record({
      rows: rowsOf(report.summary.byOutcome, (outcome) => withdrawOkOutcomes.includes(outcome)),
      phases: phasesOf(report.phases),
      throttling: report.throttling,
    });
    return jobExitCode(report, report.summary.allOk, io);
  });
}

/** The request, from the flags: every flag of the job's own is read here, and nowhere else on its way to the plan. */
function withdrawRequestOf(
  sources: readonly string[],
  flags: WithdrawFlags,
  files: WithdrawFiles,
  job: JobSetUp & Pick<WithdrawRequest, 'confirm'>,
): WithdrawRequest {
  return {
    ...job,
    ...files,
    sources,
    filter: { outcomes: nonEmpty(flags.outcome), claimKeys: nonEmpty(flags.claimKey), column: flags.column },
    scope: flags.scope,
    deleteUnfiled: flags.deleteUnfiled,
    dryRun: flags.dryRun,
  };
}

/** The results file and the journal: given, or named after the first source; their folders made. */
async function filesOf(
  sources: readonly string[],
  flags: WithdrawFlags,
  env: NodeJS.ProcessEnv,
): Promise<WithdrawFiles> {
  const first = resolve(sources[0] ?? '');
  // `night.journal.sqlite`, `night.results.csv` → `night.withdraw…`: the job's name, never taken for an import's file.
  const job = jobStem(first);
  const stem = `${job}.withdraw${flags.dryRun ? '.dry-run' : sandboxNamePart(flags, env)}`;
  const resultsFile = resolve(
    resultsFileName(flags.results, flags.resultsFormat, `${stem}.results`, extname(first) === '.xlsx' ? 'xlsx' : 'csv'),
  );
  // Beside the source, named so that it is never taken for an import's journal.
  const journalFile =
    flags.journal === undefined
      ? flags.dryRun
        ? ':memory:'
        : resolve(dirname(first), `${stem}.journal.sqlite`)
      : resolve(flags.journal);
  if ([...sources.map((source) => resolve(source)), journalFile].includes(resultsFile))
    throw new UsageError(`--results ${resultsFile}: expected a file of its own, got a source or the journal`);
  if (sources.map((source) => resolve(source)).includes(journalFile))
    throw new UsageError(`--journal ${journalFile}: expected a file of its own, got a source`);
  for (const file of [resultsFile, journalFile === ':memory:' ? undefined : journalFile])
    if (file !== undefined) await mkdir(dirname(file), { recursive: true });
  return { resultsFile, journalFile };
}

const nonEmpty = (values: readonly string[]) => (values.length === 0 ? undefined : values);

/** A live key at a real address: the run must be confirmed (a test key or the embedded sandbox need not). */
async function liveKeyAhead(flags: WithdrawFlags, context: CliContext): Promise<boolean> {
  const key = await resolveApiKey(flags, context.io.env);
  return !usesEmbeddedSandbox(flags, context.io.env) && key !== undefined && keyEnvironmentOf(key) === 'live';
}

async function confirmOnTerminal(preview: WithdrawPreview, context: CliContext): Promise<boolean> {
  const ask = context.io.ask;
  if (ask === undefined) return false;
  context.progress.done();
  context.io.stderr.write(formatPreview(preview));
  const answer = await ask('withdraw these claims at the live service? type yes to go on: ');
  return (answer ?? '').trim().toLowerCase() === 'yes';
}
