import type { Logger } from 'pino';
import type { ClaimsClient } from '../../api/client/index.js';
import type { Journal } from '../journal/journal.js';
import type { ClaimBody } from './body.js';
import type { EvidenceUploads } from './evidence.js';
import type { EvidenceDirSetBy } from '../../evidence/index.js';

export interface ClaimWork {
  journal: Journal;
  /** Absent in a dry run: everything is checked, nothing is sent. */
  client: ClaimsClient | undefined;
  /**
   * A dry run's reads, when a service is named: a fed-back claim the service holds is retrieved
   * and compared, to show what the run would update. Never used to write.
   */
  reader?: ClaimsClient | undefined;
  uploads: EvidenceUploads | undefined;
  evidenceDir: string;
  /** Whether `--evidence-dir` named the folder or it is the export's (evidence messages say which). */
  evidenceDirSetBy?: EvidenceDirSetBy | undefined;
  fileMode: 'none' | 'auto' | 'chargeback';
  /**
   * This process staged the journal (not a resumed run): its rows' JSON passed this code's wire
   * check, so a claim's body is spliced from it (wire-body.ts). Absent: built and checked whole.
   */
  stagedHere?: boolean | undefined;
  /**
   * A dry run's clock for the filing rules (docs/import.md, "A dry run"): the time the real run
   * would file at. Absent: now.
   */
  filingClock?: (() => number) | undefined;
  /** Receives each claim's body (`--payloads`), before it is sent. */
  onPayload?: ((body: ClaimBody) => Promise<void>) | undefined;
  logger: Logger;
}
