import { z } from 'zod';
import { caseSchema, cardholderSchema, cardSchema, disputeSchema, merchantSchema, transactionSchema } from './case.js';
import { issuerEvidenceSchema } from './evidence.js';
import { claimStatuses, disputeReasons, fileModes } from './known-values.js';
import { currencyCode, customFields, dateTime, identifier, minorUnits } from './primitives.js';
import { tolerant } from './tolerant.js';

/** Claims and the bodies of the claims endpoints. */

const caseIds = z.array(identifier).min(1, 'expected at least 1 case id');

/** Body of POST /v2/issuer/claims: a claim from existing cases. */
export const createClaimBody = z.strictObject({
  case_ids: caseIds,
  claim_id: identifier.optional(),
});

/** Body of PUT /v2/issuer/claims/{claim_id}/cases: the complete new list. */
export const setClaimCasesBody = z.strictObject({ case_ids: caseIds });

/** Body of POST .../claims/{claim_id}/file and .../cases/{case_id}/file. */
export const fileBody = z.strictObject({ file_mode: z.enum(fileModes) });

/**
 * One case of a new_claim body: its own amounts, merchant and transaction. Required here is the
 * sandbox's decision, as the service does not show it: amount, currency, date, and an ARN or
 * a switch serial number. `custom_fields` and `program_id` per case are our addition, so that a
 * mapping can set them at creation (docs/interface.md, "`new_claim` required fields").
 */
export const newClaimCaseSchema = z
  .strictObject({
    case_id: identifier.optional(),
    program_id: identifier.nullable().optional(),
    custom_fields: customFields.optional(),
    // Optional, like everything but the transaction fields: the required fields of new_claim
    // (docs/interface.md) do not include the per-case dispute.
    dispute: z.strictObject({ amount: minorUnits.optional(), currency: currencyCode.optional() }).optional(),
    merchant: merchantSchema.optional(),
    transaction: transactionSchema.extend({ amount: minorUnits, currency: currencyCode, date: dateTime }),
  })
  .refine(
    (item) =>
      item.transaction.arn !== undefined ||
      Object.values(item.transaction.network_details ?? {}).some((detail) => detail.switch_serial_number),
    { message: 'expected transaction.arn or a network_details switch_serial_number', path: ['transaction', 'arn'] },
  );

/** Body of POST /v2/issuer/new_claim: shared fields once, per-case fields in `cases`. */
export const newClaimBody = z
  .strictObject({
    claim_id: identifier.optional(),
    card: cardSchema.extend({ last4: cardSchema.shape.last4.unwrap(), network: cardSchema.shape.network.unwrap() }),
    cardholder: cardholderSchema.optional(),
    dispute: disputeSchema.pick({ date: true, raised_by: true, reason: true }).optional(),
    /** Older examples carry the reason at the top level; either place is accepted. */
    reason: z.enum(disputeReasons).optional(),
    issuer_evidence: issuerEvidenceSchema.optional(),
    cases: z.array(newClaimCaseSchema).min(1, 'expected at least 1 case'),
  })
  .refine((body) => body.reason !== undefined || body.dispute?.reason !== undefined, {
    message: 'expected dispute.reason (or reason)',
    path: ['dispute', 'reason'],
  })
  .refine(
    (body) => body.reason === undefined || body.dispute?.reason === undefined || body.reason === body.dispute.reason,
    {
      message: 'expected reason and dispute.reason to agree (give one of them)',
      path: ['reason'],
    },
  )
  .superRefine((body, context) => {
    const seen = new Set<string>();
    body.cases.forEach((item, index) => {
      if (item.case_id === undefined) return;
      if (seen.has(item.case_id)) {
        context.addIssue({
          code: 'custom',
          message: `duplicate case_id ${item.case_id}`,
          path: ['cases', index, 'case_id'],
        });
      }
      seen.add(item.case_id);
    });
  });

/**
 * A claim as the service returns it. `cases` holds objects with only `case_id` (create, set
 * cases) or full cases (new_claim, retrieve): the case schema covers both.
 */
export const claimSchema = z.strictObject({
  claim_id: identifier,
  created: dateTime.optional(),
  updated: dateTime.optional(),
  status: z.enum(claimStatuses).optional(),
  cases: z.array(caseSchema).optional(),
});

/** An item of GET /v2/issuer/claims: the simplified claim. */
export const claimSummarySchema = z.strictObject({
  claim_id: identifier,
  created: dateTime,
  status: z.enum(claimStatuses),
});

/** Response of the file-claim endpoint: 202 `{results: [{case_id, success}]}`. */
export const fileClaimResultSchema = z.strictObject({
  results: z.array(z.strictObject({ case_id: identifier, success: z.boolean() })),
});

/** `{success}`: withdraw, delete, file case and run_workflow answers. */
export const successSchema = z.strictObject({ success: z.boolean() });

export const claimResponse = tolerant(claimSchema);
/**
 * Of a claim the service returns, only its id and its cases' ids, read as tolerantly as
 * claimResponse reads them (both required strings where present); other fields are not read.
 */
export const claimIdsResponse = z.object({
  claim_id: z.string(),
  cases: z.array(z.object({ case_id: z.string() })).nullish(),
});
export const claimSummaryResponse = tolerant(claimSummarySchema);
export const fileClaimResultResponse = tolerant(fileClaimResultSchema);
export const successResponse = tolerant(successSchema);

export type CreateClaimBody = z.input<typeof createClaimBody>;
export type SetClaimCasesBody = z.input<typeof setClaimCasesBody>;
export type FileBody = z.input<typeof fileBody>;
export type NewClaimBody = z.input<typeof newClaimBody>;
export type Claim = z.output<typeof claimResponse>;
export type ClaimIds = z.output<typeof claimIdsResponse>;
export type ClaimSummary = z.output<typeof claimSummaryResponse>;
export type FileClaimResult = z.output<typeof fileClaimResultResponse>;
