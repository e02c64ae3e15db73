import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SandboxCore } from './core.js';
import type { FaultInjector } from './faults/fault-injector.js';
import type { WorkflowRules } from './rules/workflow-rules.js';
import { startWebhooks, type WebhookOptions, type Webhooks } from './webhooks/dispatcher.js';
import { resumeInterruptedWorkflows } from './workflow.js';
import { authenticator } from './http/auth.js';
import { answerClientError } from './http/client-errors.js';
import { servePublicPage } from './http/openapi-routes.js';
import { routerFor } from './http/routes.js';
import { handleRequest, writeJson, type RequestContext } from './handle-request.js';
import { routes } from './route-table.js';
import { blobStoreFor } from './store/blobs.js';
import { startCheckpoints } from './store/checkpoints.js';
import { openDatabase } from './store/database.js';

export interface SandboxOptions {
  /** Default 127.0.0.1: the sandbox is for this machine unless told otherwise. */
  host?: string;
  /** Default 0 (any free port); the CLI defaults to 4010. */
  port?: number;
  /** SQLite file, or `:memory:` (the default) for a sandbox that forgets on close. */
  db?: string;
  /** Accepted keys; `test_…` ones reach the sandbox environment. None: one test key is generated. */
  apiKeys?: string[];
  /** Serve the `/_sandbox/...` control prefix. */
  control?: boolean;
  workflowDelayMs?: number;
  now?: () => number;
  /** Faults to inject on service routes; none by default. */
  faults?: FaultInjector;
  /** Workflow rules for `file_mode: auto` and run_workflow; default: file every valid case. */
  rules?: WorkflowRules;
  /**
   * `--outcomes`: every case filed gets a path of network moves drawn from this seed and the case
   * id, made as the sandbox clock passes them (outcomes.ts). None by default: nothing moves on its own.
   */
  outcomes?: { seed: number } | undefined;
  /** Deliver every event to these receivers, signed (webhooks/); none by default. */
  webhooks?: WebhookOptions;
  logger?: Pick<Logger, 'error'>;
  /**
   * Serve HTTPS with this certificate and key; with `clientCa`, require a client certificate issued
   * by it (mutual TLS): a client without one is refused in the handshake.
   */
  tls?: { cert: string | Buffer; key: string | Buffer; clientCa?: string | Buffer | undefined } | undefined;
  /** Told of every connection accepted (TCP, before any TLS handshake): for tests and metrics. */
  onConnection?: ((socket: Socket) => void) | undefined;
  /**
   * A request (headers and body) not received within this many ms is cut: 408 `{message}` and the
   * connection closed. Default `defaultRequestTimeoutMs`; shorter in tests.
   */
  requestTimeoutMs?: number;
}

/**
 * 30 s for the whole request: the largest body the sandbox takes, an upload under 4.5 MB, needs
 * 150 KB/s for it, far below what loopback or a LAN carries, and our client waits 30 s for an
 * answer's headers anyway. A body that trickles in holds a connection no longer than that.
 */
export const defaultRequestTimeoutMs = 30_000;
/** Headers within 10 s (or the whole bound, if shorter): a client sends them in one go. */
const headersTimeoutMs = 10_000;
/**
 * How often Node looks for requests past their bound: its default, 30 s, let slow headers hold a
 * connection for 20 s past their 10 s, and a body 30 s past its bound.
 */
const timeoutCheckIntervalMs = 1000;

export interface Sandbox {
  url: string;
  /** The webhook signing secret in use (generated when not given), when webhooks are on. */
  webhookSecret: string | undefined;
  apiKeys: string[];
  /** The key made up when none was configured, to print for the user. */
  generatedKey: string | undefined;
  core: SandboxCore;
  close(): Promise<void>;
}

