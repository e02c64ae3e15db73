import { z } from 'zod';
import { parseBody } from '../http/body.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { saveCase } from '../store/records.js';
import { withCase } from './shared.js';

const unavailableBody = z.strictObject({ unavailable: z.boolean() });

/**
 * POST /_sandbox/cases/{case_id}/unavailable `{unavailable}` (control prefix only): while set,
 * run_workflow answers 503 "temporarily unavailable" (interface document, run_workflow).
 */
export async function setCaseUnavailable(call: HandlerCall): Promise<Reply> {
  const body = parseBody(unavailableBody, await call.json());
  return withCase(call, (row) => {
    saveCase(call.core.database, { ...row, unavailable: body.unavailable ? 1 : 0 });
    return { status: 200, body: { case_id: row.case_id, unavailable: body.unavailable } };
  });
}
