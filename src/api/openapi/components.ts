import { z } from 'zod';
import {
  billingAddressSchema,
  cardholderSchema,
  cardSchema,
  caseObject,
  disputeSchema,
  merchantSchema,
  networkDetailSchema,
  transactionSchema,
  updateCaseBody,
} from '../schemas/case.js';
import {
  claimSchema,
  claimSummarySchema,
  createClaimBody,
  fileBody,
  fileClaimResultSchema,
  newClaimBody,
  newClaimCaseSchema,
  setClaimCasesBody,
  successSchema,
} from '../schemas/claim.js';
import { simpleErrorSchema, validationErrorItemSchema, validationErrorSchema } from '../schemas/errors.js';
import { issuerEvidenceSchema } from '../schemas/evidence.js';
import { listPage } from '../schemas/list.js';
import {
  currencyCode,
  customFields,
  customFieldsUpdate,
  dateTime,
  identifier,
  minorUnits,
} from '../schemas/primitives.js';
import { caseReviewSchema, eventSchema, fileSchema } from '../schemas/resources.js';
import { v1CaseSchema, v1CreateCaseBody, v1IssuerEvidenceSchema, v1TransactionSchema } from '../schemas/v1.js';
import { decided, publicReference, publicReferenceExtension, type Metadata } from './provenance.js';

/**
 * The named schemas of the document (`components.schemas`), each one a wire schema of
 * src/api/schemas converted by zod's own JSON Schema output (draft 2020-12, the dialect of OpenAPI
 * 3.1). Nothing here restates a field: only names, descriptions and where an answer comes from.
 * Responses are described as the sandbox sends them (strictly); the client reads them tolerantly
 * (docs/interface.md), as any client should.
 */

export type JsonSchema = Record<string, unknown>;

/** How filed cases move on in the sandbox (docs/sandbox.md, "Outcomes"): said where case statuses and events are described. */
const outcomesNote =
  "A filed case moves on only by hand (the sandbox's control prefix), unless the sandbox runs with " +
  '`--outcomes`: then it plays the card networks, moving each filed case on its clock along a path ' +
  'seeded by `--seed` and the case id (representment, pre-arbitration and arbitration each set ' +
  '`resolution_due_date` 30 days on).';

