/** Dates the sandbox derives from a transaction's date (sandbox choices, docs/sandbox.md). */

export const dayMs = 24 * 60 * 60 * 1000;

/** The filing window of the reasons that have one, and the due date's span (docs/sandbox.md). */
export const filingWindowDays = 120;

/** `resolution_due_date` (v2) and `chargeback_due_date` (v1): the transaction date plus 120 days. */
export function resolutionDueDate(transactionDate: unknown): string | undefined {
  const transactionMs = typeof transactionDate === 'string' ? Date.parse(transactionDate) : Number.NaN;
  return Number.isNaN(transactionMs) ? undefined : new Date(transactionMs + filingWindowDays * dayMs).toISOString();
}
