import { z } from 'zod';
import { cardholderSchema, merchantSchema } from './case.js';
import { sharedEvidenceParts } from './evidence.js';
import {
  cardNetworks,
  cardTypes,
  closedReasons,
  fileModes,
  reviewStatuses,
  transactionSystems,
  v1CaseStatuses,
  v1DisputeReasons,
} from './known-values.js';
import {
  currencyCode,
  customFields,
  dateTime,
  expiryMonth,
  expiryYear,
  identifier,
  last4,
  minorUnits,
} from './primitives.js';
import { cursorMessage, listQueryFields, oneCursorAtMost } from './list.js';
import { tolerant } from './tolerant.js';

/** Version 1 cases, as the service still serves them beside version 2. */

/**
 * Version 1 evidence uses flat names. The document lists examples only; ours are those plus the
 * v2 sub-objects whose names did not change. `resolution{...}` is not described: any object.
 */
export const v1IssuerEvidenceSchema = z.strictObject({
  cancellation: sharedEvidenceParts.cancellation.optional(),
  delivery: sharedEvidenceParts.delivery.optional(),
  fraud: sharedEvidenceParts.fraud.optional(),
  merchant_contact: sharedEvidenceParts.merchant_contact.optional(),
  prior_transaction: sharedEvidenceParts.prior_transaction.optional(),
  product: sharedEvidenceParts.product.optional(),
  return: sharedEvidenceParts.return.optional(),
  cardholder_message: z.string().optional(),
  explanation: z.string().optional(),
  correct_amount: minorUnits.optional(),
  correct_currency: currencyCode.optional(),
  service_end_date: dateTime.optional(),
  resolution: z.record(z.string(), z.unknown()).optional(),
  card: z
    .strictObject({
      active: z.boolean().optional(),
      cardholder_has_possession: z.boolean().optional(),
      lost_date: dateTime.optional(),
    })
    .optional(),
  refund: z
    .strictObject({
      promised: z.boolean().optional(),
      promise_date: dateTime.optional(),
      description: z.string().optional(),
      policy_provided: z.boolean().optional(),
    })
    .optional(),
  documentation: z.array(identifier).optional(),
});

const v1TransactionFields = z.strictObject({
  amount: minorUnits,
  currency: currencyCode,
  date: dateTime,
  arn: z.string().min(1).optional(),
  switch_serial_number: z.string().min(1).optional(),
  card_last4: last4,
  card_expiry_month: expiryMonth,
  card_expiry_year: expiryYear,
  card_network: z.enum(cardNetworks),
  card_type: z.enum(cardTypes),
  system: z.enum(transactionSystems),
});

/** The flat v1 transaction: either `arn` or `switch_serial_number` is required. */
export const v1TransactionSchema = v1TransactionFields.refine(
  (transaction) => transaction.arn !== undefined || transaction.switch_serial_number !== undefined,
  { message: 'expected arn or switch_serial_number', path: ['arn'] },
);

const v1CaseFields = {
  case_id: identifier.optional(),
  program_id: identifier.nullable().optional(),
  custom_fields: customFields.optional(),
  cardholder: cardholderSchema,
  dispute: z.strictObject({ amount: minorUnits, currency: currencyCode, date: dateTime }),
  merchant: merchantSchema,
  reason: z.enum(v1DisputeReasons),
  transaction: v1TransactionSchema,
  issuer_evidence: v1IssuerEvidenceSchema.optional(),
};

/** Body of POST /v1/issuer/cases. `file` asks the service to file on creation. */
export const v1CreateCaseBody = z.strictObject({ ...v1CaseFields, file: z.enum(fileModes).optional() });

/**
 * A version 1 case as returned: the create fields plus status and the v1-only fields. What a
 * create requires is not required back: one legacy case lacking a field must not fail a whole
 * migration page.
 */
export const v1CaseSchema = z.strictObject({
  ...v1CaseFields,
  cardholder: cardholderSchema.optional(),
  dispute: v1CaseFields.dispute.partial().optional(),
  merchant: merchantSchema.optional(),
  reason: v1CaseFields.reason.optional(),
  transaction: v1TransactionFields.partial().optional(),
  case_id: identifier,
  claim_id: identifier.nullable().optional(),
  created: dateTime.optional(),
  status: z.enum(v1CaseStatuses),
  chargeback_due_date: dateTime.nullable().optional(),
  closed_reason: z.enum(closedReasons).nullable().optional(),
  review_status: z.enum(reviewStatuses).nullable().optional(),
});

export const v1CaseResponse = tolerant(v1CaseSchema);

/** The v1 list adds a `status` filter to the common paging parameters. */
export const v1ListQuery = z
  .strictObject({ ...listQueryFields, status: z.enum(v1CaseStatuses).optional() })
  .refine(oneCursorAtMost, cursorMessage);

export type V1CreateCaseBody = z.input<typeof v1CreateCaseBody>;
export type V1Case = z.output<typeof v1CaseResponse>;
export type V1ListQuery = z.input<typeof v1ListQuery>;
