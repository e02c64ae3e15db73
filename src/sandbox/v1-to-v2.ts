import type { disputeReasons, v1DisputeReasons } from '../api/schemas/known-values.js';

/**
 * A version 1 case read as version 2: flat transaction and evidence names become the v2 nested
 * ones (docs/interface.md). Pure; used only by the sandbox's v2 views of v1 cases (views.ts):
 * migrate-v1 does not convert cases, and a v1-shaped CSV goes through the import with
 * mappings/v1-cases.yaml, whose reasons a test holds to the table below. v1's `resolution{...}`
 * has no v2 counterpart and is left out.
 */

type V1Reason = (typeof v1DisputeReasons)[number];
type V2Reason = (typeof disputeReasons)[number];

/** v1 reasons whose v2 name differs; the others keep their name. */
export const v1ReasonToV2: Record<V1Reason, V2Reason> = {
  invalid_authorization: 'invalid_authorization',
  fraud: 'fraud',
  product_not_received: 'product_not_received',
  product_unacceptable: 'product_not_as_described',
  not_as_described: 'product_not_as_described',
  credit_not_processed: 'credit_not_processed',
  duplicate: 'duplicate_charge',
  incorrect_amount: 'incorrect_amount',
  canceled_recurring: 'subscription_canceled',
  other: 'other',
};

type Loose = Record<string, unknown>;

export function v1CaseToV2(v1: Loose): Loose {
  const transaction = (v1.transaction ?? {}) as Loose;
  const dispute = (v1.dispute ?? {}) as Loose;
  const reasonText = typeof v1.reason === 'string' ? v1.reason : undefined;
  const reason =
    reasonText !== undefined && reasonText in v1ReasonToV2 ? v1ReasonToV2[reasonText as V1Reason] : reasonText;
  const {
    chargeback_due_date: dueDate,
    transaction: _transaction,
    issuer_evidence: evidence,
    file: _file,
    ...rest
  } = v1;
  return withoutUndefined({
    ...rest,
    reason,
    dispute: withoutUndefined({ ...dispute, reason }),
    transaction: v1TransactionToV2(transaction),
    issuer_evidence: evidence === undefined ? undefined : v1EvidenceToV2(evidence as Loose),
    resolution_due_date: dueDate ?? undefined,
  });
}

function v1TransactionToV2(transaction: Loose): Loose {
  const network = transaction.card_network as string | undefined;
  const serial = transaction.switch_serial_number;
  return withoutUndefined({
    amount: transaction.amount,
    currency: transaction.currency,
    date: transaction.date,
    arn: transaction.arn,
    system: transaction.system,
    card: withoutUndefined({
      last4: transaction.card_last4,
      expiry_month: transaction.card_expiry_month,
      expiry_year: transaction.card_expiry_year,
      network,
      type: transaction.card_type,
    }),
    network_details: serial === undefined ? undefined : { [network ?? 'mastercard']: { switch_serial_number: serial } },
  });
}

function v1EvidenceToV2(evidence: Loose): Loose {
  const {
    cardholder_message: cardholderMessage,
    explanation,
    correct_amount: correctAmount,
    correct_currency: correctCurrency,
    service_end_date: serviceEndDate,
    resolution: _resolution,
    card,
    refund,
    ...sameInBoth
  } = evidence;
  const { active, ...cardRest } = (card ?? {}) as Loose;
  const { promised, ...refundRest } = (refund ?? {}) as Loose;
  return withoutUndefined({
    ...sameInBoth,
    cardholder_explanation: cardholderMessage,
    issuer_explanation: explanation,
    amount_correction:
      correctAmount === undefined && correctCurrency === undefined
        ? undefined
        : withoutUndefined({ amount: correctAmount, currency: correctCurrency }),
    service: serviceEndDate === undefined ? undefined : { end_date: serviceEndDate },
    card: card === undefined ? undefined : withoutUndefined({ ...cardRest, is_active: active }),
    refund: refund === undefined ? undefined : withoutUndefined({ ...refundRest, was_promised: promised }),
  });
}

function withoutUndefined(object: Loose): Loose {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
