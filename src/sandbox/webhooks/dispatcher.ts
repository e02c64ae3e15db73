import { randomBytes } from 'node:crypto';
import type { SandboxCore, SandboxEvent } from '../core.js';
import type { Environment } from '../store/records.js';
import { ensureDeliveriesTable, pendingRetries, recordDelivery, type DeliveryRow } from './deliveries.js';
import {
  defaultRetryScheduleMs,
  isDelivered,
  nextStep,
  validateRetrySchedule,
  WebhookConfigError,
  type NextStep,
} from './schedule.js';
import { createSender, type AttemptResult, type Sender } from './send.js';
import { signatureHeader, signPayload } from './signature.js';

/**
 * Webhook delivery for the sandbox (docs/sandbox.md, "Webhooks"): every committed event is POSTed
 * to every configured URL, signed (signature.ts), retried on the schedule (schedule.ts) until a 2xx
 * or the schedule is spent, and each attempt is recorded (deliveries.ts).
 *
 * Order: each URL has one lane, and a lane sends one attempt at a time, in the order attempts come
 * due. First attempts therefore arrive in commit order. Retries are independent: a retry joins
 * its lane when its wait is over, so a later event can be delivered before an earlier event's
 * retry (as in production, where a failed event comes back 30 minutes later). Receivers that care
 * order by `created`, or re-read the case. A slow receiver slows only its own lane, and the lane's
 * queue is in memory: fine for a local sandbox, not a durable outbox.
 */

export const environmentHeader = 'bulk-disputes-environment';
export const attemptHeader = 'bulk-disputes-delivery-attempt';
const userAgent = 'bulk-disputes-sandbox-webhooks/1';
export const defaultWebhookTimeoutMs = 10_000;

export interface WebhookOptions {
  /** Receivers (`--webhook-url`, repeatable); http or https. Duplicates are sent to once. */
  urls: readonly string[];
  /** The HMAC key (`--webhook-secret`). Absent: one is generated; read it from the result to print it. */
  secret?: string;
  /** Waits before each retry (`--webhook-retry-schedule`); default `defaultRetryScheduleMs`. */
  retryScheduleMs?: readonly number[];
  /** Budget for one attempt, connect to last byte; default 10 s. */
  timeoutMs?: number;
  /** Which environments' events are sent; default both. */
  environments?: readonly Environment[];
  /**
   * Wall clock for the signature's `t` and the record's `at`. Not the sandbox's clock, which the
   * control prefix can move: the receiver checks `t` against its own real clock.
   */
  now?: () => number;
  /** Hears each attempt once recorded (for the CLI's log). */
  onAttempt?: (delivery: Omit<DeliveryRow, 'seq'>) => void;
  /** Where a failure of the machinery itself goes (a closed database); never thrown. */
  onError?: (error: unknown) => void;
}

export interface Webhooks {
  /** The secret in use: the one given, or the generated one to print. */
  secret: string;
  /** Stops sending: new events and pending retries are dropped, an attempt in flight is cut short. */
  close(): Promise<void>;
}

interface Delivery {
  event: SandboxEvent;
  url: string;
  attempt: number;
}

/**
 * Starts delivering `core`'s events. Call before the sandbox takes requests, and close it before
 * the sandbox closes: attempts are recorded in the sandbox's database.
 */
export function startWebhooks(core: SandboxCore, options: WebhookOptions): Webhooks {
  const config = resolveOptions(options);
  ensureDeliveriesTable(core.database);
  const sender = createSender(config.timeoutMs);
  const lanes = new Map(config.urls.map((url) => [url, new Lane(config.onError)]));
  let closed = false;
  // Read through a function: `closed` changes while an attempt awaits its answer.
  const isClosed = () => closed;
  let closing: Promise<void> | undefined;

  const enqueue = (delivery: Delivery): void => {
    lanes.get(delivery.url)?.run(async () => {
      // Queued before close, due after it: dropped, as close() promises.
      if (isClosed()) return;
      const result = await attempt(sender, config, delivery);
      const step = stepAfter(delivery.attempt, config.retryScheduleMs, result);
      record(delivery, result, step.outcome);
      if (step.outcome === 'retrying' && !isClosed()) {
        core.later(step.delayMs, () => {
          enqueue({ ...delivery, attempt: delivery.attempt + 1 });
        });
      }
    });
  };

  const record = (delivery: Delivery, result: AttemptResult, outcome: NextStep['outcome']): void => {
    const row = {
      environment: delivery.event.environment,
      event_id: delivery.event.event_id,
      url: delivery.url,
      attempt: delivery.attempt,
      status: result.status,
      error: result.error,
      outcome,
      at: new Date(config.now()).toISOString(),
    };
    // A failed write must not stop the delivery: the receiver's answer matters more than its record.
    try {
      recordDelivery(core.database, row);
      options.onAttempt?.(row);
    } catch (error) {
      config.onError(error);
    }
  };

  core.onEvent((event) => {
    if (closed || !config.environments.has(event.environment)) return;
    for (const url of config.urls) enqueue({ event, url, attempt: 1 });
  });
  resumePendingRetries(core, config, enqueue);

  return {
    secret: config.secret,
    close: async () => {
      closed = true;
      closing ??= (async () => {
        await sender.close();
        await Promise.all([...lanes.values()].map(async (lane) => lane.idle()));
      })();
      return closing;
    },
  };
}

