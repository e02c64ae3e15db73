import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { defaultServerUrl, openApiDocument, openApiDocumentPath, openApiText } from '../../src/api/openapi/document.js';
import {
  decisionExtension,
  decisionPrefix,
  publicReferenceExtension,
  publicReferencePrefix,
} from '../../src/api/openapi/provenance.js';
import {
  caseStatuses,
  disputeReasons,
  eventTypes,
  uploadCategories,
  v1DisputeReasons,
} from '../../src/api/schemas/known-values.js';
import { routes } from '../../src/sandbox/route-table.js';

/**
 * openapi/claims-service.json is generated from the wire schemas and never edited by hand (the
 * drift test, as mappings/mapping.schema.json's), and it describes what the sandbox serves: every
 * route, its answers and their shapes, and where each answer comes from.
 */

type Json = Record<string, unknown>;
const document = openApiDocument() as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
const methods = ['get', 'post', 'put', 'delete'];
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  methods.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] as Json })),
);

/** Every object in the tree, with its JSON pointer. */
function* walk(value: unknown, pointer = ''): Generator<[string, Json]> {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) yield [pointer, value as Json];
  for (const [key, child] of Object.entries(value))
    yield* walk(child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
}

/** The value at a JSON pointer (RFC 6901). */
const at = (pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, key) => (node as Json | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    );

describe('openapi/claims-service.json', () => {
  it('is exactly what `npm run openapi` writes from the wire schemas (regenerate it, never edit it)', async () => {
    const committed = await readFile(openApiDocumentPath, 'utf8');
    expect(
      committed,
      'openapi/claims-service.json differs from the wire schemas: run `npm run openapi` and commit the result',
    ).toBe(openApiText());
  });

  it('has every v1 and v2 route of the sandbox, and nothing else: no control prefix', () => {
    const served = routes
      .filter((route) => route.control !== true)
      .map((route) => `${route.method} ${route.pattern}`)
      .sort();
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(served);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/_sandbox'))).toEqual([]);
  });

  it('every operation answers 401, 429, 500 and 503 in the simple shape; every one with a body, query or path can answer 400', () => {
    for (const { path, method, operation } of operations) {
      const responses = operation.responses as Json;
      for (const status of ['401', '429', '500', '503'])
        expect(responses[status], `${method} ${path} ${status}`).toBeDefined();
      const takesInput =
        operation.requestBody !== undefined || operation.parameters !== undefined || path.includes('{');
      if (takesInput) expect(responses['400'], `${method} ${path} 400`).toBeDefined();
      if (path.includes('{'))
        expect(responses['404'], `${method} ${path} 404`).toEqual({ $ref: '#/components/responses/NotFound' });
      expect(operation.security).toBeUndefined();
    }
    expect(at('/components/responses/BadRequest/content/application~1json/schema')).toEqual({
      oneOf: [{ $ref: '#/components/schemas/SimpleError' }, { $ref: '#/components/schemas/ValidationError' }],
    });
    expect(at('/components/securitySchemes/apiKey')).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(at('/security')).toEqual([{ apiKey: [] }]);
  });

  it('carries the ranges and enums of the wire schemas: limit 1-100, ids up to 126, reasons, statuses, categories, event types', () => {
    expect(at('/components/parameters/Limit/schema')).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 10,
    });
    expect(at('/components/schemas/Identifier')).toMatchObject({ type: 'string', minLength: 1, maxLength: 126 });
    expect(at('/components/schemas/Dispute/properties/reason/enum')).toEqual([...disputeReasons]);
    expect(at('/components/schemas/V1CreateCase/properties/reason/enum')).toEqual([...v1DisputeReasons]);
    expect(at('/components/schemas/Case/properties/status/enum')).toEqual([...caseStatuses]);
    expect(at('/components/schemas/Event/properties/type/enum')).toEqual([...eventTypes]);
    expect(
      at('/paths/~1v2~1issuer~1files/post/requestBody/content/multipart~1form-data/schema/properties/category/enum'),
    ).toEqual([...uploadCategories]);
    expect(at('/components/schemas/NewClaim/required')).toEqual(expect.arrayContaining(['card', 'cases']));
  });

  it('marks what the sandbox decided where the service\'s own document says "not shown", and says so in words', () => {
    const marked = [...walk(document)].filter(([, node]) => node[decisionExtension] === true);
    for (const [pointer, node] of marked) expect(String(node.description), pointer).toContain(decisionPrefix);
    const pointers = marked.map(([pointer]) => pointer);
    for (const expected of [
      '/components/schemas/MinorUnits', // unit of amounts
      '/components/schemas/NewClaim', // required fields of new_claim
      '/components/schemas/CaseReview', // documentation_review's shape, workflow outcomes
      '/components/responses/Unauthorized', // the error body of failed authentication
      '/components/responses/Conflict', // duplicate client-supplied ids
      '/components/responses/ValidationFailed', // malformed requests on other endpoints
      '/paths/~1v2~1issuer~1cases~1{case_id}~1withdraw/post', // the next state of a withdrawn case
      '/paths/~1v2~1issuer~1new_claim/post/responses/201', // success statuses not shown
      '/webhooks/caseEvent/post', // signing and retries
    ])
      expect(pointers).toContain(expected);
    const fromReference = [...walk(document)].filter(([, node]) => node[publicReferenceExtension] === true);
    for (const [pointer, node] of fromReference)
      expect(String(node.description), pointer).toContain(publicReferencePrefix);
    expect(fromReference.map(([pointer]) => pointer)).toContain('/paths/~1v2~1issuer~1claims~1{claim_id}/get');
  });

  it('names the sandbox at its default address; a served copy names its own', () => {
    expect(at('/servers/0/url')).toBe(defaultServerUrl);
    expect((openApiDocument('http://127.0.0.1:5555').servers as Json[])[0]).toMatchObject({
      url: 'http://127.0.0.1:5555',
    });
  });
});