/** Refinements have no JSON Schema form: what they check is said in words instead. */
const components: [z.ZodType, string, Metadata][] = [
  [
    identifier,
    'Identifier',
    { description: 'claim_id, case_id, program_id and file ids: at most 126 characters (Limits).' },
  ],
  [dateTime, 'DateTime', { description: 'ISO 8601 date-time with `Z` or an offset.' }],
  [
    minorUnits,
    'MinorUnits',
    decided(
      "An amount as an integer in the currency's minor units (USD 2 decimals, JPY 0, KWD 3): 5000 USD is 50.00.",
      'The unit of amounts is not shown; every example pairs an integer with a currency, and minor units is the only reading that fits (docs/interface.md).',
    ),
  ],
  [currencyCode, 'CurrencyCode', { description: 'ISO 4217 alphabetic code, upper case.' }],
  [
    customFields,
    'CustomFields',
    publicReference(
      'Free key-value pairs attached by the issuer: at most 25 keys of up to 50 characters, string values of up to 250.',
      { maxProperties: 25 },
    ),
  ],
  [
    customFieldsUpdate,
    'CustomFieldsUpdate',
    publicReference('Custom fields to merge into the case: a `null` value removes the key. At most 25 keys.', {
      maxProperties: 25,
    }),
  ],
  [billingAddressSchema, 'BillingAddress', {}],
  [
    cardholderSchema,
    'Cardholder',
    decided('The cardholder.', 'Only the values seen are accepted for `type` (`individual`).'),
  ],
  [
    disputeSchema,
    'Dispute',
    decided(
      'The dispute: amount, currency, date, reason, who raised it.',
      "The reasons are the public reference's list; `raised_by` accepts only the value seen (`cardholder`).",
    ),
  ],
  [merchantSchema, 'Merchant', {}],
  [
    cardSchema,
    'Card',
    decided(
      'The card used.',
      'Networks beyond those seen (visa, mastercard) and types beyond `credit`: the sandbox accepts amex, discover and debit, prepaid.',
    ),
  ],
  [
    networkDetailSchema,
    'NetworkDetail',
    { description: "One network's sub-object of `network_details`: the fields of every network in one object." },
  ],
  [transactionSchema, 'Transaction', {}],
  [
    issuerEvidenceSchema,
    'IssuerEvidence',
    {
      description:
        "Evidence; every sub-object is optional in shape. Which ones a reason needs is the filing validation's business (see the review).",
    },
  ],
  [
    caseObject,
    'Case',
    decided(
      'A version 2 case. `reason` and `dispute.reason` are both returned, filled from whichever was given.',
      `The reason in both places; \`resolution_due_date\` is the transaction date plus 120 days; generated ` +
        `ids are \`case_\` and 24 hex digits. ${outcomesNote}`,
    ),
  ],
  [
    updateCaseBody,
    'CaseUpdate',
    decided(
      'The case fields to change; nested objects merge field by field, a `null` custom field removes the ' +
        'key. `case_id`, when given, must be the case in the path.',
      'The effect of an update (merge, not replace) is not shown.',
    ),
  ],
  [
    claimSchema,
    'Claim',
    decided(
      'A claim. `cases` holds objects with only `case_id` (create claim, set cases) or full cases (new_claim, retrieve).',
      'Claim status moves: `open`, then `filed` once any case is filed, `closed` after a withdrawal (values from the public reference).',
    ),
  ],
  [claimSummarySchema, 'ClaimSummary', { description: 'An item of the claims list.' }],
  [
    createClaimBody,
    'CreateClaim',
    {
      description:
        'A claim from existing cases: every case must exist and belong to no other claim; `case_ids` lists each case once.',
    },
  ],
  [setClaimCasesBody, 'SetClaimCases', { description: "The complete new list of the claim's cases." }],
  [
    fileBody,
    'FileRequest',
    publicReference(
      'The filing mode: `chargeback` files every case that passes validation, `auto` lets the workflow rules decide per case.',
    ),
  ],
  [
    fileClaimResultSchema,
    'FileClaimResult',
    { description: 'One result per case of the claim; a case that fails validation is reported and not filed.' },
  ],
  [successSchema, 'Success', {}],
  [
    newClaimCaseSchema,
    'NewClaimCase',
    decided(
      'One case of a new_claim: its own amounts, merchant and transaction.',
      'Required: transaction amount, currency, date, and `transaction.arn` or a ' +
        '`network_details.<network>.switch_serial_number`. `custom_fields` and `program_id` per case are our ' +
        'addition.',
    ),
  ],
  [
    newClaimBody,
    'NewClaim',
    decided(
      'A claim and all its cases: shared fields once, per-case fields in `cases`. The reason goes in ' +
        '`dispute.reason` or at the top level (both: they must agree); case ids are unique within the body.',
      'Required fields of this body are not shown: the sandbox requires `cases` (at least 1), `card.last4`, `card.network` and the reason.',
    ),
  ],
  [
    fileSchema,
    'File',
    {
      description:
        'An uploaded evidence file; `type` is the content type decided by the content (image/jpeg, image/png or application/pdf).',
    },
  ],
  [
    eventSchema,
    'Event',
    decided(
      publicReference('An event about a case (event types from the public reference).').description ?? '',
      `Each move of a case records \`case.<status>\`. ${outcomesNote}`,
      { [publicReferenceExtension]: true },
    ),
  ],
  [
    caseReviewSchema,
    'CaseReview',
    decided(
      'The review of a case. While `processing` the data is incomplete, so every part is optional.',
      'The inner shape of `documentation_review` (one verdict per attached file), the workflow outcomes ' +
        'beyond `file_chargeback` (`queue`, `hold`, `flag_for_review`), `fraud_liability` and the ' +
        '`filing_window_expired` code are ours.',
    ),
  ],
  [
    v1IssuerEvidenceSchema,
    'V1IssuerEvidence',
    decided(
      'Version 1 evidence, flat names.',
      'The document lists examples only: those plus the v2 sub-objects whose names did not change; `resolution` is any object.',
    ),
  ],
  [
    v1TransactionSchema,
    'V1Transaction',
    { description: 'The flat version 1 transaction: `arn` or `switch_serial_number` is required.' },
  ],
  [v1CreateCaseBody, 'V1CreateCase', { description: 'A version 1 case. `file` files it on creation.' }],
  [
    v1CaseSchema,
    'V1Case',
    { description: 'A version 1 case as returned. What a create requires is not required back.' },
  ],
  [simpleErrorSchema, 'SimpleError', { description: 'The simple error shape (Errors).' }],
  [
    validationErrorItemSchema,
    'ValidationErrorItem',
    decided(
      'One problem: a code, details naming the field (`details.field`, a dot-path) or file category, and a message.',
      "The complete list of codes is not shown: the sandbox's codes are listed in docs/sandbox.md.",
    ),
  ],
  [
    validationErrorSchema,
    'ValidationError',
    { description: 'The validation error shape (Errors): a message and one item per problem.' },
  ],
];

/** Every list answers `{data, has_more}`, newest first (docs/interface.md). */
const lists: [z.ZodType, string][] = [
  [claimSummarySchema, 'ClaimList'],
  [caseObject, 'CaseList'],
  [eventSchema, 'EventList'],
  [v1CaseSchema, 'V1CaseList'],
];

/** `components.schemas`, keyed by name, with `$ref`s between them as `#/components/schemas/Name`. */
export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<Metadata & { id: string }>();
  for (const [schema, id, metadata] of components) registry.add(schema, { ...metadata, id });
  for (const [item, id] of lists)
    registry.add(listPage(item), {
      id,
      description: 'A page of the list, newest first; `has_more` says whether another page follows.',
    });
  // Input: what is written on the wire, before any transform a reading applies (caseSchema mirrors the reason).
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      // Each component is a part of the document, not a JSON Schema resource of its own.
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/** A reference to a named schema. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** A field of a wire schema on its own (a query parameter), converted the same way. */
export function fieldSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  return rest;
}
