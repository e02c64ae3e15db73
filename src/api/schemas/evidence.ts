import { z } from 'zod';
import { allOptional } from './all-optional.js';
import { cardNetworks, cardTypes } from './known-values.js';
import { currencyCode, dateTime, expiryMonth, expiryYear, identifier, last4, minorUnits } from './primitives.js';

/**
 * `issuer_evidence` and its fourteen sub-objects, as the service's Case has them. Every sub-object
 * and field is optional in shape; which ones a reason needs is the filing validation's business.
 */

const amountCorrection = allOptional({
  amount: minorUnits,
  currency: currencyCode,
});

const cancellation = allOptional({
  date: dateTime,
  description: z.string(),
  id: z.string(),
  policy_provided: z.boolean(),
});

const cardEvidence = allOptional({
  cardholder_has_possession: z.boolean(),
  is_active: z.boolean(),
  lost_date: dateTime,
  /** Listings only; value seen `had_possession`. */
  possession_at_transaction: z.string(),
});

const delivery = allOptional({
  date: dateTime,
  expected_date: dateTime,
});

const fraud = allOptional({
  submit_report: z.boolean(),
  was_reported: z.boolean(),
});

const merchantContact = allOptional({
  date: dateTime,
  description: z.string(),
  prohibited_reason: z.string(),
  was_attempted: z.boolean(),
  was_successful: z.boolean(),
});

const priorTransactionCard = allOptional({
  expiry_month: expiryMonth,
  expiry_year: expiryYear,
  issuer_id: z.string(),
  last4: last4,
  network: z.enum(cardNetworks),
  type: z.enum(cardTypes),
});

const priorTransaction = allOptional({
  amount: minorUnits,
  arn: z.string(),
  currency: currencyCode,
  date: dateTime,
  issuer_id: z.string(),
  card: priorTransactionCard,
});

const product = allOptional({
  condition: z.string(),
  description: z.string(),
  order_id: z.string(),
  /** Listings only; value seen `merchandise`. */
  type: z.string(),
});

const refund = allOptional({
  description: z.string(),
  policy_provided: z.boolean(),
  promise_date: dateTime,
  was_promised: z.boolean(),
});

const returnEvidence = allOptional({
  date: dateTime,
  description: z.string(),
  policy_provided: z.boolean(),
  was_attempted: z.boolean(),
  was_successful: z.boolean(),
  shipping: allOptional({ carrier: z.string(), tracking_number: z.string() }),
});

const service = allOptional({
  end_date: dateTime,
});

export const issuerEvidenceSchema = allOptional({
  amount_correction: amountCorrection,
  cancellation: cancellation,
  card: cardEvidence,
  cardholder_explanation: z.string(),
  delivery: delivery,
  /** File ids returned by the upload endpoint. */
  documentation: z.array(identifier),
  fraud: fraud,
  issuer_explanation: z.string(),
  merchant_contact: merchantContact,
  prior_transaction: priorTransaction,
  product: product,
  refund: refund,
  return: returnEvidence,
  service: service,
});

/** Sub-objects shared unchanged by the version 1 evidence (see v1.ts). */
export const sharedEvidenceParts = {
  cancellation,
  delivery,
  fraud,
  merchant_contact: merchantContact,
  prior_transaction: priorTransaction,
  product,
  return: returnEvidence,
};
