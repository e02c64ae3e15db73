import { JobJournal, openJobDatabase } from '../../journal/job-journal.js';
import type { WithdrawTarget } from './target.js';
import { withdrawMetaFields } from './meta.js';

/** Bumped when the tables change: an older withdraw journal is refused rather than misread. */
export const withdrawJournalFormat = '1';

/**
 * The withdraw job's journal: the claims the sources named, each request that may have left this
 * process, and one line per case once its claim is settled. Its tables (`withdraw_targets`,
 * `withdraw_lines`) are its own, so it is never mistaken for an import's or a migration's journal.
 * A crash loses nothing: a target not `done` is planned again from a fresh retrieve, and a
 * withdrawal or delete recorded as sent is settled by that retrieve (closed and withdrawn, or
 * gone), never sent a second time. A room of its own, below src/report and src/review: both read a
 * withdraw journal with this code, and withdraw itself reads its sources through the report, so the
 * journal cannot sit in src/withdraw without an import running back up a floor.
 */
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS withdraw_targets (
  seq INTEGER PRIMARY KEY,         -- the sources' order
  claim_id TEXT NOT NULL,          -- '' while only a case id is known (a plain list of case ids)
  claim_key TEXT NOT NULL,
  case_ids TEXT NOT NULL,          -- JSON array: the cases the sources name
  proof TEXT,                      -- JSON: how the claim is proven the job's own (src/withdraw/sources.ts), or null
  step TEXT NOT NULL DEFAULT 'staged',  -- staged | done
  attempts INTEGER NOT NULL DEFAULT 0
);
-- A withdrawal or delete that may have left this process: recorded before it is sent.
CREATE TABLE IF NOT EXISTS withdraw_sent (
  target_id TEXT NOT NULL,         -- the claim id, or the case id for a case's own request
  action TEXT NOT NULL,            -- withdraw_claim | withdraw_case | delete_case
  PRIMARY KEY (target_id, action)
);
-- One line per case of the results, written when its claim is settled.
CREATE TABLE IF NOT EXISTS withdraw_lines (
  seq INTEGER NOT NULL,
  position INTEGER NOT NULL,
  claim_key TEXT NOT NULL,
  claim_id TEXT NOT NULL,
  case_id TEXT NOT NULL,
  status_before TEXT NOT NULL,
  outcome TEXT NOT NULL,
  status_after TEXT NOT NULL,
  error_code TEXT NOT NULL,
  error_message TEXT NOT NULL,
  http_status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  PRIMARY KEY (seq, position)
);
`;

export type SentAction = 'withdraw_claim' | 'withdraw_case' | 'delete_case';

export interface TargetRecord {
  seq: number;
  claim_id: string;
  claim_key: string;
  case_ids: string;
  proof: string | null;
  step: 'staged' | 'done';
  attempts: number;
}

/** One results line: a case, what it was, and what became of it. */
export interface WithdrawLine {
  claimKey: string;
  claimId: string;
  caseId: string;
  statusBefore: string;
  /** withdrawn | deleted | already_closed | not_found | refused | failed; a dry run's would_withdraw | would_delete. */
  outcome: string;
  statusAfter: string;
  errorCode: string;
  errorMessage: string;
  httpStatus: string;
  attempts: number;
}

/** A line's values in the order of the results' columns (withdrawColumns) and of the journal's line columns. */
export function lineValues(
  line: WithdrawLine,
): [string, string, string, string, string, string, string, string, string, number] {
  return [
    line.claimKey,
    line.claimId,
    line.caseId,
    line.statusBefore,
    line.outcome,
    line.statusAfter,
    line.errorCode,
    line.errorMessage,
    line.httpStatus,
    line.attempts,
  ];
}

export class WithdrawJournal extends JobJournal<typeof withdrawMetaFields> {
  private readonly statements;

  constructor(file: string) {
    super(openJobDatabase(file, schema, 'a withdraw journal'), withdrawMetaFields, file);
    const prepare = (sql: string) => this.database.prepare(sql);
    this.statements = {
      insertTarget: prepare(
        'INSERT INTO withdraw_targets (seq, claim_id, claim_key, case_ids, proof) VALUES (?, ?, ?, ?, ?)',
      ),
      pending: prepare("SELECT * FROM withdraw_targets WHERE step <> 'done' ORDER BY seq"),
      count: prepare('SELECT count(*) AS n FROM withdraw_targets'),
      setDone: prepare("UPDATE withdraw_targets SET step = 'done', attempts = attempts + ? WHERE seq = ?"),
      addAttempts: prepare('UPDATE withdraw_targets SET attempts = attempts + ? WHERE seq = ?'),
      markSent: prepare('INSERT OR IGNORE INTO withdraw_sent (target_id, action) VALUES (?, ?)'),
      wasSent: prepare('SELECT 1 FROM withdraw_sent WHERE target_id = ? AND action = ?'),
      anySent: prepare('SELECT 1 FROM withdraw_sent LIMIT 1'),
      deleteLines: prepare('DELETE FROM withdraw_lines WHERE seq = ?'),
      insertLine: prepare('INSERT INTO withdraw_lines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
      allTargets: prepare('SELECT * FROM withdraw_targets ORDER BY seq'),
      linesOf: prepare('SELECT * FROM withdraw_lines WHERE seq = ? ORDER BY position'),
    };
  }

  /** Whether a withdrawal or delete was ever sent: the journal then holds the service's data. */
  anySent(): boolean {
    return this.statements.anySent.get() !== undefined;
  }

  /** A journal of a job: its sources were read into it (bound-journal.ts). */
  holdsJob(): boolean {
    return this.meta.has('fingerprint');
  }

  holdsServiceData(): boolean {
    return this.anySent();
  }

  /** `--restart` onto another service: the job, and what was sent to the other, forgotten. */
  forgetService(): void {
    this.reset({ forgetSent: true });
  }

  targetCount(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  /** Forgets the job (a --restart, or staging again): what was sent is kept, so it is still settled, never sent twice. */
  reset(options: { forgetSent?: boolean } = {}): void {
    this.empty(['withdraw_targets', 'withdraw_lines', ...(options.forgetSent === true ? ['withdraw_sent'] : [])], {
      meta: true,
    });
  }

  stage(targets: readonly WithdrawTarget[]): void {
    this.database.transaction(() => {
      for (const [seq, target] of targets.entries()) {
        this.statements.insertTarget.run(
          seq,
          target.claimId,
          target.claimKey,
          JSON.stringify(target.caseIds),
          target.proof === undefined ? null : JSON.stringify(target.proof),
        );
      }
    })();
  }

  pendingTargets(): TargetRecord[] {
    return this.statements.pending.all() as TargetRecord[];
  }

  /** Durable before the request leaves (WAL, synchronous=NORMAL: a process crash keeps it). */
  markSent(targetId: string, action: SentAction): void {
    this.statements.markSent.run(targetId, action);
  }

  wasSent(targetId: string, action: SentAction): boolean {
    return this.statements.wasSent.get(targetId, action) !== undefined;
  }

  addAttempts(seq: number, attempts: number): void {
    this.statements.addAttempts.run(attempts, seq);
  }

  /** The target's lines and its step, in one transaction; `final` false leaves it to the next run (a failure). */
  settle(seq: number, lines: readonly WithdrawLine[], options: { final: boolean; attempts: number }): void {
    this.database.transaction(() => {
      this.statements.deleteLines.run(seq);
      for (const [position, line] of lines.entries()) {
        this.statements.insertLine.run(seq, position, ...lineValues(line));
      }
      if (options.final) this.statements.setDone.run(options.attempts, seq);
      else this.statements.addAttempts.run(options.attempts, seq);
    })();
  }

  /** Every target (a withdraw job's claims are thousands, not millions: read at once, so lines can be read meanwhile). */
  allTargets(): TargetRecord[] {
    return this.statements.allTargets.all() as TargetRecord[];
  }

  linesOf(seq: number): WithdrawLine[] {
    return (this.statements.linesOf.all(seq) as Record<string, string | number>[]).map((row) => ({
      claimKey: String(row.claim_key),
      claimId: String(row.claim_id),
      caseId: String(row.case_id),
      statusBefore: String(row.status_before),
      outcome: String(row.outcome),
      statusAfter: String(row.status_after),
      errorCode: String(row.error_code),
      errorMessage: String(row.error_message),
      httpStatus: String(row.http_status),
      attempts: Number(row.attempts),
    }));
  }
}

/** Every case's line in the sources' order: as settled, or `failed` for a claim this run did not settle (stopped early, declined). */
export function* linesWithUnsettled(journal: WithdrawJournal): Generator<WithdrawLine> {
  for (const record of journal.allTargets()) {
    const lines = journal.linesOf(record.seq);
    if (lines.length > 0) {
      yield* lines;
      continue;
    }
    if (record.step === 'done') continue;
    const cases = JSON.parse(record.case_ids) as string[];
    for (const caseId of cases.length > 0 ? cases : ['']) {
      yield {
        claimKey: record.claim_key,
        claimId: record.claim_id,
        caseId,
        statusBefore: '',
        outcome: 'failed',
        statusAfter: '',
        errorCode: 'not_finished',
        errorMessage: 'the run stopped before this claim was settled; run the same command again',
        httpStatus: '',
        attempts: record.attempts,
      };
    }
  }
}
