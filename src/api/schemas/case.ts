import { z } from 'zod';
import { issuerEvidenceSchema } from './evidence.js';
import {
  cardholderTypes,
  cardNetworks,
  cardTypes,
  caseStatuses,
  closedReasons,
  disputeRaisers,
  disputeReasons,
  reviewStatuses,
  transactionSystems,
} from './known-values.js';
import {
  currencyCode,
  customFields,
  customFieldsUpdate,
  dateTime,
  expiryMonth,
  expiryYear,
  identifier,
  last4,
  merchantCategoryCode,
  minorUnits,
} from './primitives.js';
import { tolerant } from './tolerant.js';

/** The version 2 Case and its nested objects. */

export const billingAddressSchema = z.strictObject({
  city: z.string().optional(),
  country: z.string().optional(),
  line1: z.string().optional(),
  line2: z.string().optional(),
  postal_code: z.string().optional(),
  state: z.string().optional(),
});

export const cardholderSchema = z.strictObject({
  issuer_id: z.string().optional(),
  name: z.string().optional(),
  email: z.email().optional(),
  type: z.enum(cardholderTypes).optional(),
  billing_address: billingAddressSchema.optional(),
});

export const disputeSchema = z.strictObject({
  amount: minorUnits.optional(),
  currency: currencyCode.optional(),
  date: dateTime.optional(),
  reason: z.enum(disputeReasons).optional(),
  raised_by: z.enum(disputeRaisers).optional(),
});

export const merchantSchema = z.strictObject({
  name: z.string().optional(),
  category_code: merchantCategoryCode.optional(),
  issuer_id: z.string().optional(),
});

export const cardSchema = z.strictObject({
  last4: last4.optional(),
  network: z.enum(cardNetworks).optional(),
  type: z.enum(cardTypes).optional(),
  expiry_month: expiryMonth.optional(),
  expiry_year: expiryYear.optional(),
  issuer_id: z.string().optional(),
  billing_cycle_day: z.number().int().min(1).max(31).optional(),
});

/**
 * One network's sub-object of `network_details`. The document names the visa-style fields and,
 * for another network, `switch_serial_number`; one object with all of them covers every network.
 */
export const networkDetailSchema = z.strictObject({
  transaction_id: z.string().optional(),
  electronic_commerce_indicator: z.string().optional(),
  cvv_check: z.string().optional(),
  avs_postal_match: z.string().optional(),
  avs_street_match: z.string().optional(),
  switch_serial_number: z.string().optional(),
});

export const transactionSchema = z.strictObject({
  amount: minorUnits.optional(),
  currency: currencyCode.optional(),
  date: dateTime.optional(),
  arn: z.string().min(1).optional(),
  issuer_id: z.string().optional(),
  system: z.enum(transactionSystems).optional(),
  card: cardSchema.optional(),
  network_details: z.partialRecord(z.enum(cardNetworks), networkDetailSchema).optional(),
});

/** The fields a client sets on a case (PUT /v2/issuer/cases/{case_id} lists exactly these). */
const caseFields = {
  case_id: identifier.optional(),
  program_id: identifier.nullable().optional(),
  reason: z.enum(disputeReasons).optional(),
  custom_fields: customFields.optional(),
  cardholder: cardholderSchema.optional(),
  dispute: disputeSchema.optional(),
  merchant: merchantSchema.optional(),
  transaction: transactionSchema.optional(),
  issuer_evidence: issuerEvidenceSchema.optional(),
};

/** Body of PUT /v2/issuer/cases/{case_id}; a `null` custom field value removes the key. */
export const updateCaseBody = z.strictObject({ ...caseFields, custom_fields: customFieldsUpdate.optional() });

/** A case as the service returns it, strictly as documented (what the sandbox sends). */
export const caseObject = z.strictObject({
  ...caseFields,
  case_id: identifier,
  claim_id: identifier.optional(),
  created: dateTime.optional(),
  status: z.enum(caseStatuses).optional(),
  closed_reason: z.enum(closedReasons).nullable().optional(),
  review_status: z.enum(reviewStatuses).nullable().optional(),
  resolution_due_date: dateTime.optional(),
});

/**
 * The reason may come at the top level (older examples) or in `dispute` (new_claim); both are
 * filled from whichever is present (docs/interface.md), so callers read
 * either. Should they differ, `dispute.reason`, the newer place, wins.
 */
function mirrorReason<Record extends { reason?: unknown; dispute?: { reason?: unknown } | null }>(
  record: Record,
): Record {
  const reason = record.dispute?.reason ?? record.reason;
  if (reason == null) return record;
  return { ...record, reason, dispute: { ...record.dispute, reason } };
}

export const caseSchema = caseObject.transform(mirrorReason);
/** A case as the client reads it. */
export const caseResponse = tolerant(caseSchema);

export type CaseUpdate = z.input<typeof updateCaseBody>;
export type Case = z.output<typeof caseResponse>;
