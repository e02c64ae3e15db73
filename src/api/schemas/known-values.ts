/**
 * Enumerations named by the service's interface and its public reference (docs/interface.md).
 * Request schemas accept only these; response schemas accept them and any other string (see
 * tolerant.ts), so a value the service adds later never breaks a run.
 */

/** Version 2 dispute reasons (docs/interface.md). */
export const disputeReasons = [
  'fraud',
  'invalid_authorization',
  'product_not_received',
  'product_not_as_described',
  'credit_not_processed',
  'subscription_canceled',
  'duplicate_charge',
  'incorrect_amount',
  'cash_not_received',
  'canceled_or_returned',
  'product_counterfeit',
  'other',
] as const;

/** Version 1 dispute reasons. */
export const v1DisputeReasons = [
  'invalid_authorization',
  'fraud',
  'product_not_received',
  'product_unacceptable',
  'not_as_described',
  'credit_not_processed',
  'duplicate',
  'incorrect_amount',
  'canceled_recurring',
  'other',
] as const;

/** Version 1 case statuses: the states of the service's version 1 cases. */
export const v1CaseStatuses = [
  'created',
  'chargeback_filed',
  'chargeback_represented',
  'prearb_filed',
  'prearb_rebutted',
  'arbitration_filed',
  'won',
  'lost',
  'closed',
] as const;

/** Every case status either version may return: v1's list plus version 2's newer ones. */
export const caseStatuses = [
  ...v1CaseStatuses,
  'prearb_received',
  'accepted',
  'rejected',
  'expired',
  'withdrawn',
  'merchant_credited',
] as const;

export const closedReasons = ['accepted', 'rejected', 'expired', 'withdrawn', 'merchant_credited'] as const;
export const reviewStatuses = ['chargeback_needs_review'] as const;
export const claimStatuses = ['open', 'filed', 'closed'] as const;

/** Only `cardholder` and `individual` are documented; requests accept no guesses beyond them. */
export const disputeRaisers = ['cardholder'] as const;
export const cardholderTypes = ['individual'] as const;

/** The card networks and types the sandbox accepts (docs/interface.md). */
export const cardNetworks = ['visa', 'mastercard', 'amex', 'discover'] as const;
export const cardTypes = ['credit', 'debit', 'prepaid'] as const;
export const transactionSystems = ['dual_message', 'single_message'] as const;

export const fileCategories = [
  'counterfeit_evidence',
  'merchant_correspondence',
  'other',
  'prior_transaction_receipt',
  'refund_promise',
  'transaction_receipt',
  'unknown',
] as const;
/** Test-mode categories that force the documentation review's verdict (docs/sandbox.md). */
export const testFileCategories = ['valid_document', 'invalid_document'] as const;
export const uploadCategories = [...fileCategories, ...testFileCategories] as const;

/** How a claim or case is filed (docs/sandbox.md). */
export const fileModes = ['chargeback', 'auto'] as const;

export const eventTypes = [
  'case.created',
  'case.chargeback_filed',
  'case.chargeback_represented',
  'case.prearb_filed',
  'case.won',
  'case.lost',
  'case.accepted',
  'case.rejected',
  'case.expired',
  'case.withdrawn',
  'case.merchant_credited',
  'case.chargeback_needs_review',
  'case.representment_needs_review',
  'case.resolution_deadline_approaching',
  'case.closed',
] as const;

export const reviewStates = ['processing', 'complete'] as const;
/** `file_chargeback` is documented; the other three are ours (docs/interface.md). */
export const workflowOutcomes = ['file_chargeback', 'queue', 'hold', 'flag_for_review'] as const;
export const documentVerdicts = ['valid', 'invalid'] as const;
export const liableParties = ['merchant', 'issuer'] as const;

/** Condition types the service currently names in a case's review result. */
export const conditionTypes = [
  'merchant_contacted',
  'merchant_refused_remedy',
  'product_returned',
  'product_broken',
  'product_not_as_described',
  'contract_terms_not_honored',
  'product_counterfeit',
  'product_description',
  'prior_transaction_details',
  'prior_transaction_documentation',
  'correct_amount_documentation',
  'refund_not_processed',
  'partial_credit',
  'subscription_canceled',
  'subscription_not_disclosed',
  'canceled_or_returned',
  'refund_policy_not_disclosed',
  'timeshare_cancellation_not_processed',
  'no_show_fee_charged',
  'cash_not_dispensed',
  'cardholder_dispute',
] as const;

/**
 * Statuses after which a case is closed, nothing taking it back any further: v1's `closed` plus
 * the outcomes that end a case. The sandbox closes cases so, and withdraw leaves them be.
 */
export const closedCaseStatuses: ReadonlySet<string> = new Set([
  'closed',
  'won',
  'lost',
  'accepted',
  'rejected',
  'expired',
  'withdrawn',
  'merchant_credited',
]);