interface ResolvedOptions {
  urls: string[];
  secret: string;
  retryScheduleMs: number[];
  timeoutMs: number;
  environments: Set<Environment>;
  now: () => number;
  onError: (error: unknown) => void;
}

function resolveOptions(options: WebhookOptions): ResolvedOptions {
  if (options.urls.length === 0) throw new WebhookConfigError('webhook urls: expected at least one URL, got none');
  const urls = [...new Set(options.urls.map(checkUrl))];
  if (options.secret?.length === 0) throw new WebhookConfigError(`webhook secret: expected a non-empty string, got ''`);
  const timeoutMs = options.timeoutMs ?? defaultWebhookTimeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
    throw new WebhookConfigError(
      `webhook timeout: expected a whole number of milliseconds from 1 to 600000, got ${String(timeoutMs)}`,
    );
  }
  return {
    urls,
    // Prefixed like Stripe's `whsec_` so a secret pasted into the wrong place is recognisable.
    secret: options.secret ?? `whsec_${randomBytes(24).toString('hex')}`,
    retryScheduleMs: validateRetrySchedule(options.retryScheduleMs ?? defaultRetryScheduleMs),
    timeoutMs,
    environments: new Set(options.environments ?? ['sandbox', 'production']),
    now: options.now ?? Date.now,
    onError: options.onError ?? (() => undefined),
  };
}

function checkUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new WebhookConfigError(`webhook url: expected an absolute http(s) URL, got '${text}'`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookConfigError(`webhook url: expected an http or https URL, got '${text}'`);
  }
  // Kept as given: it is what the user will look for in the record.
  return text;
}

/** The payload is the service's own event: the environment travels in a header instead. */
export function webhookPayload(event: SandboxEvent): string {
  return JSON.stringify({
    event_id: event.event_id,
    created: event.created,
    type: event.type,
    data: { case_id: event.data.case_id },
  });
}

async function attempt(sender: Sender, config: ResolvedOptions, delivery: Delivery): Promise<AttemptResult> {
  const body = webhookPayload(delivery.event);
  // Signed afresh for each attempt: a retry an hour later must not arrive with a stale `t`.
  const timestampSeconds = Math.floor(config.now() / 1000);
  return sender.post(delivery.url, body, {
    'content-type': 'application/json',
    'user-agent': userAgent,
    [signatureHeader]: signPayload(config.secret, timestampSeconds, body),
    [environmentHeader]: delivery.event.environment,
    [attemptHeader]: String(delivery.attempt),
  });
}

function stepAfter(attemptNumber: number, retryScheduleMs: readonly number[], result: AttemptResult): NextStep {
  // Cut short by close(): the receiver never had its chance, so a restart takes it up again.
  if (result.abandoned) return { outcome: 'retrying', delayMs: 0 };
  return nextStep(attemptNumber, retryScheduleMs, isDelivered(result.status));
}

/**
 * Retries a stop interrupted (a file database, restarted) resume, at the time they were due.
 * Events committed but never attempted before the stop are not: the queue is in memory.
 */
function resumePendingRetries(core: SandboxCore, config: ResolvedOptions, enqueue: (delivery: Delivery) => void): void {
  for (const pending of pendingRetries(core.database)) {
    if (!config.urls.includes(pending.url) || !config.environments.has(pending.environment)) continue;
    // A schedule shortened since: one last attempt now rather than none.
    const delayMs = config.retryScheduleMs[pending.attempt - 1] ?? 0;
    const dueInMs = Math.max(0, Date.parse(pending.at) + delayMs - config.now());
    const event = {
      environment: pending.environment,
      event_id: pending.event_id,
      type: pending.type,
      created: pending.created,
      data: { case_id: pending.case_id },
    };
    core.later(dueInMs, () => {
      enqueue({ event, url: pending.url, attempt: pending.attempt + 1 });
    });
  }
}

/** One attempt at a time, in the order given; a task that fails is reported and the next one runs. */
class Lane {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  run(task: () => Promise<void>): void {
    this.tail = this.tail.then(task).catch(this.onError);
  }

  async idle(): Promise<void> {
    await this.tail;
  }
}
