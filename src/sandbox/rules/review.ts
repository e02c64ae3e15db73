import type { Environment } from '../store/records.js';

/**
 * The review's conditions, documentation and fraud-liability parts, with the test-mode magic values
 * (docs/sandbox.md, "Review"). Pure. The magic values work in the sandbox environment only.
 */

type Loose = Record<string, unknown>;

/** Which named conditions speak to which reason (sandbox choice; docs/sandbox.md, "Review"). */
const conditionsByReason: Record<string, string[]> = {
  product_not_received: ['merchant_contacted', 'merchant_refused_remedy'],
  product_not_as_described: ['merchant_contacted', 'product_returned', 'product_not_as_described'],
  credit_not_processed: ['merchant_contacted', 'refund_not_processed', 'canceled_or_returned'],
  subscription_canceled: ['subscription_canceled', 'merchant_contacted'],
  canceled_or_returned: ['canceled_or_returned', 'refund_not_processed'],
  incorrect_amount: ['correct_amount_documentation'],
  duplicate_charge: ['prior_transaction_details'],
  product_counterfeit: ['product_counterfeit'],
  cash_not_received: ['cash_not_dispensed'],
  fraud: ['cardholder_dispute'],
  invalid_authorization: ['cardholder_dispute'],
  other: ['cardholder_dispute'],
};

/** Whether the evidence shows each condition. */
const evidenceShows: Record<string, (evidence: Loose) => boolean> = {
  merchant_contacted: (evidence) => field(evidence, 'merchant_contact', 'was_attempted') === true,
  merchant_refused_remedy: (evidence) => field(evidence, 'merchant_contact', 'was_successful') === false,
  product_returned: (evidence) => field(evidence, 'return', 'was_successful') === true,
  product_not_as_described: (evidence) => typeof field(evidence, 'product', 'description') === 'string',
  refund_not_processed: (evidence) => field(evidence, 'refund', 'was_promised') === true,
  canceled_or_returned: (evidence) =>
    field(evidence, 'cancellation', 'date') !== undefined || field(evidence, 'return', 'date') !== undefined,
  subscription_canceled: (evidence) => field(evidence, 'cancellation', 'date') !== undefined,
  correct_amount_documentation: (evidence) => field(evidence, 'amount_correction', 'amount') !== undefined,
  prior_transaction_details: (evidence) => field(evidence, 'prior_transaction', 'arn') !== undefined,
  product_counterfeit: (evidence) => typeof field(evidence, 'product', 'condition') === 'string',
  cash_not_dispensed: (evidence) => typeof evidence.issuer_explanation === 'string',
  cardholder_dispute: (evidence) => typeof evidence.cardholder_explanation === 'string',
};

export interface ConditionsReview {
  meets_conditions: boolean;
  conditions_met: string[];
  conditions_not_met: string[];
}

export function conditionsReview(caseView: Loose, environment: Environment): ConditionsReview {
  const evidence = (caseView.issuer_evidence ?? {}) as Loose;
  const reason = ((caseView.dispute as Loose | undefined)?.reason ?? caseView.reason) as string | undefined;
  const conditions = conditionsByReason[reason ?? 'other'] ?? conditionsByReason.other ?? [];
  const magic = environment === 'sandbox' ? magicWord(evidence, ['invalid_evidence', 'valid_evidence']) : undefined;
  const met = conditions.filter((condition) =>
    magic ? magic === 'valid_evidence' : (evidenceShows[condition]?.(evidence) ?? false),
  );
  const notMet = conditions.filter((condition) => !met.includes(condition));
  return { meets_conditions: notMet.length === 0, conditions_met: met, conditions_not_met: notMet };
}

/** Fraud cases only: who bears the loss. Magic values decide in the sandbox; otherwise the merchant. */
export function fraudLiability(
  caseView: Loose,
  environment: Environment,
): { liable_party: 'merchant' | 'issuer' } | undefined {
  const reason = ((caseView.dispute as Loose | undefined)?.reason ?? caseView.reason) as string | undefined;
  if (reason !== 'fraud') return undefined;
  const magic =
    environment === 'sandbox'
      ? magicWord((caseView.issuer_evidence ?? {}) as Loose, ['merchant_liable', 'issuer_liable'])
      : undefined;
  return { liable_party: magic === 'issuer_liable' ? 'issuer' : 'merchant' };
}

export interface ReviewedFile {
  id: string;
  category: string;
  verdict: 'valid' | 'invalid';
}

/** One verdict per attached file; `invalid_document` files are invalid in the sandbox environment. */
export function documentationReview(
  files: { id: string; category: string }[],
  environment: Environment,
): { files: ReviewedFile[] } {
  return {
    files: files.map((file) => ({
      id: file.id,
      category: file.category,
      verdict: environment === 'sandbox' && file.category === 'invalid_document' ? 'invalid' : 'valid',
    })),
  };
}

/** The first word found wins: list `invalid_evidence` before `valid_evidence`, which it contains. */
function magicWord(evidence: Loose, words: string[]): string | undefined {
  const explanation = typeof evidence.issuer_explanation === 'string' ? evidence.issuer_explanation : '';
  return words.find((word) => explanation.includes(word));
}

function field(evidence: Loose, part: string, name: string): unknown {
  return (evidence[part] as Loose | undefined)?.[name];
}
