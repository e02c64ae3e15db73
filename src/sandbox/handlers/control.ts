import { z } from 'zod';
import { parseBody } from '../http/body.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { simpleError, validationError } from '../http/errors.js';
import { dayMs } from '../../filing-rules/filing-window.js';
import { advanceTargets, canAdvance, eventTypeFor, networkMoves } from '../rules/network-moves.js';
import { saveCase } from '../store/records.js';
import { caseView } from '../views.js';
import { withCase } from './shared.js';

const unavailableBody = z.strictObject({ unavailable: z.boolean() });

/**
 * POST /_sandbox/cases/{case_id}/unavailable `{unavailable}` (control prefix only): while set,
 * run_workflow answers 503 "temporarily unavailable", as the service does for a case it cannot
 * file for now.
 */
export async function setCaseUnavailable(call: HandlerCall): Promise<Reply> {
  const body = parseBody(unavailableBody, await call.json());
  return withCase(call, (row) => {
    saveCase(call.core.database, { ...row, unavailable: body.unavailable ? 1 : 0 });
    return { status: 200, body: { case_id: row.case_id, unavailable: body.unavailable } };
  });
}

const advanceBody = z.strictObject({ status: z.enum(advanceTargets) });

/**
 * POST /_sandbox/cases/{case_id}/advance `{status}`: the card network's next move, only along
 * the allowed ones (rules/network-moves.ts), with its event.
 */
export async function advanceCase(call: HandlerCall): Promise<Reply> {
  const body = parseBody(advanceBody, await call.json());
  return withCase(call, (row) => {
    if (!canAdvance(row.status, body.status)) {
      const allowed = networkMoves[row.status]?.join(', ') ?? 'none (not filed, or already decided)';
      throw simpleError(
        400,
        `cannot advance a case from ${row.status} to ${body.status}: allowed next statuses are ${allowed}`,
      );
    }
    saveCase(call.core.database, { ...row, status: body.status });
    call.core.recordEvent(row.environment, eventTypeFor(body.status), row.case_id);
    return { status: 200, body: caseView({ ...row, status: body.status }) };
  });
}

const clockBody = z.strictObject({
  advance_ms: z.number().int().nonnegative().optional(),
  advance_days: z.number().nonnegative().optional(),
});

/** GET / POST /_sandbox/clock: the sandbox's time, moved forward for filing windows and due dates. */
export async function moveClock(call: HandlerCall): Promise<Reply> {
  if (call.request.method === 'POST') {
    const body = parseBody(clockBody, await call.json());
    if (!call.core.advanceClock((body.advance_ms ?? 0) + (body.advance_days ?? 0) * dayMs)) {
      throw validationError('request failed validation', [
        {
          code: 'parameter_invalid',
          details: { field: 'advance_ms' },
          message: 'clock: expected a move that keeps the sandbox within 100 years of now, got more',
        },
      ]);
    }
    // With --outcomes, the moves the clock has just passed are made before it answers.
    await call.core.outcomes?.applyDue();
  }
  return { status: 200, body: { now: call.core.nowIso() } };
}

/** POST /_sandbox/reset: forgets everything of the caller's environment (the other one is untouched), paths of --outcomes included. */
export async function resetEnvironment(call: HandlerCall): Promise<Reply> {
  const { core, environment } = call;
  return core.transaction(() => {
    for (const table of ['claims', 'cases', 'deleted_cases', 'events', 'files', 'outcome_paths']) {
      core.database.prepare(`DELETE FROM ${table} WHERE environment = ?`).run(environment);
    }
    core.blobs.prune(core.database);
    return { status: 200, body: { success: true } };
  });
}
