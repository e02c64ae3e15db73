import { rm } from 'node:fs/promises';
import { expectWithdrawJournal, withdrawMetaOf, type WithdrawMeta } from '../job-files/withdraw/meta.js';
import { snapshotOf } from '../journal/snapshot.js';
import { serviceOf } from '../job-files/read/read-journal.js';
import { withdrawLine } from '../job-files/read/read-results.js';
import { Summariser } from '../job-files/summarise.js';
import {
  linesWithUnsettled,
  WithdrawJournal,
  withdrawJournalFormat,
  type WithdrawLine,
} from '../job-files/withdraw/journal.js';
import { readOnlyLines, type RowEntry, type WithdrawReviewJob } from './job-types.js';
import { shellWord } from './shell-word.js';

/** What a case's row shows beside its outcome and error: what it was, what it became, what the service answered. */
const caseColumns = [
  'claim_key',
  'claim_id',
  'case_id',
  'status_before',
  'status_after',
  'http_status',
  'attempts',
] as const;

/** Lines a person looks at: the service refused them, or the run could not settle them (a re-run does). */
const withdrawOutcomesToFix: readonly string[] = ['failed', 'refused'];

/**
 * A withdraw journal under review: one row per case, as withdraw's own results write them
 * (`linesWithUnsettled`: a claim a stopped run did not settle is `failed`/`not_finished`), counted
 * as `report` counts them (`withdrawLine`). Read from a private copy, then closed: a running
 * withdraw holds its journal exclusively, and a withdraw's cases are thousands, so all are kept.
 */
export async function openWithdrawJob(file: string): Promise<WithdrawReviewJob> {
  const { database, folder } = await snapshotOf(file);
  let journal: WithdrawJournal | undefined;
  try {
    const meta = withdrawMetaOf(database, file);
    expectWithdrawJournal(meta, withdrawJournalFormat);
    const service = serviceOf(meta.get('service'), meta.get('fingerprint')?.dryRun === true);
    const retry = retryOf(file, meta);
    const copy = database.name;
    database.close();
    // The copy is the process's own: the journal's code reads it, so the page and the results cannot disagree.
    journal = new WithdrawJournal(copy);
    const { entries, cells, summariser } = readLines(linesWithUnsettled(journal));
    return {
      kind: 'withdraw',
      journals: [file],
      journal: file,
      service,
      columns: caseColumns,
      ...readOnlyLines(entries, cells, summariser),
      fixOutcomes: withdrawOutcomesToFix,
      retryCommand: retry.command,
      retryNote: retry.note,
      close: async () => undefined,
    };
  } finally {
    journal?.close();
    if (database.open) database.close();
    await rm(folder, { recursive: true, force: true });
  }
}

function readLines(lines: Iterable<WithdrawLine>): {
  entries: RowEntry[];
  cells: Map<number, Record<string, string>>;
  summariser: Summariser;
} {
  const summariser = new Summariser();
  const entries: RowEntry[] = [];
  const cells = new Map<number, Record<string, string>>();
  let position = 0;
  for (const line of lines) {
    const counted = withdrawLine(++position, line);
    summariser.add(counted);
    // The claim key a row is grouped under is the report's: the key, or the claim id when the source did not know the key.
    entries.push({
      line: position,
      shard: 0,
      idx: position,
      outcome: line.outcome,
      errorCode: line.errorCode,
      errorMessage: line.errorMessage,
      errorField: '',
      claimKey: counted.claimKey,
      claimId: line.claimId,
      caseId: line.caseId,
      toFix: withdrawOutcomesToFix.includes(line.outcome),
    });
    cells.set(position, {
      claim_key: line.claimKey,
      claim_id: line.claimId,
      case_id: line.caseId,
      status_before: line.statusBefore,
      status_after: line.statusAfter,
      http_status: line.httpStatus,
      attempts: String(line.attempts),
    });
  }
  return { entries, cells, summariser };
}

/**
 * The same withdraw, run again on this journal: it continues, settles the failed cases (each
 * claim retrieved first, so nothing is sent twice) and sends nothing for the rest. Its sources
 * are the paths the run recorded; a journal made before they were recorded (only their sha256 is
 * in the fingerprint) says so instead of guessing. The service is the journal's own: its address
 * or the embedded sandbox's file, never a key.
 */
function retryOf(file: string, meta: WithdrawMeta): { command: string; note: string } {
  const fingerprint = meta.get('fingerprint') ?? {};
  const sources = meta.get('sources') ?? null;
  const service = meta.get('service');
  const parts = [
    'bulk-disputes',
    'withdraw',
    ...(sources === null ? ['<the same sources>'] : sources.map(shellWord)),
    '--journal',
    shellWord(file),
  ];
  if (fingerprint.scope === 'case') parts.push('--scope', 'case');
  if (fingerprint.deleteUnfiled === true) parts.push('--delete-unfiled');
  for (const outcome of fingerprint.outcomes ?? []) parts.push('--outcome', shellWord(outcome));
  for (const claimKey of fingerprint.claimKeys ?? []) parts.push('--claim-key', shellWord(claimKey));
  if (typeof fingerprint.column === 'string') parts.push('--column', shellWord(fingerprint.column));
  if (service?.kind === 'url') parts.push('--base-url', shellWord(service.baseUrl));
  if (service?.kind === 'embedded-sandbox') parts.push('--sandbox-db', shellWord(service.db));
  if (fingerprint.dryRun === true) parts.push('--dry-run');
  const note = [
    "A withdraw job's cases are what the service said of them: nothing to edit here.",
    'Run it again to settle the failed cases (each claim is retrieved before anything is sent: nothing is ' +
      'sent twice); a refused case stays as the service has it.',
    ...(sources === null ? ['This journal does not record its sources: give the ones it ran with.'] : []),
  ].join('\n');
  return { command: parts.join(' '), note };
}
