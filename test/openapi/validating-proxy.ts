import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, createServer, request as forward, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stoplight Prism's validating proxy (`prism proxy`, docs/openapi.md) between a client and a sandbox,
 * behind a recorder that keeps every exchange and the violations Prism found in it. Prism
 * forwards every request, valid or not, and reports what does not match the document in the
 * `sl-violations` answer header (Prism docs, "Proxy"); the recorder reads that header, so a
 * violation is counted whoever sent the request (the test, the client, a CLI process).
 *
 * Prism reads a body that is not JSON as UTF-8 text and forwards that text (stoplightio/prism#1321),
 * which would mangle an uploaded PDF or image. So a multipart body crosses Prism in transit form:
 * each byte as one character, UTF-8 encoded (lossless, and the parts' names, headers and text
 * fields read the same to Prism's validator), restored to the original bytes behind Prism, before
 * the sandbox.
 *
 * A request the test sends invalid on purpose (the tests of 400 answers) carries the
 * `x-deliberately-invalid` header: its request violations are expected, and its answer must still
 * match the document's error shapes. The recorder removes the header before Prism sees it.
 */

export const deliberatelyInvalid = 'x-deliberately-invalid';
export const documentFile = fileURLToPath(new URL('../../openapi/claims-service.json', import.meta.url));

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Exchange {
  method: string;
  /** The path, without the query. */
  path: string;
  status: number;
  deliberatelyInvalid: boolean;
  violations: Violation[];
}

export interface ValidatingProxy {
  /** Point the client here. */
  url: string;
  exchanges(): readonly Exchange[];
  /** Violations that fail a test: any in a request not marked invalid, any in an answer. */
  unexpected(): { exchange: string; violation: Violation }[];
  close(): Promise<void>;
}

const prismBin = (() => {
  const manifest = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : (bin.prism ?? ''));
})();

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

/** Starts `prism proxy` for the committed document in front of `upstreamUrl`, and the recorder in front of it. */
export async function startValidatingProxy(upstreamUrl: string): Promise<ValidatingProxy> {
  const restorer = await startRelay(upstreamUrl, (headers) => {
    // Behind Prism: a body in transit form back to its own bytes.
    const inTransit = headers[transit] !== undefined;
    delete headers['x-body-in-transit-form'];
    return inTransit ? (body) => Buffer.from(body.toString('utf8'), 'latin1') : undefined;
  });
  const prism = await startPrism(restorer.url);
  const exchanges: Exchange[] = [];
  const recorder = await startRelay(
    prism.url,
    (headers) => {
      if (!(headers['content-type'] ?? '').startsWith('multipart/')) return undefined;
      headers[transit] = '1';
      return (body) => Buffer.from(body.toString('latin1'), 'utf8');
    },
    (request, status, headers, error) => {
      const marked = request.headers[deliberatelyInvalid] !== undefined;
      const path = (request.url ?? '').split('?')[0] ?? '';
      const violations =
        headers === undefined
          ? [
              {
                location: ['proxy'],
                severity: 'Error',
                code: 'proxy',
                message: `no answer through Prism: ${error?.message ?? 'unknown'}`,
              },
            ]
          : violationsOf(headers['sl-violations']);
      exchanges.push({ method: request.method ?? '', path, status, deliberatelyInvalid: marked, violations });
    },
  );

  return {
    url: recorder.url,
    exchanges: () => [...exchanges],
    unexpected: () =>
      exchanges.flatMap((exchange) =>
        exchange.violations
          .filter((violation) => !(exchange.deliberatelyInvalid && violation.location[0] === 'request'))
          .map((violation) => ({
            exchange: `${exchange.method} ${exchange.path} → ${exchange.status}${exchange.deliberatelyInvalid ? ' (deliberately invalid)' : ''}`,
            violation,
          })),
      ),
    close: async () => {
      await recorder.close();
      await prism.close();
      await restorer.close();
    },
  };
}

/** Marks a body in transit form (see above); deleted by its literal name below. */
const transit = 'x-body-in-transit-form';

async function bodyOf(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Recode = ((body: Buffer) => Buffer) | undefined;

/**
 * A pass-through HTTP relay on loopback. `prepare` may change the request's headers and return how
 * to recode its body (then buffered: an evidence file is under 4.5 MB); `onAnswer` sees each answer
 * (`headers` undefined: none came). The deliberately-invalid mark goes no further than the first.
 */
async function startRelay(
  targetUrl: string,
  prepare: (headers: IncomingHttpHeaders) => Recode,
  onAnswer: (
    request: IncomingMessage,
    status: number,
    headers: IncomingHttpHeaders | undefined,
    error?: Error,
  ) => void = () => undefined,
): Promise<{ url: string; close: () => Promise<void> }> {
  const target = new URL(targetUrl);
  // A connection per request: a kept-alive one that the next hop closes while idle (the import
  // waiting out a Retry-After) would fail the request reusing it, a failure no service caused.
  const agent = new Agent({ keepAlive: false });
  const server = createServer((incoming, outgoing) => {
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    delete headers['x-deliberately-invalid'];
    const recode = prepare(headers);
    const send = (body?: Buffer) => {
      if (body !== undefined) {
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.length);
      }
      const upstream = forward(
        { agent, host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers },
        (response) => {
          onAnswer(incoming, response.statusCode ?? 502, response.headers);
          // Hop-by-hop: each side of a relay keeps its own connection.
          const { connection: _connection, 'keep-alive': _keepAlive, ...answerHeaders } = response.headers;
          outgoing.writeHead(response.statusCode ?? 502, answerHeaders);
          response.pipe(outgoing);
        },
      );
      upstream.on('error', (error) => {
        onAnswer(incoming, 502, undefined, error);
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ message: `test relay: ${error.message}` }));
      });
      if (body === undefined) incoming.pipe(upstream);
      else upstream.end(body);
    };
    if (recode === undefined) send();
    else
      void bodyOf(incoming).then((body) => {
        send(recode(body));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

function violationsOf(header: string | string[] | undefined): Violation[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join('') : header;
  // Prism cuts a header over 8 kB and says so instead of sending JSON.
  if (text.startsWith('Too many violations!'))
    return [{ location: ['response'], severity: 'Error', code: 'many', message: text.slice(0, 2000) }];
  return JSON.parse(text) as Violation[];
}

async function startPrism(upstreamUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  // -m false: one process (the CLI's log reader in the same one), so one pid to stop.
  const child: ChildProcess = spawn(
    process.execPath,
    [prismBin, 'proxy', documentFile, upstreamUrl, '--host', '127.0.0.1', '--port', String(port), '-m', 'false'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test' },
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/Prism is listening on/.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`prism exited with ${String(code)} before listening:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) =>
        child.once('exit', () => {
          resolve();
        }),
      );
      child.kill('SIGTERM');
      await exited;
    },
  };
}
