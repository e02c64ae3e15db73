import { dayMs, filingWindowDays } from './filing-window.js';

/**
 * Whether a case may be filed: the problems that would stop it, as the review's `filing_errors`
 * (docs/sandbox.md, "Filing validation"). Pure: the case (v2 view), the categories of its attached
 * files, and the time. The sandbox files by it and the import's dry run predicts by it
 * (docs/import.md, "A dry run"), so the two cannot drift; the service's own `filing_errors` stay the truth.
 */

export interface FilingError {
  code: 'parameter_missing' | 'documentation_missing' | 'filing_window_expired' | 'filing_window_not_open';
  message: string;
  details: { field?: string; file_category?: string };
}

type Loose = Record<string, unknown>;

/** Reasons with a 120-day window from the transaction date, a rule of the service's. */
const windowDaysByReason: Record<string, number> = { fraud: filingWindowDays, product_not_received: filingWindowDays };
/** Reasons whose filing needs a receipt of the disputed transaction (sandbox choice, docs/sandbox.md, "Filing validation"). */
const receiptReasons = new Set([
  'product_not_as_described',
  'credit_not_processed',
  'duplicate_charge',
  'incorrect_amount',
  'canceled_or_returned',
  'subscription_canceled',
]);

export function filingErrors(
  view: object,
  categoryOf: (fileId: string) => string | undefined,
  nowMs: number,
): FilingError[] {
  const caseView = view as Loose;
  const errors: FilingError[] = [];
  const missing = (field: string, message: string) =>
    errors.push({ code: 'parameter_missing', message, details: { field } });
  const dispute = (caseView.dispute ?? {}) as Loose;
  const transaction = (caseView.transaction ?? {}) as Loose;
  const evidence = (caseView.issuer_evidence ?? {}) as Loose;
  const reason = (dispute.reason ?? caseView.reason) as string | undefined;

  // Every case: what the network needs to identify and size the dispute.
  if (reason === undefined) missing('dispute.reason', 'dispute.reason is required to file');
  if (dispute.amount === undefined) missing('dispute.amount', 'dispute.amount is required to file');
  if (dispute.currency === undefined) missing('dispute.currency', 'dispute.currency is required to file');
  if (transaction.date === undefined) missing('transaction.date', 'transaction.date is required to file');

  // Fraud: the card must be cancelled, and the fraud reported or to be reported.
  if (reason === 'fraud') {
    const card = (evidence.card ?? {}) as Loose;
    const fraud = (evidence.fraud ?? {}) as Loose;
    if (card.is_active !== false)
      missing(
        'issuer_evidence.card.is_active',
        'fraud: the card must be cancelled (issuer_evidence.card.is_active false)',
      );
    if (fraud.was_reported !== true && fraud.submit_report !== true) {
      missing(
        'issuer_evidence.fraud.was_reported',
        'fraud: the fraud must be reported (fraud.was_reported or fraud.submit_report true)',
      );
    }
  }

  // Reasons that need the transaction receipt among the attached files.
  if (reason !== undefined && receiptReasons.has(reason)) {
    const documents = Array.isArray(evidence.documentation) ? (evidence.documentation as string[]) : [];
    if (!documents.some((fileId) => categoryOf(fileId) === 'transaction_receipt')) {
      errors.push({
        code: 'documentation_missing',
        message: `${reason}: a transaction receipt is required`,
        details: { file_category: 'transaction_receipt' },
      });
    }
  }

  // Filing windows, counted from the transaction date.
  const windowDays = reason === undefined ? undefined : windowDaysByReason[reason];
  const transactionMs = typeof transaction.date === 'string' ? Date.parse(transaction.date) : Number.NaN;
  if (windowDays !== undefined && transactionMs + windowDays * dayMs < nowMs) {
    errors.push({
      code: 'filing_window_expired',
      message: `${reason ?? ''}: the ${windowDays}-day filing window from the transaction date has passed`,
      details: { field: 'transaction.date' },
    });
  }
  // Product not received: not before the expected delivery date, when one is given.
  const expectedDate = (evidence.delivery as Loose | undefined)?.expected_date;
  const expectedMs = typeof expectedDate === 'string' ? Date.parse(expectedDate) : Number.NaN;
  if (reason === 'product_not_received' && expectedMs > nowMs) {
    errors.push({
      code: 'filing_window_not_open',
      message: 'product_not_received: cannot be filed before issuer_evidence.delivery.expected_date',
      details: { field: 'issuer_evidence.delivery.expected_date' },
    });
  }
  return errors;
}
