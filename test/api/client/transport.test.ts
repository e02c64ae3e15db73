import { describe, expect, it } from 'vitest';
import {
  ClaimsHttpError,
  ClaimsNetworkError,
  OutcomeUnknownError,
  ResponseShapeError,
} from '../../../src/api/errors.js';
import { clientFor } from '../../helpers/client.js';
import { delayed, json, startScriptedServer, type Step } from '../../helpers/scripted-server.js';

const page = { data: [], has_more: false };

describe('connection pool', () => {
  it('opens no more connections than the concurrency it was given, and reuses them', async () => {
    const server = await startScriptedServer(() => delayed(30, json(200, page)));
    const client = clientFor(server.url, { concurrency: 3 });

    const results = await Promise.all(Array.from({ length: 12 }, async () => client.claims.list()));

    expect(results).toHaveLength(12);
    expect(server.peakConnections).toBe(3);
  });
});

describe('timeouts', () => {
  const silent: Step = async () => new Promise<void>(() => undefined);

  it('retries a read whose headers never came, then reports the network error', async () => {
    const server = await startScriptedServer(() => silent);
    const client = clientFor(server.url, { headersTimeoutMs: 50, retry: { maxAttempts: 2 } });

    const error = await client.cases.review('case_1').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ClaimsNetworkError);
    expect(error).toMatchObject({ networkCode: 'UND_ERR_HEADERS_TIMEOUT', attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a filing whose answer timed out as outcome-unknown, sent once', async () => {
    const server = await startScriptedServer(() => silent);
    const client = clientFor(server.url, { headersTimeoutMs: 50 });

    const error = await client.claims.file('claim_1', { file_mode: 'chargeback' }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as Error).message).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(server.requests).toHaveLength(1);
  });
});

describe('answers that are not what the document says', () => {
  it.each([
    [
      'a body that is not JSON',
      (_request, response) => response.end('<html>gateway</html>'),
      '',
      'expected a JSON body, got "<html>gateway</html>"',
    ],
    ['a page without has_more', json(200, { data: [] }), 'has_more', 'expected boolean'],
    [
      'a claim id that is a number',
      json(200, { data: [{ claim_id: 5, created: '2026-11-01T10:00:00Z', status: 'open' }], has_more: false }),
      'data.0.claim_id',
      'expected string',
    ],
  ] satisfies [string, Step, string, string][])(
    '%s is a ResponseShapeError naming the field',
    async (_name, step, path, message) => {
      const server = await startScriptedServer([step]);
      const error = await clientFor(server.url)
        .claims.list()
        .catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(ResponseShapeError);
      expect(error).toMatchObject({
        code: 'CLAIMS_RESPONSE_SHAPE',
        status: 200,
        issues: [{ path, message: expect.stringContaining(message) as unknown }],
      });
    },
  );
});

describe('error bodies', () => {
  it('reads the validation shape into message and errors[]', async () => {
    const body = {
      message: 'case failed validation',
      errors: [
        {
          code: 'documentation_missing',
          details: { file_category: 'transaction_receipt' },
          message: 'a transaction receipt is required',
        },
      ],
    };
    const server = await startScriptedServer([json(400, body)]);
    const error = await clientFor(server.url)
      .cases.runWorkflow('case_1')
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ClaimsHttpError);
    expect(error).toMatchObject({
      code: 'CLAIMS_INVALID_REQUEST',
      status: 400,
      serviceMessage: 'case failed validation',
      errors: body.errors,
      attempts: 1,
    });
    expect((error as Error).message).toBe(
      'POST /v2/issuer/cases/case_1/run_workflow: 400: case failed validation [documentation_missing] (1 attempt)',
    );
  });

  it.each([
    [404, { message: 'claim not found' }, 'CLAIMS_NOT_FOUND', 'claim not found'],
    [409, { message: 'claim_id already exists' }, 'CLAIMS_CONFLICT', 'claim_id already exists'],
    [403, { message: 'key lacks permission' }, 'CLAIMS_PERMISSION', 'key lacks permission'],
  ])('reads the simple shape: %i', async (status, body, code, serviceMessage) => {
    const server = await startScriptedServer([json(status, body)]);
    const error = await clientFor(server.url)
      .claims.withdraw('claim_1')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code, status, serviceMessage, errors: [] });
  });

  it('falls back to the text, or the status phrase, when the body is not JSON', async () => {
    const server = await startScriptedServer([
      (_request, response) => {
        response.writeHead(400);
        response.end('bad   request\nbody');
      },
      (_request, response) => {
        response.writeHead(404);
        response.end();
      },
    ]);
    const client = clientFor(server.url);
    await expect(client.cases.delete('case_1')).rejects.toMatchObject({ serviceMessage: 'bad request body' });
    await expect(client.cases.delete('case_1')).rejects.toMatchObject({ serviceMessage: 'Not Found' });
  });
});
