import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { writeNotice } from '../output.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { defaultConcurrency, integer } from '../flags.js';
import { resolveNetwork, type NetworkFlags } from '../network-settings.js';
import type { NetworkOptions } from '../../api/client/config.js';
import { addServiceOptions } from './service-target.js';
import { resolveServiceSettings } from '../settings.js';
import { describeService, serviceAt } from '../../api/service-identity.js';
import type { ImportReviewJob, ReviewJob } from '../../review/job-types.js';
import type { FixSender } from '../../review/send-fixes.js';
import { resolveEvidence } from '../../import/evidence-sources.js';
import type { EvidenceFolder } from '../../import/claim/evidence.js';
import { runImport } from '../../import/run-import.js';
import { isObjectAddress } from '../../storage/object-address.js';
import { StoreOnDemand } from '../../storage/store-on-demand.js';

interface ReviewFlags extends NetworkFlags {
  send: boolean;
  baseUrl?: string;
  apiKeyFile?: string;
  mapping?: string;
  host: string;
  port: number;
  open: boolean;
  fixFormat?: 'csv' | 'xlsx';
  evidenceDir?: string;
}

const helpText = `
Examples:
  $ bulk-disputes review out/disputes.journal.sqlite --mapping mappings/generic.yaml --open
  review: http://127.0.0.1:4020/?token=…  (stop with Ctrl-C)
  $ bulk-disputes review out/part-*.journal.sqlite --mapping mappings/generic.yaml   # an import's shards
  $ bulk-disputes review migrate-v1.journal.sqlite                                   # a migration
  $ bulk-disputes review out/night.withdraw.journal.sqlite                           # a withdraw job
  $ bulk-disputes review out/disputes.track.journal.sqlite                           # a track: the worklist first

The overview shows the report's figures (outcomes, the most frequent errors with their fix hints,
claims with mixed outcomes); each links to the rows behind it. The rows to fix (invalid, failed,
not_filed, rejected) are listed by error code with their cells; the cell behind the error is
marked with the message and the fix hint; a not_filed row shows what the service said and takes
an evidence file. Editing a cell re-checks the row with the import's own code (mapping,
spreadsheet damage, the service's schema, evidence) and keeps the edit in
<journal>.review.sqlite (nothing is lost when the page or the server is closed). "Save fix file"
writes the edited rows, with the other rows of their claims, as a results file beside the journal
(0600) and shows the feed-back command. A migration's or a withdraw job's cases are shown, not
edited: the page gives the command that retries them. A track journal shows the cases' states as
its last run read them, the worklist first (soonest due first, with why and by when), the summary
beside it, and the command that reads them again. The page needs the token in the printed
address; it listens on 127.0.0.1 unless --host says otherwise.
`;

/** `bulk-disputes review`: the rows of a job to fix, in a local web page. */
export function reviewCommand(context: CliContext): Command {
  return addServiceOptions(
    new Command('review')
      .description(
        "review a job's results in a local web page: the overview, and the rows to fix, checked as you type, saved to feed back",
      )
      .argument(
        '<journals...>',
        "the job's journal (--journal of the import), its shards' journals, a migrate-v1 journal, a withdraw journal, or a track journal",
      )
      .option(
        '--mapping <file>',
        'for an import: the mapping it ran with (default: the file its journal recorded, while its sha256 is unchanged)',
      )
      .option(
        '--host <host>',
        'address to listen on; anything but 127.0.0.1 shows cardholder data to the network',
        '127.0.0.1',
      )
      .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65_535), 0)
      .option(
        '--open',
        'open the page in the default browser (BULK_DISPUTES_OPENER: another program to open it with)',
        false,
      )
      .option(
        '--evidence-dir <dir>',
        "where the rows' evidence paths point, as for the import (default: the folder the job's last run " +
          "used, else the journal's); a path outside it is refused",
      )
      .option(
        '--send',
        'also send the fixes from the page: the feed-back import runs in the server, against the service of ' +
          'the job (--base-url or CLAIMS_BASE_URL, and the key, as for import)',
        false,
      )
      .addOption(
        new Option(
          '--fix-format <format>',
          "the fix file: csv in the input's dialect, or an xlsx workbook (default: as the input was)",
        ).choices(['csv', 'xlsx']),
      ),
    {
      baseUrl: 'with --send: the service (default: CLAIMS_BASE_URL); it must be the one the job ran against',
      apiKeyFile: 'with --send: read the API key from this file (default: CLAIMS_API_KEY)',
      sandbox: false,
    },
  )
    .addHelpText('after', helpText)
    .action(async (journals: string[], flags: ReviewFlags) => {
      await runReview(
        journals.map((journal) => resolve(journal)),
        flags,
        context,
      );
      context.setExitCode(ExitCode.ok);
    });
}

/**
 * `--send`: the service as import resolves it (flags, environment, network), refused unless it is
 * the service the job's journal belongs to: fixes go where the job went.
 */
async function senderFor(
  job: ImportReviewJob,
  flags: ReviewFlags,
  evidenceDir: string,
  context: CliContext,
): Promise<FixSender> {
  const settings = await resolveServiceSettings(flags, context.io.env).catch((error: unknown) => {
    throw new UsageError(`--send: ${(error as Error).message}`, { cause: error });
  });
  const identity = serviceAt(settings.baseUrl, settings.apiKey);
  if (describeService(identity) !== job.service)
    throw new UsageError(
      `--send: expected the service the job ran against (${job.service}), got ${describeService(identity)}`,
    );
  const { FixSender } = await import('../../review/send-fixes.js');
  return new FixSender(
    job,
    { ...settings, identity },
    {
      evidenceDir,
      logger: context.logger,
      format: flags.fixFormat ?? job.inputKind,
      // The fix file through the import's own plan, at its default pace.
      feedBack: async (fix) => runImport({ ...fix, concurrency: defaultConcurrency }),
    },
  );
}

