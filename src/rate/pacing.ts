import type { Logger } from 'pino';

/**
 * How a job that sends or reads many (import, migrate-v1, withdraw, track) paces itself
 * (docs/rate-limits.md): asked for by its flags, resolved once into the job's plan with the job's
 * own defaults, and read from there by its client and its sender.
 */
export interface PacingRequest {
  /** The most requests in flight; fewer while the service throttles. */
  concurrency: number;
  /** Requests per second for the whole job (`--max-rps`); undefined: no limit. */
  maxRps?: number | undefined;
  /**
   * Claims failed on the service's side in the last minute, and half of those that ended, that
   * stop the run (exit 3); undefined: the job's default.
   */
  breakerThreshold?: number | undefined;
  /** Checked between claims: true stops pulling more (Ctrl-C, SIGTERM). */
  stopRequested?: (() => boolean) | undefined;
}

/** A job's pacing, every setting decided. */
export interface Pacing {
  readonly concurrency: number;
  readonly maxRps: number | undefined;
  readonly breakerThreshold: number;
  readonly stopRequested: () => boolean;
}

/** What a job's caller gives: its pacing and the logger its lines go to. */
export interface SendingOptions extends PacingRequest {
  logger: Logger;
}

/** The pacing asked for, with the job's breaker threshold where none is given, and no stop unless one is. */
export function resolvePacing(request: PacingRequest, defaults: { breakerThreshold: number }): Pacing {
  const { stopRequested } = request;
  return {
    concurrency: request.concurrency,
    maxRps: request.maxRps,
    breakerThreshold: request.breakerThreshold ?? defaults.breakerThreshold,
    stopRequested: stopRequested === undefined ? () => false : () => stopRequested(),
  };
}
