import { lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { RetentionPolicyError } from './errors.js';
import { resolveRetentionPolicy, type RetentionPolicy } from './policy.js';
import { pruneRecordName } from './record.js';

/** What a caller asks of prune: the library's options, and what the CLI's flags resolve to. */
export interface PruneRequest {
  /** Folders of jobs, or journals; default the current folder. */
  readonly paths?: readonly string[] | undefined;
  readonly keepPersonalData?: string | undefined;
  readonly keepRecords?: string | undefined;
  /** List what would go; change nothing. */
  readonly dryRun?: boolean | undefined;
  /** What a dry run counts from instead of now: what would go by then. */
  readonly asOf?: Date | undefined;
  /** The prune record; default `prune-record.jsonl` in the first folder given. */
  readonly recordFile?: string | undefined;
  /** Where the policy's variables are read (the process's environment). */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  readonly logger: Logger;
}

export interface PrunePlan {
  readonly paths: readonly string[];
  readonly policy: RetentionPolicy;
  readonly dryRun: boolean;
  readonly now: Date;
  readonly recordFile: string;
  readonly logger: Logger;
}

export function resolvePrunePlan(request: PruneRequest): PrunePlan {
  const paths = (request.paths ?? []).length === 0 ? ['.'] : [...(request.paths ?? [])];
  const dryRun = request.dryRun === true;
  if (request.asOf !== undefined && !dryRun)
    throw new RetentionPolicyError(
      '--as-of: expected with --dry-run (what would go by then), got a run that changes files: nothing was pruned',
    );
  return {
    paths: paths.map((path) => resolve(path)),
    policy: resolveRetentionPolicy(request, request.env ?? process.env),
    dryRun,
    now: request.asOf ?? new Date(),
    recordFile: resolve(request.recordFile ?? defaultRecordFile(paths[0] ?? '.')),
    logger: request.logger,
  };
}

/** In the folder pruned, or beside the journal given. */
function defaultRecordFile(first: string): string {
  const found = lstatSync(first, { throwIfNoEntry: false });
  return join(found?.isDirectory() === true ? first : dirname(first), pruneRecordName);
}
