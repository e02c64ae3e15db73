/**
 * The journal's records as its tables hold them (schema.ts), and the changes written to them: the
 * types every step of the import passes around.
 */

/** Where a claim has got to (a step is recorded before and after every remote call). */
export type ClaimStep = 'staged' | 'submitting' | 'created' | 'filing' | 'done' | 'invalid' | 'rejected' | 'valid';

/** Steps after which nothing more is done for the claim, in this run or the next. */
export const finalSteps: readonly ClaimStep[] = ['done', 'invalid', 'rejected', 'valid'];

export interface RowProblem {
  code: string;
  message: string;
  field?: string | undefined;
  httpStatus?: number | undefined;
}

export interface ClaimRecord {
  claim_key: string;
  claim_id: string | null;
  first_idx: number;
  first_line: number;
  shared_json: string;
  rows: number;
  step: ClaimStep;
  sent: number;
  attempts: number;
  http_status: number | null;
  error_code: string | null;
  error_message: string | null;
  error_field: string | null;
}

export interface RowRecord {
  idx: number;
  line: number;
  source: string;
  claim_key: string | null;
  ordinal: number | null;
  case_id: string | null;
  case_json: string | null;
  evidence_json: string | null;
  file_ids: string | null;
  /** The mapping fields an update changed in the case the service held, `;`-separated. */
  changed_fields: string | null;
  /**
   * A fed-back row's case id as its results line reported it on the row's own claim id:
   * that line proves the case is this row's, so its differences are fixes, not another dispute.
   */
  reported_case_id: string | null;
  /** What staging changed in what is sent, the row still sent: `card_number_masked: <fields>`. */
  warnings: string | null;
  outcome: string | null;
  error_code: string | null;
  error_message: string | null;
  error_field: string | null;
  http_status: number | null;
}

/** A row with its claim's record, for the results CSV: only the columns the results read. */
export type ResultRecord = Pick<
  RowRecord,
  | 'idx'
  | 'line'
  | 'source'
  | 'claim_key'
  | 'case_id'
  | 'file_ids'
  | 'changed_fields'
  | 'warnings'
  | 'outcome'
  | 'error_code'
  | 'error_message'
  | 'error_field'
  | 'http_status'
> & {
  claim_id: string | null;
  step: ClaimStep | null;
  attempts: number | null;
  claim_http_status: number | null;
  claim_error_code: string | null;
  claim_error_message: string | null;
  claim_error_field: string | null;
};

/** A row as staging writes it: the columns later steps fill are left out. */
export type StagedRowRecord = Omit<
  RowRecord,
  'file_ids' | 'changed_fields' | 'reported_case_id' | 'warnings' | 'http_status'
> & {
  /** A fed-back row's `file_ids`: the files its case has at the service. */
  file_ids?: string | null | undefined;
  reported_case_id?: string | null | undefined;
  warnings?: string | null | undefined;
  /** What tells this row's duplicates (dispute-identity.ts): a digest of its cells, and its transaction. */
  same_row?: string | null | undefined;
  same_transaction?: string | null | undefined;
  /** A fed-back row whose results line reported its claim as created: never another row's duplicate. */
  reported_created?: 0 | 1 | undefined;
};

/** A row of another shard, staged only so that this shard tells a dispute it has already seen. */
export interface OtherShardRecord {
  idx: number;
  line: number;
  same_transaction: string;
  reported_created: 0 | 1;
}

/** What Journal.recordStep writes in one transaction. */
export interface StepChange {
  step: ClaimStep;
  httpStatus?: number | undefined;
  /** Attempts to add to the claim's count. */
  attempts?: number | undefined;
  rows?: readonly { idx: number; outcome: string; problem?: Partial<RowProblem> }[] | undefined;
}

/**
 * Whether a claim was ever sent and its id recorded as sent: read before a create, to undo it if it
 * never leaves (a certificate or a proxy set up wrongly).
 */
export interface SentBefore {
  readonly sent: boolean;
  readonly recorded: boolean;
}
