import { uploadFields } from '../schemas/resources.js';
import { componentSchemas, fieldSchema, schemaRef, type JsonSchema } from './components.js';
import { operations, type Operation } from './operations.js';
import { decided, decisionExtension, publicReferenceExtension } from './provenance.js';
import {
  commonErrors,
  errorStatus,
  securitySchemes,
  sharedHeaders,
  sharedParameters,
  sharedResponses,
} from './responses.js';

/**
 * The interface as an OpenAPI 3.1 document, generated from the wire schemas and never
 * edited by hand: openapi/claims-service.json is this function's output (`npm run openapi`), the
 * sandbox serves it at /openapi.json, and a test fails when the two differ.
 */

/** Where the committed document lives, from src/api/openapi or dist/api/openapi alike. */
export const openApiDocumentPath = new URL('../../../openapi/claims-service.json', import.meta.url);

/** The address of `bulk-disputes sandbox` with its defaults; the served copy names its own. */
export const defaultServerUrl = 'http://127.0.0.1:4010';

const description = [
  'The Issuer Chargeback Claims Service (version 2, claims-based, and the version 1 case endpoints), as ' +
    'its interface document describes it and as `bulk-disputes sandbox` serves it.',
  '',
  'Generated from the zod wire schemas that the bulk-disputes TypeScript client and the sandbox both use: do not edit by hand.',
  '',
  `Where the interface document says "not shown", the answer is marked: \`${publicReferenceExtension}: ` +
    `true\` when the service's public reference gives it, \`${decisionExtension}: true\` when the sandbox ` +
    `decided it. The description of each marked part says which.`,
  '',
  'Responses are described as the sandbox sends them. Read them tolerantly: the production service may ' +
    'add fields and enum values (a new status, event type or reason) at any time.',
].join('\n');

export function openApiDocument(serverUrl = defaultServerUrl): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Issuer Chargeback Claims Service',
      version: '2.0.0',
      summary: 'Card disputes as claims and cases: create, file, withdraw, review, list; evidence files; events.',
      description,
    },
    servers: [
      {
        url: serverUrl,
        description: serverUrl === defaultServerUrl ? '`bulk-disputes sandbox` on its default port' : 'this sandbox',
      },
    ],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Claims', description: 'A claim groups one or more cases (interface document, "Claim").' },
      { name: 'Cases', description: 'A case is one disputed transaction.' },
      { name: 'Files', description: 'Evidence files, attached to cases by id in `issuer_evidence.documentation`.' },
      { name: 'Events', description: 'Events about cases, also delivered by webhooks.' },
      { name: 'Version 1', description: 'The version 1 case endpoints, for migration.' },
    ],
    paths: paths(),
    webhooks: webhooks(),
    components: {
      schemas: componentSchemas(),
      responses: sharedResponses(),
      parameters: sharedParameters(),
      headers: sharedHeaders(),
      securitySchemes: securitySchemes(),
    },
  };
}

/** The document as committed: two-space JSON and a final newline. */
export function openApiText(serverUrl?: string): string {
  return `${JSON.stringify(openApiDocument(serverUrl), null, 2)}\n`;
}

function paths(): Record<string, Record<string, unknown>> {
  const byPath: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    const entry = (byPath[operation.path] ??= {});
    const ids = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    // Path parameters once per path; every method of a path shares them.
    if (ids.length > 0)
      entry.parameters = ids.map((id) => ({
        $ref: `#/components/parameters/${id === 'claim_id' ? 'ClaimId' : 'CaseId'}`,
      }));
    entry[operation.method] = operationObject(operation);
  }
  return byPath;
}

function operationObject(operation: Operation): Record<string, unknown> {
  const { description: about, ...marks } = operation.about;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: about,
    ...marks,
    ...(operation.query ? { parameters: queryParameters(operation.query) } : {}),
    ...(operation.body ? { requestBody: requestBody(operation.body) } : {}),
    responses: responses(operation),
  };
}

function queryParameters(query: NonNullable<Operation['query']>): JsonSchema[] {
  const names = ['Limit', 'StartingAfter', 'EndingBefore', ...(query === 'v1-list' ? ['V1Status'] : [])];
  return names.map((name) => ({ $ref: `#/components/parameters/${name}` }));
}

function requestBody(body: NonNullable<Operation['body']>): Record<string, unknown> {
  if (body !== 'upload') return { required: true, content: { 'application/json': { schema: schemaRef(body.schema) } } };
  return {
    required: true,
    description: 'multipart/form-data with a `file` part (the bytes) and a `category` part.',
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', 'category'],
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              contentMediaType: 'application/octet-stream',
              description:
                'JPEG, PNG or PDF, decided by its content; under 4.5 MB (4,500,000 bytes); a PDF at most 5 pages.',
            },
            category: {
              ...fieldSchema(uploadFields.shape.category),
              ...decided(
                'The file category.',
                "`valid_document` and `invalid_document` (test mode, `test_` keys only) force the documentation review's verdict.",
              ),
            },
          },
        },
        encoding: { file: { contentType: 'image/jpeg, image/png, application/pdf' } },
      },
    },
  };
}

function responses(operation: Operation): Record<string, unknown> {
  const { success } = operation;
  const answers: Record<string, unknown> = {
    [success.status]: { ...success.about, content: { 'application/json': { schema: schemaRef(success.schema) } } },
  };
  for (const answer of operation.errors) answers[errorStatus[answer]] = { $ref: `#/components/responses/${answer}` };
  for (const [status, name] of Object.entries(commonErrors))
    answers[status] ??= { $ref: `#/components/responses/${name}` };
  return Object.fromEntries(Object.entries(answers).sort(([a], [b]) => a.localeCompare(b)));
}

/** Event delivery, a sandbox feature: the service's webhook format is public, its signing is not. */
function webhooks(): Record<string, unknown> {
  return {
    caseEvent: {
      post: {
        operationId: 'receiveCaseEvent',
        summary: 'An event about a case, POSTed to each `--webhook-url`',
        ...decided(
          'The sandbox POSTs every event to the URLs given at start-up. Answer 2xx within 10 s, or the delivery is retried on `--webhook-retry-schedule`.',
          "Webhook registration, signing and retries are not shown. The payload is the public reference's; the " +
            'signature (`bulk-disputes-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`) is ' +
            'ours (docs/sandbox.md, "Webhooks").',
        ),
        security: [],
        parameters: [
          {
            name: 'bulk-disputes-signature',
            in: 'header',
            required: true,
            description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the webhook secret.',
            schema: { type: 'string' },
          },
          {
            name: 'bulk-disputes-environment',
            in: 'header',
            required: true,
            description: 'The environment of the event.',
            schema: { type: 'string', enum: ['sandbox', 'production'] },
          },
          {
            name: 'bulk-disputes-delivery-attempt',
            in: 'header',
            required: true,
            description: '1 for the first attempt, then 2, 3, …',
            schema: { type: 'integer', minimum: 1 },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('Event') } } },
        responses: { 200: { description: 'Received. Any 2xx will do; anything else is retried.' } },
      },
    },
  };
}
