import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import {
  AuthenticationError,
  ClaimsHttpError,
  ClaimsNetworkError,
  OutcomeUnknownError,
  type RequestContext,
} from '../errors.js';
import { decideRetry, type AttemptOutcome, type StopReason } from '../retry-policy.js';
import { errorBodyResponse } from '../schemas/errors.js';
import type { ResolvedOptions } from './config.js';
import { Pacing } from './pacing.js';
import { basicAuthorization, redactorFor, type Redactor } from './redact.js';
import { classifyFailure } from '../network/classify-failure.js';
import { collectResponse } from './collect-response.js';
import { excerpt, parseBody, safeJson } from './response-body.js';
import { createDispatcher, failedWhileConnecting } from '../network/dispatcher.js';
import { proxySecrets, type Route } from '../network/proxy-route.js';
import { probe, type ProbeResult } from '../network/probe.js';
import { networkErrorCode } from './network-error-code.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request body as bytes, so that every attempt sends exactly the same ones. */
export interface RequestBody {
  contentType: string;
  /**
   * In one piece, or in pieces sent one after another: a multipart upload is its headers, the
   * file's own buffer and a trailer, never copied into one.
   */
  bytes: Uint8Array | readonly Uint8Array[];
}

export interface ApiRequest<Data> {
  method: HttpMethod;
  /** Path under the base URL, parameters already encoded: `/v2/issuer/claims/claim_1`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: RequestBody;
  /** True when sending twice has the effect of sending once (reads, PUT, DELETE, withdraw, upload). */
  repeatable: boolean;
  /**
   * True when a 503 speaks of the case, not the service: filing and run_workflow ("case
   * temporarily unavailable for filing; retry later"). Its retry waits parked (pacing.ts).
   */
  caseScoped?: boolean;
  response: z.ZodType<Data>;
}

/** Every result says how many attempts it took. */
export interface ApiResult<Data> {
  data: Data;
  status: number;
  attempts: number;
}

type Attempt =
  | { type: 'response'; status: number; retryAfter: string | undefined; text: string }
  | { type: 'network-error'; code: string; sent: boolean; error: unknown };

/**
 * One connection pool to the service and the retry loop around it. Every response body is read
 * to the end (undici README, "Garbage Collection": an unread body holds its connection).
 */
export class Transport {
  private readonly dispatcher: Dispatcher;
  private readonly authorization: string;
  private readonly redact: Redactor;
  /**
   * The one look at a connection closed after its handshake (classify-failure.ts), shared by every
   * request of this client: the claims in flight when a service refuses the client certificate all
   * meet the same verdict, and a service that drops kept-alive connections costs one look.
   */
  private lookAfterClose: Promise<ProbeResult> | undefined;
  /** The job's pace: Retry-After pauses, --max-rps, and who listens to the answers (docs/rate-limits.md). */
  readonly pacing: Pacing;

  constructor(private readonly options: ResolvedOptions) {
    this.dispatcher = createDispatcher({
      origin: options.origin,
      route: options.route,
      tls: options.tls,
      connections: options.concurrency,
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.headersTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
    });
    this.authorization = basicAuthorization(options.apiKey);
    this.redact = redactorFor(options.apiKey, [...proxySecrets(options.route), ...options.tls.secrets]);
    this.pacing = new Pacing({
      maxRps: options.maxRps,
      retryAfterCapMs: options.retry.retryAfterCapMs,
      now: options.now,
      sleep: options.sleep,
    });
  }

  async send<Data>(request: ApiRequest<Data>): Promise<ApiResult<Data>> {
    const { retry, now, random, logger } = this.options;
    // The deadline counts from the first attempt sent, not from the wait for the job's pace.
    let sentAtMs = await this.pacing.beforeAttempt(undefined);
    const startedMs = now();
    for (let attempt = 1; ; attempt++) {
      const attemptStartedMs = now();
      let outcome: Attempt;
      try {
        outcome = await this.attemptOnce(request);
      } finally {
        this.pacing.attemptEnded();
      }
      const durationMs = now() - attemptStartedMs;
      logger.debug({ ...describeAttempt(request, outcome), attempt, durationMs }, 'claims request');
      const caseScoped = request.caseScoped === true;
      const kind =
        outcome.type === 'response'
          ? this.pacing.afterAttempt(
              request.method,
              request.path,
              outcome.status,
              outcome.retryAfter,
              caseScoped,
              sentAtMs,
            )
          : this.pacing.afterAttempt(request.method, request.path, undefined, undefined, caseScoped, sentAtMs);

      const decision = decideRetry(
        {
          attempt,
          outcome: toOutcome(outcome),
          repeatable: request.repeatable,
          elapsedMs: now() - startedMs,
          nowMs: now(),
        },
        retry,
        random,
      );
      if (decision.action === 'retry') {
        logger.warn(
          { ...describeAttempt(request, outcome), attempt, delayMs: decision.delayMs },
          'claims request retried',
        );
        sentAtMs = await this.pacing.beforeAttempt(decision.delayMs, kind);
        continue;
      }
      const context: RequestContext = {
        method: request.method,
        path: request.path,
        attempts: attempt,
        stoppedBy: decision.reason,
      };
      if (decision.reason === 'success' && outcome.type === 'response') {
        const data = parseBody(outcome.status, this.redact(outcome.text), request.response, context);
        return { data, status: outcome.status, attempts: attempt };
      }
      throw this.failure(outcome, decision.reason, context);
    }
  }

