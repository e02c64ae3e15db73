import type { StopReason } from './retry-policy.js';
import type { ErrorBody } from './schemas/errors.js';
import { CodedError, RefusalError } from '../errors/coded-error.js';

/**
 * Errors of the API client. Each has a stable `CLAIMS_*` code and its context in fields
 * (as undici's `UND_ERR_*` errors have). None ever holds the API key: messages are built from the
 * method, path and the service's own words, and the latter pass through the key's redactor.
 */

export interface RequestContext {
  method: string;
  path: string;
  /** Attempts made, the first included; 0 when the request was refused before sending. */
  attempts: number;
  /** Why retrying stopped, when the budget (attempts, deadline) ran out. */
  stoppedBy?: StopReason | undefined;
}

export abstract class ClaimsError extends CodedError {
  readonly method: string;
  readonly path: string;
  readonly attempts: number;
  readonly stoppedBy: StopReason | undefined;

  constructor(message: string, context: RequestContext, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.method = context.method;
    this.path = context.path;
    this.attempts = context.attempts;
    this.stoppedBy = context.stoppedBy;
  }
}

export interface ServiceErrorItem {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** The service answered with a status of 400 or more. */
export class ClaimsHttpError extends ClaimsError {
  readonly code: string;
  readonly status: number;
  /** The service's `message`, or a short excerpt of a body that had none. */
  readonly serviceMessage: string;
  /** The validation shape's `errors[]`; empty for the simple shape. */
  readonly errors: ServiceErrorItem[];

  constructor(status: number, body: ErrorBody | undefined, fallbackText: string, context: RequestContext) {
    const serviceMessage = body?.message ?? fallbackText;
    const errors = (body?.errors ?? []).map((item) => ({
      code: item.code ?? '',
      message: item.message ?? '',
      details: item.details ?? {},
    }));
    super(describe(context, `${status}${serviceMessage ? `: ${serviceMessage}` : ''}${listCodes(errors)}`), context);
    this.code = codeForStatus(status);
    this.status = status;
    this.serviceMessage = serviceMessage;
    this.errors = errors;
  }
}

/** 401 (missing or unknown key) or 403 (the key lacks permission): stop the run, exit code 3. */
export class AuthenticationError extends ClaimsHttpError {}

/**
 * A request that is not safe to repeat (a create, a filing) may or may not have taken effect:
 * the connection broke after it was sent, or the service answered 5xx. Never re-sent blindly;
 * the import settles it by retrieving the claim by its deterministic id.
 */
export class OutcomeUnknownError extends ClaimsError {
  readonly code = 'CLAIMS_OUTCOME_UNKNOWN';
  /** The status when the service answered (5xx), absent when the connection broke. */
  readonly status: number | undefined;

  constructor(reason: string, context: RequestContext, options: { cause?: unknown; status?: number }) {
    super(
      describe(context, `outcome unknown (${reason}); settle it by retrieving the resource before sending again`),
      context,
      options,
    );
    this.status = options.status;
  }
}

/** The service could not be reached, or the connection broke, on every attempt. */
export class ClaimsNetworkError extends ClaimsError {
  readonly code = 'CLAIMS_NETWORK';
  /** Node's or undici's code: ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, ... */
  readonly networkCode: string;

  constructor(networkCode: string, context: RequestContext, options: { cause?: unknown }) {
    super(describe(context, `network error ${networkCode}`), context, options);
    this.networkCode = networkCode;
  }
}

export interface SchemaIssue {
  /** Dot-path of the field, e.g. `cases.0.transaction.amount`; empty for the whole body. */
  path: string;
  message: string;
}

/** A success answer whose body is not JSON or not the documented shape. */
export class ResponseShapeError extends ClaimsError {
  readonly code = 'CLAIMS_RESPONSE_SHAPE';
  readonly status: number;
  readonly issues: SchemaIssue[];

  constructor(status: number, issues: SchemaIssue[], context: RequestContext) {
    super(describe(context, `${status} with an unexpected body: ${formatIssues(issues)}`), context);
    this.status = status;
    this.issues = issues;
  }
}

/** A request body or query that breaks the service's interface: refused before sending. */
export class RequestInvalidError extends ClaimsError {
  readonly code = 'CLAIMS_REQUEST_INVALID';
  readonly issues: SchemaIssue[];

  constructor(issues: SchemaIssue[], context: RequestContext) {
    super(describe(context, `request not sent: ${formatIssues(issues)}`), context);
    this.issues = issues;
  }
}

/** The client's own configuration is unusable (base URL, API key, timeouts). */
export class ClaimsConfigError extends RefusalError {
  readonly code = 'CLAIMS_CONFIG';
  constructor(message: string) {
    super(message);
    this.name = 'ClaimsConfigError';
  }
}

function describe(context: RequestContext, what: string): string {
  const attempts = context.attempts === 1 ? '1 attempt' : `${context.attempts} attempts`;
  const stopped =
    context.stoppedBy === 'attempts-exhausted' || context.stoppedBy === 'deadline-exceeded'
      ? `, ${context.stoppedBy}`
      : '';
  return `${context.method} ${context.path}: ${what} (${attempts}${stopped})`;
}

function listCodes(errors: ServiceErrorItem[]): string {
  return errors.length === 0 ? '' : ` [${errors.map((item) => item.code).join(', ')}]`;
}

export function formatIssues(issues: SchemaIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
}

function codeForStatus(status: number): string {
  if (status === 400 || status === 422) return 'CLAIMS_INVALID_REQUEST';
  if (status === 401) return 'CLAIMS_AUTHENTICATION';
  if (status === 403) return 'CLAIMS_PERMISSION';
  if (status === 404) return 'CLAIMS_NOT_FOUND';
  if (status === 409) return 'CLAIMS_CONFLICT';
  if (status === 429) return 'CLAIMS_RATE_LIMITED';
  if (status === 503) return 'CLAIMS_UNAVAILABLE';
  if (status >= 500) return 'CLAIMS_SERVER_ERROR';
  return 'CLAIMS_HTTP_ERROR';
}
