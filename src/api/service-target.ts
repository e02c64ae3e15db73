import { ClaimsClient } from './client/index.js';
import type { ClientLogger, NetworkOptions } from './client/config.js';
import { serviceAt, type ServiceIdentity } from './service-identity.js';

/** Where a job sends or reads: the service's address, the key, and the way there. */
export interface ServiceTarget {
  baseUrl: string;
  apiKey: string;
  /**
   * What a journal or an export bookmark records of it, and so belongs to; by default the base
   * URL and the key's environment (the CLI passes the embedded sandbox's data file).
   */
  identity?: ServiceIdentity | undefined;
  network?: NetworkOptions | undefined;
}

/** The service a target names, as journals record it. */
export function identityOf(target: ServiceTarget): ServiceIdentity {
  return target.identity ?? serviceAt(target.baseUrl, target.apiKey);
}

/** A job's client of its service: `concurrency` connections, paced by `--max-rps` when given. */
export function clientOf(
  target: ServiceTarget,
  job: { concurrency?: number | undefined; maxRps?: number | undefined; logger: ClientLogger },
): ClaimsClient {
  return new ClaimsClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    ...(job.concurrency === undefined ? {} : { concurrency: job.concurrency }),
    maxRps: job.maxRps,
    logger: job.logger,
    network: target.network,
  });
}
