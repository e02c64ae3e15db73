import { z } from 'zod';
import { cardNetworks, cardTypes } from './known-values.js';
import { currencyCode, dateTime, expiryMonth, expiryYear, identifier, last4, minorUnits } from './primitives.js';

/**
 * `issuer_evidence` and its fourteen sub-objects, as the service's Case has them. Every sub-object
 * and field is optional in shape; which ones a reason needs is the filing validation's business.
 */

const amountCorrection = z.strictObject({
  amount: minorUnits.optional(),
  currency: currencyCode.optional(),
});

const cancellation = z.strictObject({
  date: dateTime.optional(),
  description: z.string().optional(),
  id: z.string().optional(),
  policy_provided: z.boolean().optional(),
});

const cardEvidence = z.strictObject({
  cardholder_has_possession: z.boolean().optional(),
  is_active: z.boolean().optional(),
  lost_date: dateTime.optional(),
  /** Listings only; value seen `had_possession`. */
  possession_at_transaction: z.string().optional(),
});

const delivery = z.strictObject({
  date: dateTime.optional(),
  expected_date: dateTime.optional(),
});

const fraud = z.strictObject({
  submit_report: z.boolean().optional(),
  was_reported: z.boolean().optional(),
});

const merchantContact = z.strictObject({
  date: dateTime.optional(),
  description: z.string().optional(),
  prohibited_reason: z.string().optional(),
  was_attempted: z.boolean().optional(),
  was_successful: z.boolean().optional(),
});

const priorTransactionCard = z.strictObject({
  expiry_month: expiryMonth.optional(),
  expiry_year: expiryYear.optional(),
  issuer_id: z.string().optional(),
  last4: last4.optional(),
  network: z.enum(cardNetworks).optional(),
  type: z.enum(cardTypes).optional(),
});

const priorTransaction = z.strictObject({
  amount: minorUnits.optional(),
  arn: z.string().optional(),
  currency: currencyCode.optional(),
  date: dateTime.optional(),
  issuer_id: z.string().optional(),
  card: priorTransactionCard.optional(),
});

const product = z.strictObject({
  condition: z.string().optional(),
  description: z.string().optional(),
  order_id: z.string().optional(),
  /** Listings only; value seen `merchandise`. */
  type: z.string().optional(),
});

const refund = z.strictObject({
  description: z.string().optional(),
  policy_provided: z.boolean().optional(),
  promise_date: dateTime.optional(),
  was_promised: z.boolean().optional(),
});

const returnEvidence = z.strictObject({
  date: dateTime.optional(),
  description: z.string().optional(),
  policy_provided: z.boolean().optional(),
  was_attempted: z.boolean().optional(),
  was_successful: z.boolean().optional(),
  shipping: z.strictObject({ carrier: z.string().optional(), tracking_number: z.string().optional() }).optional(),
});

const service = z.strictObject({
  end_date: dateTime.optional(),
});

export const issuerEvidenceSchema = z.strictObject({
  amount_correction: amountCorrection.optional(),
  cancellation: cancellation.optional(),
  card: cardEvidence.optional(),
  cardholder_explanation: z.string().optional(),
  delivery: delivery.optional(),
  /** File ids returned by the upload endpoint. */
  documentation: z.array(identifier).optional(),
  fraud: fraud.optional(),
  issuer_explanation: z.string().optional(),
  merchant_contact: merchantContact.optional(),
  prior_transaction: priorTransaction.optional(),
  product: product.optional(),
  refund: refund.optional(),
  return: returnEvidence.optional(),
  service: service.optional(),
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