const readOnlyJobNames = { 'migrate-v1': 'migration', withdraw: 'withdraw job', track: 'track' } as const;

async function runReview(journals: string[], flags: ReviewFlags, context: CliContext): Promise<void> {
  await requireJournals(journals);
  const [first = ''] = journals;
  // Loaded when it runs, not by every command of the CLI.
  const [
    { openReviewJob },
    { ReviewJobError },
    { ReviewStore },
    { startReviewServer },
    { NotResultsError },
    { openThroughRedirectFile },
  ] = await Promise.all([
    import('../../review/job.js'),
    import('../../review/job-types.js'),
    import('../../review/store.js'),
    import('../../review/server.js'),
    import('../../files/not-results-error.js'),
    import('../../review/redirect-file.js'),
  ]);
  const job: ReviewJob = await openReviewJob(journals, flags.mapping).catch((error: unknown) => {
    if (error instanceof ReviewJobError || error instanceof NotResultsError)
      throw new UsageError(`journal ${journals.length === 1 ? first : journals.join(', ')}: ${error.message}`, {
        cause: error,
      });
    throw error;
  });
  let objects: StoreOnDemand | undefined;
  try {
    const network = await resolveNetwork(flags, context.io.env);
    // Made when an s3:// evidence prefix or a listed bucket is first read, from the environment as the import reads it.
    objects = new StoreOnDemand(undefined, { proxy: network.proxy, env: network.env, ca: network.ca }, context.io.env);
    if (job.kind !== 'import' && (flags.send || flags.mapping !== undefined))
      throw new UsageError(
        `journal ${first}: a ${readOnlyJobNames[job.kind]}'s cases are read from the service, not a file: ` +
          `expected no ${flags.send ? '--send' : '--mapping'} (the page gives the command that ` +
          `${job.kind === 'track' ? 'reads them again' : 'retries them'})`,
      );
    if (!['127.0.0.1', 'localhost', '::1'].includes(flags.host))
      context.logger.warn(
        { host: flags.host },
        'review listens beyond this machine: anyone who can reach it and has the address sees cardholder data',
      );
    const given = flags.evidenceDir ?? (job.kind === 'import' ? job.evidenceDir : undefined) ?? dirname(job.journal);
    // An s3:// prefix is a place in the store, not a path of this machine: kept as given.
    const evidenceDir = isObjectAddress(given) ? given : resolve(given);
    const evidence =
      job.kind === 'import' ? await importEvidence(job, evidenceDir, flags, { objects, network }, context) : undefined;
    const sender = flags.send && job.kind === 'import' ? await senderFor(job, flags, evidenceDir, context) : undefined;
    const store = new ReviewStore(ReviewStore.fileFor(job.journal), job.kind === 'import' ? job.mapping : {});
    const server = await startReviewServer({
      job,
      store,
      host: flags.host,
      port: flags.port,
      fixFormat: flags.fixFormat,
      evidenceDir: evidence?.evidenceDir ?? evidenceDir,
      evidence,
      sender,
    }).catch((error: unknown) => {
      store.close();
      throw error;
    });
    const counted =
      job.kind === 'track'
        ? `${job.rows.length} on the worklist of ${job.entries.length} rows`
        : `${job.rows.length} rows to fix of ${job.entries.length}`;
    writeNotice(context.io.stdout, `review: ${server.url}  (${counted}; stop with Ctrl-C)\n`);
    // The address carries the token: logged without it.
    context.logger.info(
      {
        origin: server.origin,
        toFix: job.rows.length,
        journals: job.journals.length,
        mapping: job.kind === 'import' ? job.mappingFile : undefined,
      },
      'review started',
    );
    // The opener gets a redirect file's path, never the address: its arguments are anyone's to read.
    const opened = flags.open
      ? await openThroughRedirectFile(server.url, { opener: context.io.env.BULK_DISPUTES_OPENER || undefined })
      : undefined;
    await new Promise<void>((stopped) => {
      context.io.onStop?.(() => {
        void Promise.all([server.close(), opened?.remove()]).finally(() => {
          store.close();
          stopped();
        });
      });
    });
  } finally {
    objects?.close();
    await job.close();
  }
}

/**
 * The rows' evidence as the import's plan resolves it (src/import/evidence-sources.ts): a folder,
 * or an s3:// prefix and the mapping's evidence_sources read through the same remote checker,
 * links reached the way the service is (--proxy, --ca-file). With a bucket to read, the store is
 * asked once now whether it takes the credentials, as the import does: refused, the review does
 * not start (exit 5).
 */
async function importEvidence(
  job: ImportReviewJob,
  evidenceDir: string,
  flags: ReviewFlags,
  reach: { objects: StoreOnDemand; network: NetworkOptions },
  context: CliContext,
): Promise<EvidenceFolder> {
  return resolveEvidence(
    {
      evidenceDir,
      evidenceDirSetBy: flags.evidenceDir === undefined ? undefined : 'flag',
      evidenceNetwork: reach.network,
      logger: context.logger,
    },
    job.mapping,
    reach.objects,
  );
}

async function requireJournals(journals: readonly string[]): Promise<void> {
  for (const journal of journals) {
    const found = await stat(journal).catch(() => undefined);
    if (found?.isFile() !== true)
      throw new UsageError(
        `journal ${journal}: expected a job's journal file, got ${found === undefined ? 'nothing there' : 'something else'}`,
      );
  }
}
