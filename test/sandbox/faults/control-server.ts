import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { SandboxCore } from '../../../src/sandbox/core.js';
import { getFaults, setFaults } from '../../../src/sandbox/handlers/faults-control.js';
import { readJson } from '../../../src/sandbox/http/body.js';
import { SandboxHttpError } from '../../../src/sandbox/http/errors.js';
import type { HandlerCall, Reply } from '../../../src/sandbox/http/routes.js';
import { routes } from '../../../src/sandbox/route-table.js';

export interface ControlResponse {
  status: number;
  body: unknown;
}

/**
 * A real HTTP server serving only `GET|POST /faults` with the real handlers, around the core of
 * a real sandbox: the faults it sets are the ones that sandbox's routes meet. Closed when the
 * test ends.
 */
export async function startControlServer(
  core: SandboxCore,
): Promise<(method: 'GET' | 'POST', body?: unknown) => Promise<ControlResponse>> {
  const server = createServer((request, response) => {
    const handler = request.method === 'POST' ? setFaults : getFaults;
    const call: HandlerCall = {
      core,
      environment: 'sandbox',
      params: {},
      query: new URLSearchParams(),
      request,
      json: async () => readJson(request),
      routes,
    };
    handler(call)
      .catch((error: unknown): Reply => {
        if (error instanceof SandboxHttpError) return { status: error.status, body: error.body };
        return { status: 500, body: { message: String(error) } };
      })
      .then(
        (reply) => {
          response.writeHead(reply.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(reply.body));
        },
        () => response.destroy(),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    async () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  );
  const { port } = server.address() as AddressInfo;
  return async (method, body) => {
    const response = await fetch(`http://127.0.0.1:${port}/faults`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
}
