import type { Logger } from 'pino';
import type { ClaimsClient } from '../api/client/index.js';
import type { MigrateJournal } from '../job-files/migrate/journal.js';
import type { Sender } from '../rate/sender.js';
import { ClaimRun, type GroupClaims } from './claim-run.js';
import type { MigratePlan } from './plan.js';

/** A dry run's claims: each group listed and grouped counts valid; nothing is sent. */
class CheckedGroups implements GroupClaims {
  readonly created = 0;
  readonly adopted = 0;

  constructor(private readonly journal: MigrateJournal) {}

  async migrate(groupKey: string): Promise<void> {
    if (this.journal.groupRows(groupKey).length > 0) this.journal.setGroupStep(groupKey, 'valid');
  }
}

/** The plan's mode with the run's journal, client and sender: how each group's claim is migrated. */
export function groupClaimsOf(
  mode: MigratePlan['mode'],
  run: { journal: MigrateJournal; client: ClaimsClient; sender: Sender; logger: Logger },
): GroupClaims {
  if (mode.kind === 'check') return new CheckedGroups(run.journal);
  return new ClaimRun(run.journal, run.client, run.sender, run.logger);
}
