import type { ClaimsClient } from '../api/client/index.js';
import { AuthenticationError, ClaimsHttpError } from '../api/errors.js';
import { ConnectionSetupError } from '../api/network/setup-error.js';
import { isRefusal } from '../api/client/settle.js';
import type { WithdrawJournal, WithdrawLine } from '../job-files/withdraw/journal.js';
import type { PendingRequest } from './withdrawals.js';
import { codeOf } from '../errors/coded-error.js';

/** A request's lines as it left them; `final` false: it failed on the service's side, for the next run. */
export interface SentOutcome {
  lines: WithdrawLine[];
  final: boolean;
  attempts: number;
}

/**
 * One withdrawal or delete, sent at most once: recorded before it leaves, so a crash, a lost answer
 * or a 400 after a retry is settled by retrieving the claim or case (closed and withdrawn, or gone:
 * done), never by sending it again. The client itself resends a withdrawal or delete only on a 503
 * or 429, which the service has not acted on, or after a broken connection, where a second one
 * lands on "already closed" or 404, settled here the same way. Authentication refused and a network
 * set up wrongly are thrown (the run stops, exit 3 or 4-6); everything else becomes the lines'
 * outcome.
 */
export async function sendRequest(
  client: ClaimsClient,
  journal: WithdrawJournal,
  request: PendingRequest,
): Promise<SentOutcome> {
  journal.markSent(request.targetId, request.action);
  try {
    const { attempts, status } = await dispatch(client, request);
    const outcome = request.action === 'delete_case' ? 'deleted' : 'withdrawn';
    return {
      lines: request.lines.map((line) => ({ ...line, outcome, httpStatus: String(status), attempts })),
      final: true,
      attempts,
    };
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof ConnectionSetupError) throw error;
    const attempts = (error as { attempts?: number }).attempts ?? 1;
    const settled = await settleByRetrieve(client, request);
    if (settled !== undefined)
      return {
        lines: request.lines.map((line) => ({ ...line, ...settled(line.caseId), attempts })),
        final: true,
        attempts,
      };
    const status = error instanceof ClaimsHttpError ? error.status : undefined;
    // Refused for good (400: not allowed in its state, 404: gone): said on its lines, not retried.
    if (isRefusal(error)) {
      const outcome = status === 404 ? 'not_found' : 'refused';
      const message = error.errors[0]?.message || error.serviceMessage || error.message;
      return {
        lines: request.lines.map((line) => ({
          ...line,
          outcome,
          statusAfter: line.statusBefore,
          errorCode: error.errors[0]?.code || error.code,
          errorMessage: message,
          httpStatus: String(status),
          attempts,
        })),
        final: true,
        attempts,
      };
    }
    const code = codeOf(error) ?? 'failed';
    const message = error instanceof Error ? error.message : String(error);
    return {
      lines: request.lines.map((line) => ({
        ...line,
        outcome: 'failed',
        statusAfter: line.statusBefore,
        errorCode: code,
        errorMessage: `${message}; run the same command again: it looks before sending again`,
        httpStatus: status === undefined ? '' : String(status),
        attempts,
      })),
      final: false,
      attempts,
    };
  }
}

async function dispatch(client: ClaimsClient, request: PendingRequest): Promise<{ attempts: number; status: number }> {
  switch (request.action) {
    case 'withdraw_claim':
      return { attempts: (await client.claims.withdraw(request.targetId)).attempts, status: 202 };
    case 'withdraw_case':
      return { attempts: (await client.cases.withdraw(request.targetId)).attempts, status: 202 };
    case 'delete_case':
      return { attempts: (await client.cases.delete(request.targetId)).attempts, status: 200 };
  }
}

/**
 * Whether the request took effect after all (a lost answer, or a retry's "already closed" / 404):
 * each case's line as the service shows it now, or undefined when it did not (or cannot tell).
 */
async function settleByRetrieve(
  client: ClaimsClient,
  request: PendingRequest,
): Promise<((caseId: string) => Partial<WithdrawLine>) | undefined> {
  try {
    if (request.action === 'withdraw_claim') {
      const claim = (await client.claims.retrieve(request.targetId)).data;
      const byId = new Map((claim.cases ?? []).map((item) => [item.case_id, item]));
      const withdrawn = request.lines.every((line) => byId.get(line.caseId)?.closed_reason === 'withdrawn');
      if (claim.status !== 'closed' || !withdrawn) return undefined;
      return (caseId) => ({ outcome: 'withdrawn', statusAfter: byId.get(caseId)?.status ?? '' });
    }
    const held = await retrieveCase(client, request.targetId);
    if (request.action === 'delete_case')
      return held === undefined ? () => ({ outcome: 'deleted', statusAfter: 'deleted' }) : undefined;
    if (held?.closed_reason !== 'withdrawn') return undefined;
    return () => ({ outcome: 'withdrawn', statusAfter: held.status ?? '' });
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof ConnectionSetupError) throw error;
    // The service cannot be read either: the request stays unsettled, for the next run.
    return undefined;
  }
}

async function retrieveCase(client: ClaimsClient, caseId: string) {
  try {
    return (await client.cases.retrieve(caseId)).data;
  } catch (error) {
    if (error instanceof ClaimsHttpError && error.status === 404) return undefined;
    throw error;
  }
}
