import { describe, expect, it } from 'vitest';
import { clientFor } from '../../helpers/client.js';
import { json, startScriptedServer, type Step } from '../../helpers/scripted-server.js';

const pngBytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);
const storedFile = {
  id: 'file_1',
  category: 'transaction_receipt',
  created: '2026-11-01T10:00:00Z',
  type: 'image/png',
};

describe('multipart upload', () => {
  it('sends identical bytes when retried on 503', async () => {
    const server = await startScriptedServer([json(503, { message: 'busy' }), json(200, storedFile)]);
    const client = clientFor(server.url);

    const result = await client.files.upload({
      category: 'transaction_receipt',
      filename: 'receipt "1".png',
      contentType: 'image/png',
      content: pngBytes,
    });

    expect(result).toMatchObject({ attempts: 2, data: storedFile });
    const [first, second] = server.requests;
    expect(first?.body.equals(second?.body ?? Buffer.alloc(0))).toBe(true);
    expect(first?.headers['content-type']).toBe(second?.headers['content-type']);
  });

  it('encodes the category and the file part as RFC 7578 multipart', async () => {
    const server = await startScriptedServer([json(200, storedFile)]);
    await clientFor(server.url).files.upload({
      category: 'transaction_receipt',
      filename: 'receipt "1".png',
      contentType: 'image/png',
      content: pngBytes,
    });

    const request = server.requests[0];
    const boundary = /boundary=(.+)$/.exec(request?.headers['content-type'] ?? '')?.[1] ?? '';
    expect(boundary).toMatch(/^bulk-disputes-[0-9a-f]{32}$/);
    const body = request?.body ?? Buffer.alloc(0);
    const text = body.toString('latin1');
    expect(text).toContain(
      `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\ntransaction_receipt\r\n`,
    );
    expect(text).toContain(
      'Content-Disposition: form-data; name="file"; filename="receipt %221%22.png"\r\nContent-Type: image/png\r\n\r\n',
    );
    expect(body.includes(pngBytes)).toBe(true);
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });

  it('refuses an unknown category before sending', async () => {
    const server = await startScriptedServer([]);
    const upload = clientFor(server.url).files.upload({
      category: 'selfie' as 'other',
      filename: 'a.png',
      contentType: 'image/png',
      content: pngBytes,
    });
    await expect(upload).rejects.toMatchObject({
      code: 'CLAIMS_REQUEST_INVALID',
      attempts: 0,
      issues: [{ path: 'category' }],
    });
    expect(server.requests).toHaveLength(0);
  });
});

/** A list of 25 events, newest first, answering limit / starting_after / ending_before as the service does. */
function eventList(): Step {
  const events = Array.from({ length: 25 }, (_, index) => ({
    event_id: `event_${String(25 - index).padStart(2, '0')}`,
    type: 'case.chargeback_filed',
    created: new Date(Date.UTC(2026, 10, 1, 0, 25 - index)).toISOString(),
    data: { case_id: `case_${25 - index}` },
  }));
  return (request, response) => {
    const query = new URL(request.url, 'http://localhost').searchParams;
    const limit = Number(query.get('limit') ?? 10);
    const after = query.get('starting_after');
    const before = query.get('ending_before');
    let start = 0;
    let end = Math.min(limit, events.length);
    if (after) {
      start = events.findIndex((event) => event.event_id === after) + 1;
      end = Math.min(start + limit, events.length);
    } else if (before) {
      end = events.findIndex((event) => event.event_id === before);
      start = Math.max(0, end - limit);
    }
    // has_more: records remain beyond this page in the direction of travel.
    const hasMore = before ? start > 0 : end < events.length;
    json(200, { data: events.slice(start, end), has_more: end > start && hasMore })(request, response);
  };
}

describe('pagination', () => {
  it('walks 3 pages with limit and starting_after, newest to oldest', async () => {
    const server = await startScriptedServer(() => eventList());
    const ids: string[] = [];
    for await (const event of clientFor(server.url).events.listAll({ limit: 10 })) ids.push(event.event_id);

    expect(server.requests.map((request) => request.url)).toEqual([
      '/v2/issuer/events?limit=10',
      '/v2/issuer/events?limit=10&starting_after=event_16',
      '/v2/issuer/events?limit=10&starting_after=event_06',
    ]);
    expect(ids).toHaveLength(25);
    expect(ids[0]).toBe('event_25');
    expect(ids.at(-1)).toBe('event_01');
  });

  it('walks from ending_before towards newer records, oldest first', async () => {
    const server = await startScriptedServer(() => eventList());
    const ids: string[] = [];
    for await (const event of clientFor(server.url).events.listAll({ limit: 4, ending_before: 'event_15' }))
      ids.push(event.event_id);

    expect(ids).toEqual(Array.from({ length: 10 }, (_, index) => `event_${String(16 + index)}`));
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v2/issuer/events?limit=4&ending_before=event_15',
      '/v2/issuer/events?limit=4&ending_before=event_19',
      '/v2/issuer/events?limit=4&ending_before=event_23',
    ]);
  });

  it('stops at an empty first page', async () => {
    const server = await startScriptedServer([json(200, { data: [], has_more: false })]);
    const items = [];
    for await (const item of clientFor(server.url).claims.listAll()) items.push(item);
    expect(items).toEqual([]);
    expect(server.requests[0]?.url).toBe('/v2/issuer/claims?limit=100');
  });
});
