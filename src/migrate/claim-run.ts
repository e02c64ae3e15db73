import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ClaimsClient } from '../api/client/index.js';
import { ClaimsHttpError, OutcomeUnknownError } from '../api/errors.js';
import { isFatalFailure } from '../rate/breaker.js';
import type { Sender } from '../rate/sender.js';
import { isRefusal, settle } from '../api/client/settle.js';
import { migratedClaimId } from '../job-files/migrate/group.js';
import type { MigrateJournal, MigrateRow, Problem } from '../job-files/migrate/journal.js';
import { keyTaken } from '../job-files/migrate/key-taken.js';
import { codeOf } from '../errors/coded-error.js';

/** What the run does with each group's claim: the plan's mode, connected (group-claims.ts `groupClaimsOf`). */
export interface GroupClaims {
  migrate(groupKey: string): Promise<void>;
  /** Claims created by this run. */
  readonly created: number;
  /** Claims an earlier run had created, found and taken as this group's. */
  readonly adopted: number;
}

/** A create may be sent again after this many settles that found nothing. */
const maxSends = 3;
const settleDelayMs = 1000;

/** One group's claim as the run works on it: its lines carry the group key. */
interface GroupClaim {
  readonly groupKey: string;
  readonly claimId: string;
  readonly logger: Logger;
}

/**
 * The claims of migrate-v1 that are sent (the plan's `send` mode): `POST /v2/issuer/claims
 * {case_ids, claim_id}` exactly once each, an unknown outcome or a 409 settled with a retrieve
 * first, so that no claim is ever created twice.
 */
export class ClaimRun implements GroupClaims {
  created = 0;
  adopted = 0;

  constructor(
    private readonly journal: MigrateJournal,
    private readonly client: ClaimsClient,
    /** The job's sender: its breaker counts each claim, and a fatal error stops it. */
    private readonly sender: Sender,
    private readonly logger: Logger,
  ) {}

  async migrate(groupKey: string): Promise<void> {
    const rows = this.journal.groupRows(groupKey);
    const first = rows[0];
    if (first === undefined) return;
    const claim: GroupClaim = {
      groupKey,
      claimId: migratedClaimId(groupKey),
      logger: this.logger.child({ groupKey }),
    };
    try {
      // An earlier run may have sent it: look before sending again.
      if ((first.step === 'submitting' || first.step === 'failed') && (await this.settled(claim, rows))) return;
      await this.send(claim, rows);
    } catch (error) {
      this.failed(claim, error);
    }
  }

  private async send(claim: GroupClaim, initialRows: MigrateRow[]): Promise<void> {
    const { groupKey, claimId } = claim;
    let rows = initialRows;
    for (let sends = 1; ; sends++) {
      this.journal.setGroupStep(groupKey, 'submitting');
      try {
        const { attempts } = await this.client.claims.create({
          case_ids: rows.map((row) => row.case_id),
          claim_id: claimId,
        });
        this.journal.addAttempts(groupKey, attempts);
        this.journal.setGroupStep(groupKey, 'migrated');
        this.created++;
        this.sender.succeeded();
        return;
      } catch (error) {
        this.journal.addAttempts(groupKey, (error as { attempts?: number }).attempts ?? 1);
        const conflict = error instanceof ClaimsHttpError && error.status === 409;
        if (error instanceof OutcomeUnknownError || conflict) {
          if (error instanceof OutcomeUnknownError) await sleep(settleDelayMs);
          if (await this.settled(claim, rows, conflict ? 409 : undefined)) return;
          if (conflict) {
            // No claim of ours: some case of the group belongs to another claim by now.
            const moved = await this.skipOwnedElsewhere(rows, claimId);
            rows = this.journal.groupRows(groupKey);
            if (rows.length === 0) return;
            if (moved > 0 && sends < maxSends) continue;
            this.journal.setGroupStep(groupKey, 'rejected', problemOf(error));
            return;
          }
          if (sends >= maxSends) throw error;
          continue;
        }
        if (isRefusal(error)) {
          // A refusal of a resend may be the service's way of saying the first send worked.
          if (sends > 1 && (await this.settled(claim, rows, error.status))) return;
          this.journal.setGroupStep(groupKey, 'rejected', problemOf(error));
          this.sender.succeeded();
          return;
        }
        throw error;
      }
    }
  }

  /**
   * Retrieves the claim by its id: found holding the group's cases → adopted (migrated); found
   * holding others → another group's claim under the same key, refused. True when settled.
   */
  private async settled(claim: GroupClaim, rows: readonly MigrateRow[], httpStatus?: number): Promise<boolean> {
    const { groupKey, claimId } = claim;
    const found = await settle(this.client, claimId);
    if (found === undefined) return false;
    const taken = keyTaken(found, rows, httpStatus);
    if (taken !== undefined) {
      this.journal.setGroupStep(groupKey, 'rejected', taken);
      this.sender.succeeded();
      claim.logger.warn({ claimId }, "another claim holds this group's claim id: refused, left as it is");
      return true;
    }
    this.journal.setGroupStep(groupKey, 'migrated');
    this.adopted++;
    this.sender.succeeded();
    return true;
  }

  private async skipOwnedElsewhere(rows: readonly MigrateRow[], claimId: string): Promise<number> {
    let moved = 0;
    for (const row of rows) {
      const { data } = await this.client.cases.retrieve(row.case_id);
      const owner = (data as { claim_id?: string | null }).claim_id;
      if (typeof owner === 'string' && owner !== '' && owner !== claimId) {
        this.journal.skip(row.case_id, owner);
        moved++;
      }
    }
    return moved;
  }

  private failed({ groupKey, logger }: GroupClaim, error: unknown): void {
    if (isFatalFailure(error)) {
      // Left as it stands (submitting settles next run); the run stops.
      this.sender.stopFor(error);
      return;
    }
    const problem = problemOf(error);
    this.journal.setGroupStep(groupKey, 'failed', problem);
    this.sender.breaker.failed(`${problem.code}: ${problem.message}`);
    logger.warn({ code: problem.code, error: problem.message }, 'claim failed; the next run tries it again');
  }
}

function problemOf(error: unknown): Problem {
  if (error instanceof ClaimsHttpError) {
    const item = error.errors[0];
    const code = item?.code !== undefined && item.code !== '' ? item.code : error.code;
    const message =
      error.errors.length > 0
        ? error.errors.map((entry) => entry.message).join('; ')
        : error.serviceMessage || error.message;
    return { code, message, httpStatus: error.status };
  }
  const code = codeOf(error);
  return {
    code: code ?? 'internal_error',
    message: error instanceof Error ? error.message : String(error),
    httpStatus: (error as { status?: number }).status,
  };
}