/** Starts a sandbox of the whole service on a loopback port (`bulk-disputes sandbox` runs this). */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const generatedKey = options.apiKeys?.length ? undefined : `test_${randomBytes(16).toString('hex')}`;
  const apiKeys = options.apiKeys?.length ? options.apiKeys : [generatedKey ?? ''];
  const authenticate = authenticator(new Set(apiKeys));
  const { core, closeStore } = openStore(options);
  // Subscribed before the server listens, so no event can go unannounced.
  let webhooks: Webhooks | undefined;
  try {
    webhooks = options.webhooks?.urls.length ? startWebhooks(core, options.webhooks) : undefined;
  } catch (error) {
    core.close();
    await closeStore();
    throw error;
  }
  const route = routerFor(routes.filter((candidate) => options.control === true || candidate.control !== true));
  const context: RequestContext = { core, route, authenticate };

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    // The OpenAPI document and its page need no key: answered before authentication.
    if (servePublicPage(request, response)) return;
    void handleRequest(context, request, response).catch((error: unknown) => {
      options.logger?.error({ err: error, method: request.method, url: request.url }, 'sandbox request failed');
      writeJson(response, 500, { message: 'internal error' });
    });
  };
  const server = serverFor(options, listener);
  try {
    await listen(server, options);
  } catch (error) {
    await webhooks?.close();
    core.close();
    await closeStore();
    throw error;
  }
  // Only a sandbox that is up may finish evaluations a restart interrupted.
  resumeInterruptedWorkflows(core);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;

  return {
    url: `${options.tls === undefined ? 'http' : 'https'}://${host}:${address.port}`,
    webhookSecret: webhooks?.secret,
    apiKeys,
    generatedKey,
    core,
    close: async () => {
      closing ??= closeGracefully(server, async () => {
        // A catch-up of --outcomes writes to the database: it stops at the end of its batch.
        await core.outcomes?.close();
        // Webhook attempts are recorded in the database: they stop before it closes.
        await webhooks?.close();
        core.close();
        await closeStore();
      });
      return closing;
    },
  };
}

/** The database, its checkpoints (for a file) and the core over them. */
function openStore(options: SandboxOptions): { core: SandboxCore; closeStore: () => Promise<void> } {
  // The blob folder first: refused (a link at its name), it leaves no database or worker open.
  const blobs = blobStoreFor(options.db ?? ':memory:');
  const database = openDatabase(options.db ?? ':memory:');
  const onBackgroundError = (error: unknown) => options.logger?.error({ err: error }, 'sandbox background work failed');
  const checkpoints =
    (options.db ?? ':memory:') === ':memory:'
      ? undefined
      : startCheckpoints(database, options.db ?? '', { onError: onBackgroundError });
  const closeStore = async () => {
    // The worker's connection first: the last one to close checkpoints and removes the WAL.
    await checkpoints?.close();
    database.close();
  };
  const core = new SandboxCore({
    database,
    blobs,
    now: options.now,
    workflowDelayMs: options.workflowDelayMs,
    onBackgroundError,
    faults: options.faults,
    rules: options.rules,
    afterCommit: checkpoints?.afterCommit,
    outcomes: options.outcomes,
  });
  return { core, closeStore };
}

/** An HTTP server, or HTTPS with `tls` (mutual TLS with a client CA), with its timeouts set. */
function serverFor(options: SandboxOptions, listener: RequestListener): Server {
  const tls = options.tls;
  // A client that opens a request and goes silent, or sends its body a byte at a time, must not
  // hold a connection for Node's default 300 s.
  const requestTimeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const timeouts = {
    requestTimeout,
    headersTimeout: Math.min(headersTimeoutMs, requestTimeout),
    connectionsCheckingInterval: Math.min(timeoutCheckIntervalMs, requestTimeout),
  };
  const server: Server =
    tls === undefined
      ? createServer(timeouts, listener)
      : createHttpsServer(
          {
            ...timeouts,
            cert: tls.cert,
            key: tls.key,
            ...(tls.clientCa === undefined ? {} : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }),
          },
          listener,
        );
  if (options.onConnection !== undefined) server.on('connection', options.onConnection);
  const bounds = { requestTimeoutMs: timeouts.requestTimeout, headersTimeoutMs: timeouts.headersTimeout };
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    answerClientError(error, socket, bounds);
  });
  return server;
}

async function listen(server: Server, options: SandboxOptions): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Stops accepting, lets requests in flight finish (their writes are committed: their answers
 * should arrive), then cuts what is left after a grace period, and closes the store.
 */
async function closeGracefully(server: Server, closeStore: () => Promise<void>, graceMs = 2000): Promise<void> {
  const closed = new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  server.closeIdleConnections();
  const force = setTimeout(() => {
    server.closeAllConnections();
  }, graceMs);
  await closed;
  clearTimeout(force);
  await closeStore();
}
