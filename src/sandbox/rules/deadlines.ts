import { dayMs, filingWindowDays } from '../../filing-rules/filing-window.js';

/** Dates the sandbox derives from a transaction's date (sandbox choices, docs/sandbox.md). */

/** `resolution_due_date` (v2) and `chargeback_due_date` (v1): the transaction date plus 120 days. */
export function resolutionDueDate(transactionDate: unknown): string | undefined {
  const transactionMs = typeof transactionDate === 'string' ? Date.parse(transactionDate) : Number.NaN;
  return Number.isNaN(transactionMs) ? undefined : new Date(transactionMs + filingWindowDays * dayMs).toISOString();
}
