import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ClaimsConfigError, ClaimsNetworkError, OutcomeUnknownError } from '../../../src/api/errors.js';
import { ClaimsClient } from '../../../src/api/client/index.js';
import { clientFor, testApiKey } from '../../helpers/client.js';
import { json, resetAfterReceiving, startScriptedServer } from '../../helpers/scripted-server.js';

const createBody = { case_ids: ['case_1'], claim_id: 'claim_1' };
const claim = { claim_id: 'claim_1', created: '2026-11-01T10:00:00Z', status: 'open', cases: [{ case_id: 'case_1' }] };

/** A TCP server that accepts and drops every connection: a TLS handshake never completes. */
async function startDroppingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('was the request sent? decided by the phase that failed', () => {
  it('a reset during the TLS handshake is "not sent": a create is retried, never outcome-unknown', async () => {
    const server = await startDroppingServer();
    const error = await clientFor(server.url, { retry: { maxAttempts: 3 } })
      .claims.create(createBody)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ClaimsNetworkError);
    expect(error).toMatchObject({ attempts: 3, stoppedBy: 'attempts-exhausted' });
    expect(server.connections()).toBe(3);
  });

  it('a kept-alive connection that breaks after a create was written is outcome-unknown', async () => {
    const server = await startScriptedServer([json(200, claim), resetAfterReceiving, json(201, claim)]);
    const client = clientFor(server.url, { concurrency: 1 });

    await client.claims.retrieve('claim_1');
    const error = await client.claims.create(createBody).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(server.requests).toHaveLength(2);
    // The create went out on the connection the read had opened.
    expect(server.totalConnections).toBe(1);
  });
});

describe('answers the document leaves open', () => {
  it('a case update answered 204 with no body succeeds', async () => {
    const server = await startScriptedServer([
      (_request, response) => {
        response.writeHead(204);
        response.end();
      },
    ]);
    const result = await clientFor(server.url).cases.update('case_1', { custom_fields: { ref: 'A-1' } });
    expect(result).toMatchObject({ status: 204, attempts: 1, data: undefined });
  });

  it('an empty body where one is expected is a ResponseShapeError saying so', async () => {
    const emptyServer = await startScriptedServer([
      (_request, response) => {
        response.writeHead(200);
        response.end();
      },
    ]);
    await expect(clientFor(emptyServer.url).claims.retrieve('claim_1')).rejects.toMatchObject({
      code: 'CLAIMS_RESPONSE_SHAPE',
      issues: [{ path: '', message: 'expected a JSON body, got an empty one' }],
    });
  });
});

describe('input checked at the door', () => {
  it('an upload content type with a line break is refused before sending', async () => {
    const server = await startScriptedServer([]);
    const upload = clientFor(server.url).files.upload({
      category: 'other',
      filename: 'a.pdf',
      contentType: 'application/pdf\r\nX-Injected: 1',
      content: Buffer.from('%PDF-1.4'),
    });
    await expect(upload).rejects.toMatchObject({ code: 'CLAIMS_REQUEST_INVALID', attempts: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('a bad retry policy is a ClaimsConfigError, like every other bad option', () => {
    expect(
      () => new ClaimsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: testApiKey, retry: { maxAttempts: 0 } }),
    ).toThrow(ClaimsConfigError);
  });
});
