import { RefusalError } from '../errors/coded-error.js';

/** A retention period that does not read, or records kept shorter than personal data: nothing was pruned. */
export class RetentionPolicyError extends RefusalError {
  readonly code = 'RETENTION_POLICY';
}

/**
 * A file prune could not read (a journal damaged, a folder it may not list): it stops there,
 * exit 2, every job it finished before left finished and nothing else changed (docs/data.md,
 * "Retention").
 */
export class PruneUnreadableError extends RefusalError {
  readonly code = 'PRUNE_UNREADABLE';
}
