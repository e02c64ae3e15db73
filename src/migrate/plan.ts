import type { Logger } from 'pino';
import type { ServiceTarget } from '../api/service-target.js';
import { migrateJournalFormat } from '../job-files/migrate/journal.js';
import type { MigrateSettings } from '../job-files/migrate/meta.js';
import type { Progress } from '../progress/progress.js';
import { resolvePacing, type Pacing, type SendingOptions } from '../rate/pacing.js';

/**
 * A migrate-v1 run, resolved once (docs/architecture.md, "A job's plan"): what the CLI's flags or a
 * caller ask for, decided before the journal is opened, into one typed plan every step reads.
 */

/** What migrate-v1 is asked to do: what its flags resolve to. */
export interface MigrateRequest extends SendingOptions {
  /** Where the v1 cases are listed from and the claims created; the journal belongs to it. */
  service: ServiceTarget;
  journalFile: string;
  resultsFile: string;
  /** `--group-by`: the v1 case's dot paths whose equal values share a claim; default: one claim per case. */
  groupBy?: readonly string[] | undefined;
  /** List and group, send nothing (the plan's `mode` is then `check`). */
  dryRun?: boolean | undefined;
  /** Start a journal made with other settings, or against another service, over. */
  restart?: boolean | undefined;
  /** The terminal's progress bar (silent when stderr is not a terminal). */
  progress?: Progress | undefined;
}

/**
 * Whether the run creates claims: `send` creates each group's claim once; `check` lists and groups
 * the v1 cases, sends nothing, and counts each group `valid`.
 */
export type MigrateMode = { readonly kind: 'send' } | { readonly kind: 'check' };

export interface MigratePlan {
  readonly service: ServiceTarget;
  readonly journalFile: string;
  readonly resultsFile: string;
  readonly groupBy: readonly string[];
  readonly mode: MigrateMode;
  readonly restart: boolean;
  /** What ties a journal to this job: the format and the flags that choose what is made (meta.ts). */
  readonly settings: MigrateSettings;
  readonly pacing: Pacing;
  readonly logger: Logger;
  readonly progress: Progress | undefined;
}

/** migrate-v1's breaker default: 10 claims failed on the service's side in the last minute (docs/rate-limits.md). */
const breakerThreshold = 10;

export function resolveMigratePlan(request: MigrateRequest): MigratePlan {
  const groupBy = request.groupBy ?? [];
  const mode: MigrateMode = request.dryRun === true ? { kind: 'check' } : { kind: 'send' };
  return {
    service: request.service,
    journalFile: request.journalFile,
    resultsFile: request.resultsFile,
    groupBy,
    mode,
    restart: request.restart === true,
    settings: { format: migrateJournalFormat, groupBy, dryRun: mode.kind === 'check' },
    pacing: resolvePacing(request, { breakerThreshold }),
    logger: request.logger,
    progress: request.progress,
  };
}
