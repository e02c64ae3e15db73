import { CasesEndpoints } from './cases.js';
import { ClaimsEndpoints } from './claims.js';
import { resolveOptions, type ClientOptions } from './config.js';
import { EventsEndpoints, FilesEndpoints } from './files-events.js';
import type { AttemptListener, PacingStats, ParkedListener } from './pacing.js';
import { Transport } from './transport.js';
import type { Route } from '../network/proxy-route.js';
import type { ProbeResult } from '../network/probe.js';
import { V1CasesEndpoints } from './v1-cases.js';

/**
 * The one client every command goes through: `client.claims.createWithCases(body)`,
 * `client.cases.review(id)`, `for await (const event of client.events.listAll())`, ...
 * Every call resolves to `{ data, status, attempts }` or rejects with a ClaimsError.
 */
export class ClaimsClient {
  readonly claims: ClaimsEndpoints;
  readonly cases: CasesEndpoints;
  readonly files: FilesEndpoints;
  readonly events: EventsEndpoints;
  readonly v1: { cases: V1CasesEndpoints };
  private readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(resolveOptions(options));
    this.claims = new ClaimsEndpoints(this.transport);
    this.cases = new CasesEndpoints(this.transport);
    this.files = new FilesEndpoints(this.transport);
    this.events = new EventsEndpoints(this.transport);
    this.v1 = { cases: new V1CasesEndpoints(this.transport) };
  }

  /**
   * Calls `listener` after every attempt of every request, with the kind of answer it had (the
   * senders' adaptive concurrency follows them); returns how to stop listening.
   */
  onAttempt(listener: AttemptListener): () => void {
    return this.transport.pacing.onAttempt(listener);
  }

  /** Calls `listener` each time the number of retries waiting parked changes (waiting out a refusal, or a case unavailable for filing). */
  onParked(listener: ParkedListener): () => void {
    return this.transport.pacing.onParked(listener);
  }

  /** The most requests on the wire at once from now on (a sender's adaptive limit); `Infinity`: no limit. */
  limitOnWire(limit: number): void {
    this.transport.pacing.limitOnWire(limit);
  }

  /** Throttled answers so far, and the job's pauses and waits for --max-rps. */
  pacing(): PacingStats {
    return this.transport.pacing.stats();
  }

  /** Requests on the wire now, their answers not yet in. */
  requestsOnWire(): number {
    return this.transport.pacing.onWire;
  }

  /** Requests a second the job is paced at now (the lower of --max-rps and the service's rate); undefined: not paced. */
  pacedPerSecond(): number | undefined {
    return this.transport.pacing.perSecond();
  }

  /** The route to the service (direct or which proxy, and why) and whether a client certificate is configured. */
  connection(): { route: Route; clientCertificate: boolean } {
    return this.transport.connection();
  }

  /** One look at the way to the service, no request sent: the proxy's answer, TLS version, server certificate (`check`). */
  async probe(): Promise<ProbeResult> {
    return this.transport.probe();
  }

  /** Closes the connection pool once requests in flight have finished. */
  async close(): Promise<void> {
    return this.transport.close();
  }
}

export type { ClientLogger, ClientOptions, NetworkOptions } from './config.js';
export type { ApiResult, RequestBody } from './transport.js';
export type { UploadInput } from './files-events.js';
export type { PageCursor } from './paginate.js';
export type { AttemptListener, AttemptReport, PacingStats, ParkedListener } from './pacing.js';
export type { AnswerKind } from './answer-kind.js';
export type { RouteAnswerCount } from './route-counts.js';
