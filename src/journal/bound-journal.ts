import type { Logger } from 'pino';
import type { ClaimsClient } from '../api/client/index.js';
import type { ServiceIdentity } from '../api/service-identity.js';
import { clientOf, type ServiceTarget } from '../api/service-target.js';
import { bindService, type ServiceMeta } from './service-binding.js';

/** A job's journal, as far as binding it to its service goes (service-binding.ts). */
export interface BindableJournal {
  readonly meta: ServiceMeta;
  /** It holds a job already: with no service recorded, it was made before services were recorded. */
  holdsJob(): boolean;
  /** Something in it came from its service: without it, the journal is free to change service. */
  holdsServiceData(): boolean;
  /** Drops what it holds of the service it was made against (`--restart` onto another). */
  forgetService(): void;
  close(): void;
}

/** What of a job's plan the binding reads: the service it runs against, `--restart`, and where the lines go. */
export interface BindingJob {
  readonly identity: ServiceIdentity;
  readonly restart: boolean;
  readonly logger: Logger;
}

/**
 * A job's journal opened and bound to its service: a journal of another service is refused (and
 * closed again), or started over for this one with `--restart`. The caller closes what it returns.
 */
export function openBoundJournal<Journal extends BindableJournal>(
  open: (file: string) => Journal,
  file: string,
  job: BindingJob,
): Journal {
  const journal = open(file);
  try {
    const binding = bindService(journal.meta, job.identity, {
      file,
      restart: job.restart,
      holdsJob: journal.holdsJob(),
      holdsServiceData: journal.holdsServiceData(),
      logger: job.logger,
    });
    if (binding === 'forget') journal.forgetService();
    return journal;
  } catch (error) {
    journal.close();
    throw error;
  }
}

/** What of a job's plan its run on the journal reads besides the binding: the journal's file, the service, its pace for the client, the progress line. */
export interface JournalJob extends BindingJob {
  readonly files: { readonly journalFile: string };
  readonly service: ServiceTarget;
  readonly pacing: { readonly concurrency: number; readonly maxRps: number | undefined };
  readonly progress: { done(): void } | undefined;
}

/**
 * A job's run on its journal (`kind`: the journal's class, opened by its constructor), against its
 * service: the journal opened and bound (`openBoundJournal`), then `run` with it and `connect`,
 * which makes the client to the service the first time it is called (a run refused while staging
 * never made one). At the end, however it ends: the progress line cleared, the journal and the
 * client closed.
 */
export async function withBoundJournal<Journal extends BindableJournal, Result>(
  kind: new (file: string) => Journal,
  job: JournalJob,
  run: (journal: Journal, connect: () => ClaimsClient) => Promise<Result>,
): Promise<Result> {
  const journal = openBoundJournal((file) => new kind(file), job.files.journalFile, job);
  let client: ClaimsClient | undefined;
  const connect = () => (client ??= clientOf(job.service, { ...job.pacing, logger: job.logger }));
  try {
    return await run(journal, connect);
  } finally {
    job.progress?.done();
    journal.close();
    await client?.close();
  }
}
