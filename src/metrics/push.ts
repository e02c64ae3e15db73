import { request } from 'undici';
import { dispatcherTo } from '../api/client/dispatcher-to.js';
import type { NetworkOptions } from '../api/client/config.js';
import { redactorFor } from '../api/client/redact.js';

/** The most a push may take, in all: the night's exit code never waits on monitoring. */
export const pushTimeoutMs = 10_000;

/** Where to push: the gateway's URL without credentials, and the credentials apart. */
export interface PushTarget {
  /** The gateway's base URL, credentials removed: what a log line may say. */
  url: URL;
  user?: string | undefined;
  password?: string | undefined;
  /** The way out: the same proxy, CAs and client certificate as the service's (docs/network.md). */
  network?: NetworkOptions | undefined;
}

/**
 * The Pushgateway's path for a group: `/metrics/job/<job>/<label>/<value>…`, each value
 * URL-encoded, or base64url with `@base64` when it holds a `/` or is empty, as the
 * Pushgateway's README says ("URL").
 */
export function groupingPath(grouping: Readonly<Record<string, string>>): string {
  const { job = '', ...labels } = grouping;
  const pieces = [['job', job] as const, ...Object.entries(labels)].map(([name, value]) =>
    value === '' || value.includes('/')
      ? `${name}@base64/${value === '' ? '=' : Buffer.from(value).toString('base64url')}`
      : `${name}/${encodeURIComponent(value)}`,
  );
  return `/metrics/${pieces.join('/')}`;
}

/**
 * POSTs the text to the group (prom-client's `pushAdd`: the gateway replaces the metrics of the
 * same name in the group and keeps the others, so a failed night leaves the last success). Throws
 * on a refusal or a failure, its message free of the credentials; gives up after `pushTimeoutMs`.
 */
export async function pushMetrics(
  target: PushTarget,
  grouping: Readonly<Record<string, string>>,
  text: string,
  timeoutMs = pushTimeoutMs,
): Promise<void> {
  const basic = Buffer.from(`${target.user ?? ''}:${target.password ?? ''}`).toString('base64');
  const credentials = target.user !== undefined || target.password !== undefined;
  // Every form the secret travels in, for the redactor: a gateway or a proxy may echo any. The user
  // name is no secret, and a short one would blank words of the message.
  const secrets = [credentials ? basic : '', target.password ?? ''].filter((secret) => secret !== '');
  const signal = AbortSignal.timeout(timeoutMs);
  let way: ReturnType<typeof dispatcherTo> | undefined;
  try {
    way = dispatcherTo(target.url, target.network, timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'text/plain; version=0.0.4' };
    if (credentials) headers.authorization = `Basic ${basic}`;
    const base = target.url.pathname.replace(/\/+$/, '');
    const response = await request(new URL(base + groupingPath(grouping), target.url.origin), {
      method: 'POST',
      headers,
      body: text,
      dispatcher: way.dispatcher,
      signal,
    });
    const answer = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(
        `the gateway answered ${response.statusCode}${answer.trim() === '' ? '' : `: ${answer.trim().slice(0, 200)}`}`,
      );
  } catch (error) {
    const [first, ...others] = [...secrets, ...(way?.secrets ?? [])];
    const redact = first === undefined ? (line: string) => line : redactorFor(first, others);
    const reason = signal.aborted
      ? `no answer within ${timeoutMs / 1000} s`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new Error(redact(reason), { cause: error });
  } finally {
    // Closing waits for nothing: the push is over, answered or not.
    await way?.dispatcher.destroy().catch(() => undefined);
  }
}
