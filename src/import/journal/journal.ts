import { JobJournal } from '../../journal/job-journal.js';
import { GroupCommit } from './group-commit.js';
import { openJournalDatabase } from '../../job-files/import/schema.js';
import type {
  ClaimRecord,
  ClaimStep,
  ResultRecord,
  RowProblem,
  RowRecord,
  SentBefore,
  StepChange,
} from '../../job-files/import/records.js';
import { readResultRecords } from '../../job-files/import/result-records.js';
import { prepareStatements } from './statements.js';
import { prepareSendingStatements, type CaseToFile, type SendingStatements } from './sending-statements.js';
import { outcomeOf } from '../../job-files/import/row-outcome.js';
import type { Outcome } from '../../job-files/import/columns.js';
import { StagingWrites } from './staging-writes.js';

// The records are the journal's vocabulary: its users import them from here, beside the class.
import { importMetaFields, journalFormat, type ImportMetaFields } from '../../job-files/import/meta.js';
export * from '../../job-files/import/records.js';
export { readResultRecordAt, readResultRecords } from '../../job-files/import/result-records.js';

/** A typed face on the journal's tables; every method is one statement or one transaction. */
export class Journal extends JobJournal<ImportMetaFields> {
  private readonly statements: ReturnType<typeof prepareStatements>;
  /** What the sending phase runs for every claim (sending-statements.ts). */
  private readonly sending: SendingStatements;
  /** One better-sqlite3 transaction function for every call: making one costs more than running it. */
  private readonly runInTransaction: (work: () => unknown) => unknown;
  /** The sending phase's commits, shared by the claims of one turn of the event loop. */
  private readonly group: GroupCommit;
  /** What staging writes: claims and rows as they are read (staging-writes.ts). */
  readonly staging: StagingWrites;

  constructor(file: string) {
    super(openJournalDatabase(file), importMetaFields, file);
    this.statements = prepareStatements(this.database);
    this.sending = prepareSendingStatements(this.database);
    this.staging = new StagingWrites(this.statements);
    this.runInTransaction = this.database.transaction((work: () => unknown) => work());
    this.group = new GroupCommit(this.database, this.runInTransaction, this.sending);
  }

  /** Commits what the sending phase wrote this turn; call before the results are read. */
  flush(): void {
    this.group.flush();
  }

  /**
   * Forgets the job: a journal restarted for a new input, mapping or flags. The uploads and the
   * claim ids ever sent are kept (the same service still has them) unless `forgetService`: a
   * restart onto another service, where the old file ids and claims do not exist. The service the
   * journal belongs to is kept either way (service-binding.ts records it).
   */
  reset(options: { forgetService?: boolean } = {}): void {
    this.transaction(() => {
      this.empty(
        ['rows', 'claims', 'other_shard_rows', ...(options.forgetService === true ? ['uploads', 'sent_claims'] : [])],
        {
          meta: true,
        },
      );
      this.meta.set('format', journalFormat);
    });
  }

  /** Whether anything here came from its service: a create sent, an upload, a claim past staging. */
  holdsServiceData(): boolean {
    return this.statements.holdsServiceData.get() !== undefined;
  }

  transaction<T>(work: () => T): T {
    return this.runInTransaction(work) as T;
  }

  claim(claimKey: string): ClaimRecord | undefined {
    return this.statements.getClaim.get(claimKey) as ClaimRecord | undefined;
  }

  claimById(claimId: string): ClaimRecord | undefined {
    return this.statements.getClaimById.get(claimId) as ClaimRecord | undefined;
  }

  /** Whether any run of this journal sent a create (kept through --restart). */
  anySent(): boolean {
    return this.statements.anySent.get() !== undefined;
  }

  /** Claims not yet final, in input order of their first row, one page after `afterIdx`. */
  pendingClaims(afterIdx: number, limit: number): ClaimRecord[] {
    return this.sending.pendingClaims(afterIdx, limit);
  }

  rowsOf(claimKey: string): RowRecord[] {
    return this.sending.rowsOf(claimKey);
  }

  /** The rows of a page of `pendingClaims`, by claim key: those whose first row is in (afterIdx, throughIdx]. */
  rowsOfPendingClaims(afterIdx: number, throughIdx: number): Map<string, RowRecord[]> {
    return this.sending.rowsOfPendingClaims(afterIdx, throughIdx);
  }

  /** The claim's rows whose case is still to file (no outcome yet, a case id). */
  casesToFile(claimKey: string): CaseToFile[] {
    return this.sending.casesToFile(claimKey);
  }

  setStep(claimKey: string, step: ClaimStep, outcome: { httpStatus?: number | undefined } = {}): void {
    this.statements.setStep.run(step, outcome.httpStatus ?? null, claimKey);
  }

  /** A create was sent for this claim id by some run of this journal, before a --restart too. */
  wasSent(claimId: string): boolean {
    return this.statements.wasSent.get(claimId) !== undefined;
  }

  addAttempts(claimKey: string, attempts: number): void {
    this.statements.addAttempts.run(attempts, claimKey);
  }

  /** A claim-level problem; `step` stays where it was unless given (a failure is retried next run). */
  setClaimProblem(claimKey: string, problem: RowProblem | undefined, step?: ClaimStep): void {
    this.transaction(() => {
      this.writeClaimProblem(claimKey, problem, step);
    });
  }

