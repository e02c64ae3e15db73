import type { Logger } from 'pino';
import type { ClaimsClient } from '../../api/client/index.js';
import type { Journal } from '../journal/journal.js';
import type { ImportPlan } from '../plan.js';
import type { ClaimBody } from './body.js';
import type { EvidenceUploads } from './evidence.js';

/** A claim's steps that reach the service: its create, uploads and filing, through `client`. */
export interface SendingClaims {
  readonly kind: 'send';
  readonly client: ClaimsClient;
  readonly uploads: EvidenceUploads;
}

/**
 * A dry run's claims: everything checked, nothing sent; filing judged at `filingClock`'s time.
 * `reader`, when a service is named: a fed-back claim the service holds is retrieved and compared,
 * to show what the run would update. Never used to write.
 */
export interface CheckingClaims {
  readonly kind: 'check';
  readonly filingClock: () => number;
  readonly reader: ClaimsClient | undefined;
}

/** The plan's mode (plan.ts), connected: the clients its claims use. */
export type ClaimMode = SendingClaims | CheckingClaims;

/** What each claim's steps work with: the plan, and the journal and clients of the run. */
export interface ClaimWork {
  readonly plan: ImportPlan;
  readonly journal: Journal;
  readonly mode: ClaimMode;
  /**
   * This process staged the journal (not a resumed run): its rows' JSON passed this code's wire
   * check, so a claim's body is spliced from it (wire-body.ts). False: built and checked whole.
   */
  readonly stagedHere: boolean;
  /** Receives each claim's body (`--payloads`), before it is sent. */
  readonly onPayload?: ((body: ClaimBody) => Promise<void>) | undefined;
  /** The plan's logger, with what every line of the part at work says (a claim's id). */
  readonly logger: Logger;
}
