import { fieldColumns } from '../mapping/columns-read.js';
import { hintFor } from '../job-files/hints.js';
import { checkRowWithEvidence, type RowCheck } from './check-row.js';
import { claimConflicts } from './claim-conflicts.js';
import { keyStillTaken } from './claim-key-taken.js';
import type { EvidenceFolder } from '../evidence/folder.js';
import type { ImportReviewJob, ReviewJob, ReviewRow, RowEntry } from './job-types.js';

export const pageSize = 50;

/** What the page asks for: the rows to fix (the default) or every row, narrowed. */
export interface RowQuery {
  readonly scope?: string | undefined;
  readonly outcome?: string | undefined;
  readonly code?: string | undefined;
  readonly claim?: string | undefined;
  readonly mixed?: string | undefined;
  readonly edited?: string | undefined;
  readonly q?: string | undefined;
  readonly page?: string | undefined;
}

type Cells = Readonly<Record<string, string>>;

/**
 * The rows as the page shows them: a row to fix with its cells (edited or not), the cells behind
 * its error, the fix hint and, once it or a row of its claim was edited, the import's verdict on
 * it; any other row read-only. Edits are the review store's.
 */
export class RowViews {
  private readonly byLine: Map<number, ReviewRow>;
  private readonly byClaim = new Map<string, ReviewRow[]>();
  private readonly columnsOf: Readonly<Record<string, readonly string[]>>;

  constructor(
    private readonly job: ReviewJob,
    private readonly edits: Map<number, Cells>,
    private readonly evidence: EvidenceFolder,
  ) {
    this.byLine = new Map(job.rows.map((row) => [row.line, row]));
    for (const row of job.rows)
      if (row.claimKey !== '') this.byClaim.set(row.claimKey, [...(this.byClaim.get(row.claimKey) ?? []), row]);
    this.columnsOf = job.kind === 'import' ? fieldColumns(job.mapping) : {};
  }

  /** A row the reviewer may edit: a row to fix of an import. */
  editable(line: string): ReviewRow | undefined {
    return this.job.kind === 'import' ? this.byLine.get(Number(line)) : undefined;
  }

  cellsOf(row: RowEntry): Cells {
    return this.edits.get(row.line) ?? this.job.cellsOf(row);
  }

  /** The other rows to fix of its claim. */
  siblingsOf(row: RowEntry): ReviewRow[] {
    return row.claimKey === '' ? [] : (this.byClaim.get(row.claimKey) ?? []).filter((other) => other.line !== row.line);
  }

  /** The import's checks, the row's agreement with the other rows of its claim, and a key the service refused still in use. */
  async check(job: ImportReviewJob, row: RowEntry, cells: Cells): Promise<RowCheck> {
    const checked = await checkRowWithEvidence(cells, job.mapping, job.columns, this.evidence);
    const conflicts = claimConflicts(
      { line: row.line, cells },
      this.siblingsOf(row).map((other) => ({ line: other.line, cells: this.cellsOf(other) })),
      job.mapping,
    );
    const more = [...conflicts, ...keyStillTaken(row, cells, job.mapping)];
    return more.length === 0 ? checked : { ...checked, ok: false, problems: [...checked.problems, ...more] };
  }

  async view(row: RowEntry): Promise<Record<string, unknown>> {
    const cells = this.cellsOf(row);
    const job = this.job;
    const editable = job.kind === 'import' && row.toFix;
    const touched = this.edits.has(row.line) || this.siblingsOf(row).some((other) => this.edits.has(other.line));
    return {
      line: row.line,
      claimKey: row.claimKey,
      claimId: row.claimId,
      caseId: row.caseId,
      outcome: row.outcome,
      errorCode: row.errorCode,
      errorMessage: row.errorMessage,
      errorField: row.errorField,
      errorColumns:
        this.columnsOf[row.errorField] ??
        (row.errorField.startsWith('evidence.') ? [row.errorField.slice('evidence.'.length)] : []),
      hint: row.errorCode === '' ? '' : (job.hints?.[row.errorCode] ?? hintFor(row.errorCode)),
      cells,
      editable,
      edited: this.edits.has(row.line),
      mixed: this.job.mixedClaims.has(row.claimKey),
      check: editable && touched ? await this.check(job, row, cells) : undefined,
    };
  }

  /** One page of the rows the query selects, in input order. */
  async list(
    query: RowQuery,
  ): Promise<{ total: number; page: number; pageSize: number; rows: Record<string, unknown>[] }> {
    const all = query.scope === 'all';
    const text = (query.q ?? '').trim().toLowerCase();
    const inCells = text === '' ? undefined : this.job.matching(text);
    const pool: readonly RowEntry[] = all ? this.job.entries : this.job.rows;
    const matching = pool.filter(
      (row) =>
        (query.outcome === undefined || query.outcome === '' || row.outcome === query.outcome) &&
        (query.code === undefined || query.code === '' || row.errorCode === query.code) &&
        (query.claim === undefined || query.claim === '' || row.claimKey === query.claim) &&
        (query.mixed !== '1' || this.job.mixedClaims.has(row.claimKey)) &&
        (query.edited !== '1' || this.edits.has(row.line)) &&
        (inCells === undefined || this.matches(row, text, inCells)),
    );
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    return {
      total: matching.length,
      page,
      pageSize,
      rows: await Promise.all(
        matching.slice((page - 1) * pageSize, page * pageSize).map(async (row) => this.view(row)),
      ),
    };
  }

  private matches(row: RowEntry, text: string, inCells: (row: RowEntry) => boolean): boolean {
    const edited = this.edits.get(row.line);
    if (edited !== undefined ? Object.values(edited).some((cell) => cell.toLowerCase().includes(text)) : inCells(row))
      return true;
    return [String(row.line), row.claimKey, row.claimId, row.caseId, row.errorMessage].some((value) =>
      value.toLowerCase().includes(text),
    );
  }
}
