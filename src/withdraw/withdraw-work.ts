import type { ClaimsClient } from '../api/client/index.js';
import type { WithdrawJournal } from '../job-files/withdraw/journal.js';
import type { Sender } from '../rate/sender.js';

/** The plan, connected: the job's journal, the service's client, and the sender that paces every request to it. */
export interface WithdrawWork {
  readonly journal: WithdrawJournal;
  readonly client: ClaimsClient;
  readonly sender: Sender;
}