  connection(): { route: Route; clientCertificate: boolean } {
    return { route: this.options.route, clientCertificate: this.options.tls.clientCertificate };
  }

  async probe(): Promise<ProbeResult> {
    return probe(this.options.target, this.options.route, this.options.tls, this.options.connectTimeoutMs);
  }

  async close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async attemptOnce(request: ApiRequest<unknown>): Promise<Attempt> {
    const headers: Record<string, string> = {
      authorization: this.authorization,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    };
    if (request.body) headers['content-type'] = request.body.contentType;
    const bytes = request.body?.bytes;
    // Pieces go as a stream made anew for each attempt, so every attempt sends them all, in turn.
    if (Array.isArray(bytes))
      headers['content-length'] = String(
        bytes.reduce((total: number, piece: Uint8Array) => total + piece.byteLength, 0),
      );
    const body = Array.isArray(bytes)
      ? Readable.from(bytes as readonly Uint8Array[], { objectMode: false })
      : (bytes as Uint8Array | undefined);
    try {
      // Read to the end whatever the status, so the connection goes back to the pool (collect-response.ts).
      const response = await collectResponse(this.dispatcher, {
        origin: this.options.origin,
        method: request.method,
        path: this.options.pathPrefix + request.path + queryString(request.query),
        headers,
        body,
      });
      return { type: 'response', ...response };
    } catch (error) {
      // A certificate, a client certificate or a proxy set up wrongly: sending again cannot help.
      const notSent = failedWhileConnecting(error);
      const setup = await classifyFailure(error, {
        target: this.options.target,
        route: this.options.route,
        tls: this.options.tls,
        connectTimeoutMs: this.options.connectTimeoutMs,
        request: `${request.method} ${request.path}`,
        whileConnecting: notSent,
        lookAfterClose: async () => (this.lookAfterClose ??= this.probe().catch((): ProbeResult => ({}))),
      });
      if (setup !== undefined) throw setup;
      const code = networkErrorCode(error, notSent);
      if (code === undefined) throw error;
      return { type: 'network-error', code, sent: !notSent, error };
    }
  }

  private failure(outcome: Attempt, reason: StopReason, context: RequestContext): Error {
    if (outcome.type === 'network-error') {
      return reason === 'outcome-unknown'
        ? new OutcomeUnknownError(`connection failed after sending: ${outcome.code}`, context, { cause: outcome.error })
        : new ClaimsNetworkError(outcome.code, context, { cause: outcome.error });
    }
    if (reason === 'outcome-unknown') {
      return new OutcomeUnknownError(`the service answered ${outcome.status}`, context, { status: outcome.status });
    }
    const text = this.redact(outcome.text);
    const parsed = errorBodyResponse.safeParse(safeJson(text));
    const body = parsed.success ? parsed.data : undefined;
    const fallback = excerpt(text) || (STATUS_CODES[outcome.status] ?? '');
    const ErrorClass = outcome.status === 401 || outcome.status === 403 ? AuthenticationError : ClaimsHttpError;
    return new ErrorClass(outcome.status, body, fallback, context);
  }
}

function toOutcome(attempt: Attempt): AttemptOutcome {
  return attempt.type === 'response'
    ? { type: 'response', status: attempt.status, retryAfter: attempt.retryAfter }
    : { type: 'network-error', code: attempt.code, sent: attempt.sent };
}

function describeAttempt(request: ApiRequest<unknown>, outcome: Attempt): object {
  return outcome.type === 'response'
    ? { method: request.method, path: request.path, status: outcome.status }
    : { method: request.method, path: request.path, networkCode: outcome.code };
}

function queryString(query: ApiRequest<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const encoded = params.toString();
  return encoded ? `?${encoded}` : '';
}
