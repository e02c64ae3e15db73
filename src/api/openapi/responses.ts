import { listQueryFields } from '../schemas/list.js';
import { v1CaseStatuses } from '../schemas/known-values.js';
import { fieldSchema, schemaRef, type JsonSchema } from './components.js';
import type { ErrorAnswer } from './operations.js';
import { decided, publicReference, type Metadata } from './provenance.js';

/**
 * The shared parts of the document: error answers (`components.responses`), their headers, the
 * paging and path parameters, and HTTP Basic with the key as the user name.
 */

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const simple = json(schemaRef('SimpleError'));
const eitherShape = json({ oneOf: [schemaRef('SimpleError'), schemaRef('ValidationError')] });

const retryAfter = { $ref: '#/components/headers/RetryAfter' };

/** Answers every operation can give: no key, too many requests, unavailable, internal error. */
export const commonErrors = {
  401: 'Unauthorized',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
} as const;

/** The status of each operation-specific error answer. */
export const errorStatus: Record<ErrorAnswer, number> = {
  BadRequest: 400,
  ValidationFailed: 400,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  CaseUnavailable: 503,
};

function response(
  about: Metadata,
  content: Record<string, unknown>,
  headers?: Record<string, unknown>,
): Record<string, unknown> {
  return { ...about, ...(headers ? { headers } : {}), content };
}

export function sharedResponses(): Record<string, unknown> {
  return {
    BadRequest: response(
      decided(
        'Refused. The simple shape for a refusal by state (e.g. "cannot withdraw a case that is already ' +
          'closed"); the validation shape, one item per problem, for a body, query or path that does not match.',
        'Error bodies for malformed requests are not shown: the validation shape, naming each field at fault in `details.field`.',
      ),
      eitherShape,
    ),
    ValidationFailed: response(
      decided(
        'The body, query or path does not match: one item per problem, naming the field at fault in `details.field`.',
        'Error bodies for malformed requests are not shown: the validation shape.',
      ),
      json(schemaRef('ValidationError')),
    ),
    NotFound: response({ description: 'No such claim or case: "claim not found" or "case not found".' }, simple),
    Conflict: response(
      decided(
        'A client-supplied id is already taken in this environment, or a case already belongs to another claim.',
        'What the service does with a duplicate id is not shown: 409 with a message.',
      ),
      simple,
    ),
    PayloadTooLarge: response(decided('A JSON body over 1 MB.', 'Not shown: 413 with a message.'), simple),
    CaseUnavailable: response(
      {
        description:
          'The case is temporarily unavailable for filing ("case is temporarily unavailable for filing; retry ' +
          'later"), or the service is (see ServiceUnavailable).',
      },
      simple,
      { 'Retry-After': retryAfter },
    ),
    Unauthorized: response(
      decided(
        'Missing, malformed or unknown API key.',
        'The error body for failed authentication is not shown: the simple shape, with no ' +
          '`WWW-Authenticate` challenge, so that a browser never asks for a key and then sends it for a web page.',
      ),
      simple,
    ),
    TooManyRequests: response(
      publicReference('Too many requests for this API key: retry after the time `Retry-After` gives.'),
      simple,
      { 'Retry-After': retryAfter },
    ),
    ServiceUnavailable: response(
      decided(
        'The service is temporarily unavailable: retry later.',
        'The sandbox answers 503 only under fault injection (`--fail-rate`, `--capacity`).',
      ),
      simple,
      { 'Retry-After': retryAfter },
    ),
    InternalError: response(publicReference('An unexpected error: `{"message": "internal error"}`.'), simple),
  };
}

export function sharedHeaders(): Record<string, unknown> {
  return {
    RetryAfter: {
      ...decided(
        'Seconds to wait before retrying.',
        'The public reference promises no Retry-After; the sandbox always sends one with 429 and 503.',
      ),
      schema: { type: 'integer', minimum: 0 },
    },
  };
}

const page = fieldSchema;

/** `limit`, `starting_after`, `ending_before` (and `status` on version 1), and the two ids of paths. */
export function sharedParameters(): Record<string, unknown> {
  return {
    Limit: {
      name: 'limit',
      in: 'query',
      required: false,
      ...publicReference('Page size, 1 to 100 (Limits). Default 10.'),
      schema: { ...page(listQueryFields.limit.unwrap()), default: 10 },
    },
    StartingAfter: {
      name: 'starting_after',
      in: 'query',
      required: false,
      ...publicReference('The id of a record: the page of older records after it. Not together with `ending_before`.'),
      schema: page(listQueryFields.starting_after.unwrap()),
    },
    EndingBefore: {
      name: 'ending_before',
      in: 'query',
      required: false,
      ...publicReference(
        'The id of a record: the page of newer records before it. Not together with `starting_after`.',
      ),
      schema: page(listQueryFields.ending_before.unwrap()),
    },
    V1Status: {
      name: 'status',
      in: 'query',
      required: false,
      description: 'Only cases in this status.',
      schema: { type: 'string', enum: [...v1CaseStatuses] },
    },
    ClaimId: {
      name: 'claim_id',
      in: 'path',
      required: true,
      description: 'The claim.',
      schema: schemaRef('Identifier'),
    },
    CaseId: { name: 'case_id', in: 'path', required: true, description: 'The case.', schema: schemaRef('Identifier') },
  };
}

export function securitySchemes(): Record<string, unknown> {
  return {
    apiKey: {
      type: 'http',
      scheme: 'basic',
      description:
        'HTTP Basic with the API key as the user name and an empty password: `Authorization: Basic ' +
        'base64("<API_KEY>:")`. Keys that start with `test_` reach the sandbox environment.',
    },
  };
}
