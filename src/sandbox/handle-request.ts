import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxCore } from './core.js';
import type { FaultDecision } from './faults/fault-injector.js';
import type { authenticator } from './http/auth.js';
import { readJson } from './http/body.js';
import { refuseBrowserOrigin } from './http/browser-origin.js';
import { SandboxHttpError, simpleError } from './http/errors.js';
import { refuseNonJsonBody } from './http/json-content-type.js';
import { requestTarget } from './http/request-target.js';
import { JsonText, type routerFor } from './http/routes.js';
import { routes } from './route-table.js';

/** What every request of one sandbox is answered with. */
export interface RequestContext {
  readonly core: SandboxCore;
  readonly route: ReturnType<typeof routerFor>;
  readonly authenticate: ReturnType<typeof authenticator>;
}

/**
 * One request of the service's routes: a web page of another origin refused, the caller's key,
 * the route, a write's content type, an injected fault, the outcomes the clock has passed, the
 * handler, then the answer once what it says is durable and its latency has passed since it
 * arrived: the work is done within the latency, as a service's answer time includes its work.
 */
export async function handleRequest(
  { core, route, authenticate }: RequestContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const arrivedAt = performance.now();
  // A request admitted under --capacity holds its place until its answer is written.
  let release: (() => void) | undefined;
  let latencyMs = 0;
  try {
    // Before the key: a browser may hold one for the sandbox and send it with a hostile page's request.
    const crossOrigin = refuseBrowserOrigin(request);
    if (crossOrigin !== undefined) throw crossOrigin;
    const caller = authenticate(request.headers.authorization);
    if (caller instanceof SandboxHttpError) throw caller;
    const { environment } = caller;
    const { pathname, query } = requestTarget(request.url ?? '/');
    const match = route(request.method ?? 'GET', pathname);
    if (match === undefined) throw simpleError(404, `no such route: ${request.method ?? ''} ${pathname}`);
    if (match === 'method-not-allowed')
      throw simpleError(405, `method ${request.method ?? ''} not allowed on ${pathname}`);
    if (match.route.method !== 'GET' && match.route.body !== 'multipart') {
      const notJson = refuseNonJsonBody(request);
      if (notJson !== undefined) throw notJson;
    }
    // Control routes are never faulted: they are how faults are turned off.
    const fault = match.route.control === true ? undefined : core.faults.decide(match.route, core.now(), caller.apiKey);
    release = fault?.release;
    // No fault but latency (nearly every request) costs no await here.
    if (fault !== undefined && strikesBeforeHandling(fault) && (await injectBeforeHandling(fault, request))) return;
    latencyMs = fault?.latencyMs ?? 0;
    // With --outcomes, the moves the clock has passed are made first: every request sees them.
    // Nothing due (nearly every request): no await.
    const due = core.outcomes?.applyDue();
    if (due !== undefined) await due;
    // `json` bound rather than an async arrow around readJson: returning a promise from an async function costs another and two microtask turns.
    const reply = await match.route.handler({
      core,
      environment,
      params: match.params,
      query,
      request,
      json: readJson.bind(undefined, request),
      routes,
    });
    // No answer before what it says is durable (group commit: SandboxCore.transaction).
    await core.committed();
    // No latency (a sandbox without faults): no await.
    if (latencyMs > 0) await latencyPassed(arrivedAt, latencyMs);
    if (fault?.action === 'drop-after-commit') {
      request.socket.resetAndDestroy();
      return;
    }
    writeJson(response, reply.status, reply.body);
  } catch (error) {
    if (!(error instanceof SandboxHttpError)) throw error;
    // A refusal may have read what another request of this turn wrote: it waits too.
    await core.committed();
    // A refusal by the handler comes after the latency too; an injected one has waited it already.
    if (latencyMs > 0) await latencyPassed(arrivedAt, latencyMs);
    writeJson(response, error.status, error.body, error.headers);
  } finally {
    release?.();
  }
}

/** A refusal or a drop: the handler never runs, and the latency is waited before it. */
function strikesBeforeHandling(fault: FaultDecision): boolean {
  return fault.action !== 'none' && fault.action !== 'drop-after-commit';
}

/** Until `latencyMs` after `arrivedAt`, as closely as a timer keeps it (a bare server's setTimeout(latency) at arrival). */
async function latencyPassed(arrivedAt: number, latencyMs: number): Promise<void> {
  const left = arrivedAt + latencyMs - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/** Carries out a fault that strikes before the handler runs; true when the request is done with. */
async function injectBeforeHandling(fault: FaultDecision, request: IncomingMessage): Promise<boolean> {
  // A saturated server or load balancer refuses at once; the others wait their latency first.
  if (fault.latencyMs > 0 && fault.action !== 'over-capacity')
    await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
  const retryAfter = { 'retry-after': String(fault.retryAfterSeconds ?? 1) };
  if (fault.action === 'over-capacity')
    throw simpleError(503, 'service temporarily unavailable: every place is taken; retry later', retryAfter);
  if (fault.action === 'fail')
    throw simpleError(503, 'service temporarily unavailable (injected fault); retry later', retryAfter);
  if (fault.action === 'rate-limit')
    throw simpleError(
      429,
      `too many requests: over the rate limit for this API key; retry after ${retryAfter['retry-after']} s`,
      retryAfter,
    );
  if (fault.action === 'drop') {
    request.socket.resetAndDestroy();
    return true;
  }
  return false;
}

export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  const length = Buffer.byteLength(text);
  // A success has no extra headers: no object to spread them from.
  response.writeHead(
    status,
    headers === undefined
      ? { 'content-type': 'application/json', 'content-length': length }
      : { 'content-type': 'application/json', 'content-length': length, ...headers },
  );
  response.end(text);
}
