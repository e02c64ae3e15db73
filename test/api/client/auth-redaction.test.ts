import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../../src/api/client/index.js';
import { ClaimsConfigError } from '../../../src/api/errors.js';
import { createLogger } from '../../../src/logging/logger.js';
import { clientFor, testApiKey } from '../../helpers/client.js';
import { json, resetAfterReceiving, startScriptedServer, type Step } from '../../helpers/scripted-server.js';

const encodedKey = Buffer.from(`${testApiKey}:`).toString('base64');

/** A pino destination that keeps every line (pino test/helper.js `sink()`). */
function logSink(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

/** A misbehaving service that echoes the credentials it received into its error message. */
const echoCredentials: Step = (request, response) => {
  const authorization = request.headers.authorization ?? '';
  json(401, {
    message: `unknown key ${testApiKey} in ${authorization}`,
    errors: [{ code: 'bad_key', details: { header: authorization }, message: authorization }],
  })(request, response);
};

describe('authentication', () => {
  it('sends Authorization: Basic base64(key + ":") on every request', async () => {
    const server = await startScriptedServer([
      json(503, { message: 'busy' }),
      json(200, { data: [], has_more: false }),
    ]);
    await clientFor(server.url).claims.list();

    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      `Basic ${encodedKey}`,
      `Basic ${encodedKey}`,
    ]);
    expect(Buffer.from(encodedKey, 'base64').toString()).toBe(`${testApiKey}:`);
  });

  it('keeps a base URL path prefix', async () => {
    const server = await startScriptedServer([json(200, { data: [], has_more: false })]);
    await clientFor(`${server.url}/claims-api/`).events.list({ limit: 5 });
    expect(server.requests[0]?.url).toBe('/claims-api/v2/issuer/events?limit=5');
  });
});

describe('the API key never leaves in an error or a log line', () => {
  it('is absent from the error, its fields and every log line, even when the service echoes it', async () => {
    const server = await startScriptedServer([resetAfterReceiving, echoCredentials]);
    const sink = logSink();
    const logger = createLogger({ level: 'trace', destination: sink.stream });
    const client = clientFor(server.url, { logger });

    const error = await client.claims.retrieve('claim_1').catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'CLAIMS_AUTHENTICATION', status: 401, attempts: 2 });
    const everything = [
      (error as Error).message,
      (error as Error).stack ?? '',
      JSON.stringify(error),
      JSON.stringify(Object.entries(error as object)),
      ...sink.lines,
    ].join('\n');
    expect(sink.lines.length).toBeGreaterThanOrEqual(3);
    expect(everything).toContain('[REDACTED]');
    expect(everything).not.toContain(testApiKey);
    expect(everything).not.toContain(encodedKey);
  });

  it('is absent from a ResponseShapeError when a success answer echoes it', async () => {
    const server = await startScriptedServer([
      (request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<html>proxy says ${request.headers.authorization ?? ''} for ${testApiKey}</html>`);
      },
    ]);
    const error = await clientFor(server.url)
      .claims.retrieve('claim_1')
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'CLAIMS_RESPONSE_SHAPE' });
    const everything = [(error as Error).message, (error as Error).stack ?? '', JSON.stringify(error)].join('\n');
    expect(everything).toContain('[REDACTED]');
    expect(everything).not.toContain(testApiKey);
    expect(everything).not.toContain(encodedKey);
  });

  it('is censored by the logger wherever a field could carry it', () => {
    const sink = logSink();
    createLogger({ destination: sink.stream }).info(
      {
        apiKey: testApiKey,
        request: { headers: { authorization: `Basic ${encodedKey}` } },
        config: { api_key: testApiKey },
      },
      'configured',
    );
    expect(sink.lines.join('')).not.toContain(testApiKey);
    expect(sink.lines.join('')).not.toContain(encodedKey);
  });

  it('is not quoted by configuration errors', () => {
    const badKey = 'live_secret:with-colon';
    const construct = () => new ClaimsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: badKey });
    expect(construct).toThrow(ClaimsConfigError);
    expect(construct).toThrow(/expected no colon/);
    try {
      construct();
    } catch (caught) {
      expect((caught as Error).message).not.toContain('secret');
    }
  });
});

describe('configuration is checked at the door', () => {
  it.each([
    [{ baseUrl: 'ftp://example.com' }, 'base URL: expected an http or https URL, got ftp:'],
    [{ baseUrl: 'not a url' }, 'base URL: expected an http or https URL, got "not a url"'],
    [{ baseUrl: 'https://user:pw@example.com' }, 'base URL: expected no credentials in the URL'],
    [{ apiKey: '' }, 'API key: expected a non-empty key, got an empty one'],
    [{ apiKey: 'test_abc\n' }, 'API key: expected no colon, line break or control character'],
    [{ concurrency: 0 }, 'concurrency: expected a whole number from 1 and up, got 0'],
    [{ retry: { maxAttempts: 0 } }, 'retry policy maxAttempts: expected a whole number from 1 and up, got 0'],
    [{ retry: { baseDelayMs: -1 } }, 'retry policy baseDelayMs: expected a number from 0 and up, got -1'],
  ])('refuses %j', (override, message) => {
    expect(() => new ClaimsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: testApiKey, ...override })).toThrow(message);
  });
});
