import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFaultInjector } from '../../src/sandbox/faults/seeded-faults.js';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

/**
 * A client with a valid key that sends its request a byte at a time holds a connection no longer
 * than the request bound (`requestTimeoutMs`, 30 s by default: docs/sandbox.md): then 408
 * `{message}` and the connection closed, nothing created, nothing logged as the sandbox's error.
 * The bound is set short here; Node looks for requests past it once a second.
 */

const boundMs = 1500;
/** The bound, Node's once-a-second look, and room for a slow shared machine. */
const cutWithinMs = boundMs + 1000 + 3000;
const authorization = `Basic ${Buffer.from(`${sandboxKey}:`).toString('base64')}`;

interface Trickle {
  /** Everything the sandbox sent, once it closed the connection. */
  answer: Promise<string>;
  /** Milliseconds from the first byte sent to the connection's close. */
  elapsedMs: () => number;
  bytesSent: () => number;
}

/** Sends `head`, then `body` one byte every `everyMs`, until the sandbox closes the connection. */
function trickle(url: string, head: string, body: string, everyMs: number): Trickle {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  onTestFinished(() => {
    socket.destroy();
  });
  const started = performance.now();
  let closedAt: number | undefined;
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    // A reset after the answer is fine: what counts is what arrived and that the connection ended.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closedAt = performance.now();
      clearInterval(timer);
      resolve(received);
    });
  });
  socket.once('connect', () => {
    socket.write(head);
    timer = setInterval(() => {
      if (sent < body.length && socket.writable) socket.write(body.charAt(sent++));
    }, everyMs);
  });
  return { answer, elapsedMs: () => (closedAt ?? performance.now()) - started, bytesSent: () => sent };
}

function statusAndBody(raw: string): { status: number; connection: string | undefined; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const connection = /\r\nconnection: ([^\r]*)/i.exec(head)?.[1];
  return { status, connection, body: body === '' ? undefined : (JSON.parse(body) as unknown) };
}

const bodyTimedOut = {
  message: `request timed out: expected the whole request within ${String(boundMs / 1000)} s, got only part of its body in that time`,
};
const headersTimedOut = {
  message: `request timed out: expected the request's headers within ${String(boundMs / 1000)} s, got only part of them in that time`,
};

describe('a request that trickles in is cut at the bound', () => {
  it.each([
    ['a new_claim body', '/v2/issuer/new_claim', 'application/json', JSON.stringify(fraudClaim('slow'))],
    [
      'an upload',
      '/v2/issuer/files',
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="category"\r\n\r\ntransaction_receipt\r\n--b--\r\n',
    ],
  ])('%s with a valid key: 408 {message}, the connection closed, nothing created', async (_name, path, type, body) => {
    const errors: unknown[] = [];
    const t = await startTestSandbox({
      requestTimeoutMs: boundMs,
      logger: { error: (...args: unknown[]) => errors.push(args) },
    });
    const head =
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(t.sandbox.url).host}\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: ${type}\r\nContent-Length: ${String(body.length)}\r\n\r\n`;
    const slow = trickle(t.sandbox.url, head, body, 100);
    const answer = statusAndBody(await slow.answer);
    expect(answer).toEqual({ status: 408, connection: 'close', body: bodyTimedOut });
    // Cut at the bound, not before (so a request within it is never cut) and not long after.
    expect(slow.elapsedMs()).toBeGreaterThanOrEqual(boundMs);
    expect(slow.elapsedMs()).toBeLessThan(cutWithinMs);
    expect(slow.bytesSent()).toBeLessThan(body.length);
    expect((await t.client.claims.list()).data.data).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('headers that trickle in: 408 at the same bound', async () => {
    const t = await startTestSandbox({ requestTimeoutMs: boundMs });
    const head = `GET /v2/issuer/claims HTTP/1.1\r\nHost: ${new URL(t.sandbox.url).host}\r\n`;
    const slow = trickle(t.sandbox.url, '', `${head}Authorization: ${authorization}\r\n\r\n`, 100);
    expect(statusAndBody(await slow.answer)).toEqual({ status: 408, connection: 'close', body: headersTimedOut });
    expect(slow.elapsedMs()).toBeLessThan(cutWithinMs);
  });

  it('a request that takes half the bound to arrive is answered', async () => {
    const t = await startTestSandbox({ requestTimeoutMs: boundMs, workflowDelayMs: 10 });
    const body = JSON.stringify(fraudClaim('slow_but_in_time'));
    const head =
      `POST /v2/issuer/new_claim HTTP/1.1\r\nHost: ${new URL(t.sandbox.url).host}\r\nAuthorization: ${authorization}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${String(body.length)}\r\nConnection: close\r\n\r\n`;
    // The body in ten pieces over about half the bound.
    const pieces = Array.from({ length: 10 }, (_, index) =>
      body.slice((index * body.length) / 10, ((index + 1) * body.length) / 10),
    );
    const { hostname, port } = new URL(t.sandbox.url);
    const socket = connect(Number(port), hostname);
    onTestFinished(() => {
      socket.destroy();
    });
    const received = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => {
        resolve(text);
      });
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(head);
    for (const piece of pieces) {
      await new Promise((resolve) => setTimeout(resolve, boundMs / 20));
      socket.write(piece);
    }
    expect(statusAndBody(await received).status).toBe(201);
    expect((await t.client.claims.retrieve('slow_but_in_time')).status).toBe(200);
  });

  it('a handler slower than the bound is not cut: the bound is on receiving the request', async () => {
    const t = await startTestSandbox({
      requestTimeoutMs: boundMs,
      faults: createFaultInjector({ latencyMs: boundMs + 1500 }),
    });
    const started = performance.now();
    expect((await t.client.claims.list()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(boundMs + 1000);
  });
});
