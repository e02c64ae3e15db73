import type { HandlerCall, Reply } from '../http/routes.js';
import { pageOf, readPageRequest } from '../store/pagination.js';
import type { EventRow } from '../store/records.js';

/** GET /v2/issuer/events: the page-size parameter is `limit`, as every list's (docs/interface.md). */
export async function listEvents(call: HandlerCall): Promise<Reply> {
  const page = pageOf<EventRow>(
    call.core.database,
    call.environment,
    { table: 'events', idColumn: 'event_id' },
    readPageRequest(call.query),
  );
  const data = page.rows.map((event) => ({
    event_id: event.event_id,
    type: event.type,
    created: event.created,
    data: { case_id: event.case_id },
  }));
  return { status: 200, body: { data, has_more: page.hasMore } };
}
