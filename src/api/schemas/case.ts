import { z } from 'zod';
import { allOptional } from './all-optional.js';
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

export const billingAddressSchema = allOptional({
  city: z.string(),
  country: z.string(),
  line1: z.string(),
  line2: z.string(),
  postal_code: z.string(),
  state: z.string(),
});

export const cardholderSchema = allOptional({
  issuer_id: z.string(),
  name: z.string(),
  email: z.email(),
  type: z.enum(cardholderTypes),
  billing_address: billingAddressSchema,
});

export const disputeSchema = allOptional({
  amount: minorUnits,
  currency: currencyCode,
  date: dateTime,
  reason: z.enum(disputeReasons),
  raised_by: z.enum(disputeRaisers),
});

export const merchantSchema = allOptional({
  name: z.string(),
  category_code: merchantCategoryCode,
  issuer_id: z.string(),
});

export const cardSchema = allOptional({
  last4: last4,
  network: z.enum(cardNetworks),
  type: z.enum(cardTypes),
  expiry_month: expiryMonth,
  expiry_year: expiryYear,
  issuer_id: z.string(),
  billing_cycle_day: z.number().int().min(1).max(31),
});

/**
 * One network's sub-object of `network_details`. The document names the visa-style fields and,
 * for another network, `switch_serial_number`; one object with all of them covers every network.
 */
export const networkDetailSchema = allOptional({
  transaction_id: z.string(),
  electronic_commerce_indicator: z.string(),
  cvv_check: z.string(),
  avs_postal_match: z.string(),
  avs_street_match: z.string(),
  switch_serial_number: z.string(),
});

export const transactionSchema = allOptional({
  amount: minorUnits,
  currency: currencyCode,
  date: dateTime,
  arn: z.string().min(1),
  issuer_id: z.string(),
  system: z.enum(transactionSystems),
  card: cardSchema,
  network_details: z.partialRecord(z.enum(cardNetworks), networkDetailSchema),
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
