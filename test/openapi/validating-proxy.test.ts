import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedServer, type RecordedRequest } from '../helpers/scripted-server.js';
import { startValidatingProxy } from './validating-proxy.js';

/**
 * The proxied runs pass only because nothing differs from the document: here a scripted server
 * answers what the document does not allow, and the validating proxy must say so. It also shows
 * that an uploaded file crosses Prism byte for byte.
 */

const auth = { authorization: `Basic ${Buffer.from('test_key:').toString('base64')}` };
const json = (status: number, body: unknown) => (_request: RecordedRequest, response: ServerResponse) => {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
};

describe('the validating proxy', () => {
  it(
    'reports answers that do not match the document, and passes uploads through byte for byte',
    { timeout: 60_000 },
    async () => {
      const receipt = await readFile(
        new URL('../../samples/evidence/receipts/harbour-lane-receipt.jpg', import.meta.url),
      );
      const server = await startScriptedServer([
        // A claim summary with a field too many and `has_more` a string.
        json(200, {
          data: [{ claim_id: 'claim_1', created: '2026-11-20T12:00:00Z', status: 'open', colour: 'red' }],
          has_more: 'no',
        }),
        // An error in neither shape.
        json(404, { error: 'nope' }),
        // A status the operation never answers.
        json(418, { message: 'teapot' }),
        json(200, {
          id: 'file_1',
          category: 'transaction_receipt',
          created: '2026-11-20T12:00:00Z',
          type: 'image/jpeg',
        }),
      ]);
      const proxy = await startValidatingProxy(server.url);
      onTestFinished(async () => proxy.close());

      await (await fetch(`${proxy.url}/v2/issuer/claims?limit=5`, { headers: auth })).text();
      await (await fetch(`${proxy.url}/v2/issuer/claims/claim_1`, { headers: auth })).text();
      await (await fetch(`${proxy.url}/v2/issuer/cases/case_1`, { headers: auth })).text();
      const upload = new FormData();
      upload.set('category', 'transaction_receipt');
      upload.set('file', new Blob([receipt], { type: 'image/jpeg' }), 'receipt.jpg');
      await (await fetch(`${proxy.url}/v2/issuer/files`, { method: 'POST', headers: auth, body: upload })).text();

      const found = proxy.unexpected().map(({ exchange, violation }) => `${exchange} ${violation.location.join('.')}`);
      expect(found).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^GET \/v2\/issuer\/claims → 200 response\.body/),
          expect.stringMatching(/^GET \/v2\/issuer\/claims\/claim_1 → 404 response\.body/),
          expect.stringMatching(/^GET \/v2\/issuer\/cases\/case_1 → 418 response/),
        ]),
      );
      expect(found.filter((line) => line.startsWith('POST'))).toEqual([]);
      // What the server received is what was sent: the JPEG's bytes, inside the multipart body.
      const received = server.requests[3]?.body ?? Buffer.alloc(0);
      expect(received.includes(receipt)).toBe(true);
    },
  );
});