  private writeClaimProblem(claimKey: string, problem: RowProblem | undefined, step?: ClaimStep): void {
    this.statements.setClaimProblem.run({
      key: claimKey,
      code: problem?.code ?? null,
      message: problem?.message ?? null,
      field: problem?.field ?? null,
      status: problem?.httpStatus ?? null,
    });
    if (step !== undefined) this.statements.setStepOnly.run(step, claimKey);
  }

  setRowOutcome(idx: number, outcome: string, problem: Partial<RowProblem> = {}): void {
    this.sending.setRowOutcome(
      idx,
      outcome,
      problem.code ?? null,
      problem.message ?? null,
      problem.field ?? null,
      problem.httpStatus ?? null,
    );
  }

  setRowFileIds(idx: number, fileIds: string): void {
    this.statements.setRowFileIds.run(fileIds, idx);
  }

  /** What a fed-back row's update changed in its case: mapping fields, `;`-separated. */
  setRowChangedFields(idx: number, fields: string): void {
    this.statements.setRowChangedFields.run(fields, idx);
  }

  uploadedFileId(sha256: string, category: string): string | undefined {
    return (this.statements.getUpload.get(sha256, category) as { file_id: string } | undefined)?.file_id;
  }

  recordUpload(sha256: string, category: string, fileId: string): void {
    this.statements.putUpload.run(sha256, category, fileId);
  }

  /** Every row with its claim, in input order, read lazily (nothing may write meanwhile). */
  results(): IterableIterator<ResultRecord> {
    return readResultRecords(this.database);
  }

  pendingCount(): number {
    return (this.statements.pendingCount.get() as { pending: number }).pending;
  }

  /** The outcome of each row of a claim, as the results will say it (the progress line's counts). */
  outcomesOf(claimKey: string): Outcome[] {
    return (this.statements.outcomesOf.all(claimKey) as { outcome: string | null; step: ClaimStep }[]).map((row) =>
      outcomeOf(row.outcome, row.step),
    );
  }

  /** Rows already final before sending starts, by outcome: refused at staging, or finished by an earlier run. */
  finalOutcomeCounts(): Map<Outcome, number> {
    const counts = new Map<Outcome, number>();
    for (const row of this.statements.finalOutcomes.all() as {
      outcome: string | null;
      step: ClaimStep | null;
      count: number;
    }[]) {
      const outcome = outcomeOf(row.outcome, row.step);
      counts.set(outcome, (counts.get(outcome) ?? 0) + row.count);
    }
    return counts;
  }

  counts(): { rows: number; claims: number } {
    return this.statements.counts.get() as { rows: number; claims: number };
  }

  /** Claims by their rows' outcome, for the job's metrics. */
  claimOutcomes(): Record<string, number> {
    const found = this.statements.claimOutcomes.all() as { outcome: string; count: number }[];
    return Object.fromEntries(found.map(({ outcome, count }) => [outcome, count]));
  }

  override close(): void {
    this.group.flush();
    super.close();
  }

  /**
   * Step `submitting` and the claim id among those ever sent, in one transaction: recorded before
   * a create leaves the process, so from now on a retrieve settles what happened.
   */
  async beginCreate(claimKey: string, claimId: string): Promise<void> {
    await this.group.durably(() => {
      this.statements.markSubmitting.run(claimKey);
      this.statements.recordSent.run(claimId);
    });
  }

  /**
   * Whether a claim was ever sent and its id recorded as sent: read before a create, to undo it if
   * it never leaves (a certificate or a proxy set up wrongly).
   */
  sentBefore(claimKey: string, claimId: string): SentBefore {
    return this.sending.sentBefore(claimKey, claimId);
  }

  /** A create that never left (a certificate or a proxy set up wrongly): the claim as it was before `beginCreate`. */
  async createNotSent(claimKey: string, claimId: string, before: SentBefore): Promise<void> {
    await this.group.durably(() => {
      this.statements.unmarkSubmitting.run(before.sent ? 1 : 0, claimKey);
      if (!before.recorded) this.statements.forgetSent.run(claimId);
    });
  }

  /** A fed-back row's changed fields, durable before its case's update leaves. */
  async beginUpdate(idx: number, fields: string): Promise<void> {
    await this.group.durably(() => {
      this.setRowChangedFields(idx, fields);
    });
  }

  /** Step `filing`, durable before the filing request leaves: the next run then settles first. */
  async beginFiling(claimKey: string): Promise<void> {
    await this.group.durably(() => {
      this.setStep(claimKey, 'filing');
    });
  }

  /**
   * A claim's step, the attempts that got it there and the outcomes of the rows it settles, in
   * one transaction: `created` then `done` of a claim that is not filed become one commit. It
   * comes after a remote call, so it joins the turn's group commit (GroupCommit).
   */
  recordStep(claimKey: string, change: StepChange): void {
    this.group.soon(() => {
      for (const row of change.rows ?? []) this.setRowOutcome(row.idx, row.outcome, row.problem);
      this.sending.setStepAddingAttempts(claimKey, change.step, change.httpStatus, change.attempts ?? 0);
    });
  }
}
