import { z } from 'zod';
import {
  conditionTypes,
  documentVerdicts,
  eventTypes,
  liableParties,
  reviewStates,
  uploadCategories,
  workflowOutcomes,
} from './known-values.js';
import { dateTime, identifier } from './primitives.js';
import { tolerant } from './tolerant.js';

/** File, Event and Case review result, with the fields the service gives them. */

/** The text part of the multipart upload beside `file`. */
export const uploadFields = z.strictObject({ category: z.enum(uploadCategories) });

export const fileSchema = z.strictObject({
  id: identifier,
  category: z.enum(uploadCategories),
  created: dateTime,
  /** Content type of the stored file: image/jpeg, image/png or application/pdf. */
  type: z.string(),
});

export const eventSchema = z.strictObject({
  event_id: identifier,
  type: z.enum(eventTypes),
  created: dateTime,
  data: z.strictObject({ case_id: identifier }),
});

const filingErrorSchema = z.strictObject({
  message: z.string(),
  /** `parameter_missing`, `documentation_missing`, and our `filing_window_expired`. */
  code: z.string(),
  details: z.strictObject({ field: z.string().optional(), file_category: z.string().optional() }).optional(),
});

/**
 * Review result. While `processing` the data is incomplete (the service says so), so every part
 * is optional. The inner shape of `documentation_review` is not shown by the service; ours is one
 * verdict per attached file. `fraud_liability` carries the test-mode `merchant_liable` /
 * `issuer_liable` result (docs/interface.md).
 */
export const caseReviewSchema = z.strictObject({
  status: z.enum(reviewStates),
  filing_errors: z.array(filingErrorSchema).optional(),
  workflow: z.strictObject({ outcome: z.enum(workflowOutcomes).optional() }).optional(),
  documentation_review: z
    .strictObject({
      files: z
        .array(
          z.strictObject({ id: identifier, category: z.enum(uploadCategories), verdict: z.enum(documentVerdicts) }),
        )
        .optional(),
    })
    .optional(),
  conditions_review: z
    .strictObject({
      meets_conditions: z.boolean().optional(),
      conditions_met: z.array(z.enum(conditionTypes)).optional(),
      conditions_not_met: z.array(z.enum(conditionTypes)).optional(),
    })
    .optional(),
  fraud_liability: z.strictObject({ liable_party: z.enum(liableParties) }).optional(),
});

export const fileResponse = tolerant(fileSchema);
export const eventResponse = tolerant(eventSchema);
export const caseReviewResponse = tolerant(caseReviewSchema);

export type UploadCategory = z.input<typeof uploadFields>['category'];
export type EvidenceFile = z.output<typeof fileResponse>;
export type ClaimsEvent = z.output<typeof eventResponse>;
export type CaseReview = z.output<typeof caseReviewResponse>;
