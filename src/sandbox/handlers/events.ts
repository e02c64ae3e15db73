import type { HandlerCall, Reply } from '../http/routes.js';
import { listReply } from './shared.js';
import type { EventRow } from '../store/records.js';

/** GET /v2/issuer/events: the page-size parameter is `limit`, as every list's (docs/interface.md). */
export async function listEvents(call: HandlerCall): Promise<Reply> {
  return listReply<EventRow>(call, { table: 'events', idColumn: 'event_id' }, (event) => ({
    event_id: event.event_id,
    type: event.type,
    created: event.created,
    data: { case_id: event.case_id },
  }));
}
