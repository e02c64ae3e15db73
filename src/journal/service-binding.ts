import type { Logger } from 'pino';
import {
  compareService,
  describeService,
  serviceIdentitySchema,
  ServiceMismatchError,
  type ServiceIdentity,
} from '../api/service-identity.js';
import { jsonField, JournalMeta, metaTableOf } from './meta.js';

/** The meta key under which every journal kind records its service: a field of each kind's meta. */
export const serviceMetaKey = 'service';
export const serviceField = jsonField(serviceIdentitySchema);

/** A journal's meta, with the service among its keys. */
export type ServiceMeta = JournalMeta<{ readonly service: typeof serviceField }>;

/** The service a journal of any kind records, read from its database (a private copy): undefined when none is. */
export function recordedService(
  database: Parameters<typeof metaTableOf>[0],
  file: string,
): ServiceIdentity | undefined {
  return new JournalMeta({ service: serviceField }, metaTableOf(database), file).get('service');
}

export interface BindOptions {
  /** The journal's file, for the messages. */
  file: string;
  restart: boolean;
  /** It holds a job already: with no service recorded, it was made before services were recorded. */
  holdsJob: boolean;
  /**
   * Something in it came from its service: a claim sent, settled or uploaded for (import), or the
   * listing of the v1 cases (migrate-v1). Without it, a journal is free to change service.
   */
  holdsServiceData: boolean;
  logger: Logger;
}

/** `forget`: the caller must drop what the journal holds of the other service (`--restart` onto a new one). */
export type Binding = 'keep' | 'forget';

/**
 * A journal belongs to one service: the first run records it, every later run must name the same
 * one or stop before sending anything. A journal's claims are the service's claims: read against
 * another service, its `done` steps would make the run report every claim filed and send nothing.
 * The ways out are a new journal (`--journal`) or `--restart`, which forgets the other service's
 * claims and uploads.
 */
export function bindService(meta: ServiceMeta, current: ServiceIdentity, options: BindOptions): Binding {
  const verdict = compareService(meta.get(serviceMetaKey), current);
  const record = () => {
    meta.set(serviceMetaKey, current);
  };
  if (verdict.kind === 'same') return 'keep';
  if (verdict.kind === 'unrecorded') {
    // One chance for a journal made before services were recorded: the service it is run against now.
    if (options.holdsJob)
      options.logger.warn(
        { journal: options.file, service: describeService(current) },
        `journal ${options.file} records no service (made before journals recorded one): taken as made against ${describeService(current)} from now on`,
      );
    record();
    return 'keep';
  }
  const recorded = describeService(verdict.recorded);
  if (!options.holdsServiceData) {
    options.logger.info(
      { journal: options.file, was: recorded, service: describeService(current) },
      'the journal holds nothing from the service it named: it now belongs to this one',
    );
    record();
    return 'keep';
  }
  if (options.restart) {
    options.logger.warn(
      { journal: options.file, was: recorded, service: describeService(current) },
      `--restart: journal ${options.file} was made against ${recorded}; started over for ${describeService(current)}, its claims and uploads there forgotten`,
    );
    record();
    return 'forget';
  }
  throw new ServiceMismatchError(
    `journal ${options.file}: expected a journal made against ${describeService(current)}, got one made against ${recorded}; ` +
      "its claims are that service's, and running it here would report them done and send nothing, so nothing was sent. " +
      'Use --journal FILE for a journal of this service, or --restart to start this one over for it (what it holds of the other service is forgotten)',
  );
}
