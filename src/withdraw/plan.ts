import { fileSha256 } from '../files/file-sha256.js';
import type { Logger } from 'pino';
import type { ServiceIdentity } from '../api/service-identity.js';
import { identityOf, type ServiceTarget } from '../api/service-target.js';
import { withdrawJournalFormat } from '../job-files/withdraw/journal.js';
import type { WithdrawFingerprint } from '../job-files/withdraw/meta.js';
import type { Progress } from '../progress/progress.js';
import { resolvePacing, type Pacing, type SendingOptions } from '../rate/pacing.js';
import type { WithdrawPreview } from './preview.js';
import type { SourceOptions } from './sources.js';
import type { Scope, WithdrawalRules } from './withdrawals.js';

/**
 * A withdraw, resolved once (docs/architecture.md, "A job's plan"): what it was asked for (the
 * CLI's flags), read and decided before any step runs, into one typed plan that every step takes
 * the part it needs of. What each claim's withdrawal is, from the claim as retrieved, is
 * withdrawals.ts.
 */

/** Asked once every claim is planned and before anything is sent; false: nothing is sent. */
export type ConfirmWithdrawal = (preview: WithdrawPreview) => Promise<boolean>;

/** What a withdraw is asked to do: what the CLI's flags resolve to. */
export interface WithdrawRequest extends SendingOptions {
  /** Journals, results files or lists, in argument order (sources.ts). */
  sources: readonly string[];
  /** `--outcome`, `--claim-key`, `--column`: which of the claims the sources name are taken back (default: all). */
  filter?: SourceOptions | undefined;
  /** Default `claim`. */
  scope?: Scope | undefined;
  deleteUnfiled?: boolean | undefined;
  service: ServiceTarget;
  journalFile: string;
  resultsFile: string;
  /** Retrieve and plan every claim, send nothing (the plan's `mode` is then `check`). */
  dryRun?: boolean | undefined;
  /** Start over a journal made for other sources or flags, or against another service. */
  restart?: boolean | undefined;
  progress?: Progress | undefined;
  /** The CLI asks a person on a terminal when the key is live; absent: no one is asked. A dry run asks no one. */
  confirm?: ConfirmWithdrawal | undefined;
}

/** The sources and what of them is taken back. */
export interface WithdrawSources {
  readonly files: readonly string[];
  readonly filter: SourceOptions;
}

/** The files the job writes: its journal (`:memory:` for a dry run without one) and its results. */
export interface WithdrawFiles {
  readonly journalFile: string;
  readonly resultsFile: string;
}

/**
 * Whether the withdraw writes: `send` withdraws or deletes what the plan says, once `confirm` (when
 * there is one) says yes; `check` retrieves and plans every claim as `send` does, and settles each
 * line as what it would become (`would_withdraw`, `would_delete`), sending nothing.
 */
export type WithdrawMode =
  { readonly kind: 'send'; readonly confirm: ConfirmWithdrawal | undefined } | { readonly kind: 'check' };

export interface WithdrawPlan {
  readonly mode: WithdrawMode;
  readonly sources: WithdrawSources;
  readonly withdrawals: WithdrawalRules;
  /** What ties a journal to this job (made-with.ts): the sources' sha256 and the flags that choose what is taken back. */
  readonly fingerprint: WithdrawFingerprint;
  readonly files: WithdrawFiles;
  /** Where to withdraw from; a dry run reads from it too (every claim retrieved and planned). */
  readonly service: ServiceTarget;
  /** What the journal records of `service`: a journal of another is refused. */
  readonly identity: ServiceIdentity;
  readonly restart: boolean;
  readonly pacing: Pacing;
  readonly logger: Logger;
  readonly progress: Progress | undefined;
}

/** A withdraw's breaker default: 5 claims failed on the service's side in the last minute (docs/rate-limits.md). */
const breakerThreshold = 5;

/** Hashes the sources: everything a withdraw decides before its first step. */
export async function resolveWithdrawPlan(request: WithdrawRequest): Promise<WithdrawPlan> {
  const sources: WithdrawSources = { files: request.sources, filter: request.filter ?? {} };
  const withdrawals: WithdrawalRules = {
    scope: request.scope ?? 'claim',
    deleteUnfiled: request.deleteUnfiled === true,
  };
  const mode: WithdrawMode = request.dryRun === true ? { kind: 'check' } : { kind: 'send', confirm: request.confirm };
  return {
    mode,
    sources,
    withdrawals,
    fingerprint: await fingerprintOf(sources, withdrawals, mode),
    files: { journalFile: request.journalFile, resultsFile: request.resultsFile },
    service: request.service,
    identity: identityOf(request.service),
    restart: request.restart === true,
    pacing: resolvePacing(request, { breakerThreshold }),
    logger: request.logger,
    progress: request.progress,
  };
}

async function fingerprintOf(
  sources: WithdrawSources,
  withdrawals: WithdrawalRules,
  mode: WithdrawMode,
): Promise<WithdrawFingerprint> {
  return {
    format: withdrawJournalFormat,
    sources: await Promise.all(sources.files.map(fileSha256)),
    scope: withdrawals.scope,
    deleteUnfiled: withdrawals.deleteUnfiled,
    outcomes: sources.filter.outcomes ?? null,
    claimKeys: sources.filter.claimKeys ?? null,
    column: sources.filter.column ?? null,
    dryRun: mode.kind === 'check',
  };
}
