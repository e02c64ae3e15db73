import type { ClaimStep, ResultRecord } from './records.js';
import type { Outcome } from './columns.js';

export interface RowResult {
  outcome: Outcome;
  errorCode: string;
  errorMessage: string;
  errorField: string;
  httpStatus: number | null;
}

/**
 * One results line: its row's result and cells (status, then source), as the CSV and the workbook
 * writers pull them (write-results.ts counts each into the summary). Here, beside `RowResult`, so
 * that neither writer imports the other.
 */
export interface ResultLine {
  readonly result: RowResult;
  readonly cells: string[];
}

/**
 * What happened to one input row, from the journal: its own outcome when it has one (invalid when
 * staged, filed or not when filed), else its claim's step. A claim the run did not finish is
 * `failed` (or `created`, when only its filing is missing), with what stopped it.
 */
export function rowResult(record: ResultRecord): RowResult {
  const own = {
    errorCode: record.error_code ?? '',
    errorMessage: record.error_message ?? '',
    errorField: record.error_field ?? '',
    httpStatus: record.http_status,
  };
  const claims = {
    errorCode: record.claim_error_code ?? '',
    errorMessage: record.claim_error_message ?? '',
    errorField: record.claim_error_field ?? '',
    httpStatus: record.claim_http_status,
  };
  if (record.outcome !== null) return { outcome: record.outcome as Outcome, ...own };
  switch (record.step) {
    case 'valid':
      return { outcome: 'valid', ...own };
    case 'invalid':
    case 'rejected':
      return { outcome: record.step, ...claims };
    case 'created':
    case 'filing':
      return {
        outcome: 'created',
        ...unfinished(claims, 'the claim was created; its filing did not finish: run the same command again'),
      };
    case 'submitting':
      return {
        outcome: 'failed',
        ...unfinished(
          claims,
          'the run stopped while this claim was being sent: the next run looks it up before sending again',
        ),
      };
    default:
      return {
        outcome: 'failed',
        ...unfinished(claims, 'the run stopped before this claim was sent: run the same command again'),
      };
  }
}

function unfinished(claims: Omit<RowResult, 'outcome'>, fallback: string): Omit<RowResult, 'outcome'> {
  return claims.errorCode === '' ? { ...claims, errorCode: 'not_finished', errorMessage: fallback } : claims;
}

/** A row's outcome from its own and its claim's step alone, as `rowResult` says it (the progress line's counts). */
export function outcomeOf(rowOutcome: string | null, step: ClaimStep | null): Outcome {
  const none = {
    error_code: null,
    error_message: null,
    error_field: null,
    http_status: null,
    claim_error_code: null,
    claim_error_message: null,
    claim_error_field: null,
    claim_http_status: null,
  };
  return rowResult({ ...none, outcome: rowOutcome, step } as ResultRecord).outcome;
}
