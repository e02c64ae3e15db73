import type { ListPage } from '../schemas/list.js';
import type { ApiResult } from './transport.js';

export interface PageCursor {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

/**
 * Walks a list page by page, holding one page at a time. Lists are newest first:
 * - from the start or `starting_after`, it yields newest to oldest (cursor: each page's last id);
 * - from `ending_before`, it yields what is newer than that id, oldest to newest (each page
 *   reversed; cursor: each page's newest id), the order an incremental export wants.
 * An item's id is its field `idKey` (`claim_id`, `case_id`, `event_id`).
 */
export async function* paginate<Key extends string, Item extends Readonly<Record<Key, string>>>(
  fetchPage: (cursor: PageCursor) => Promise<ApiResult<ListPage<Item>>>,
  idKey: Key,
  start: PageCursor = {},
): AsyncGenerator<Item, void, undefined> {
  const limit = start.limit ?? 100;
  const towardsNewer = start.ending_before !== undefined;
  let cursor: PageCursor = { ...start, limit };
  for (;;) {
    const { data: page } = await fetchPage(cursor);
    if (towardsNewer) {
      yield* [...page.data].reverse();
      const newest = page.data[0];
      if (!page.has_more || newest === undefined) return;
      cursor = { limit, ending_before: newest[idKey] };
    } else {
      yield* page.data;
      const oldest = page.data.at(-1);
      if (!page.has_more || oldest === undefined) return;
      cursor = { limit, starting_after: oldest[idKey] };
    }
  }
}
