import type { ClaimsClient } from '../api/client/index.js';
import type { Sender } from '../rate/sender.js';
import type { TrackRequests } from './requests.js';

/** A walk of the list that finds none of ours on this many pages in a row has left the job's part of the list. */
const emptyPagesBeforeStop = 2;

/** What a walk of the case list needs of the reader. */
export interface WalkContext {
  client: ClaimsClient;
  sender: Sender;
  /** `--concurrency`: the most walks at once. */
  concurrency: number;
  /** The reader's count of requests, by kind. */
  requests: TrackRequests;
  /** A list page: the most the interface allows. */
  pageSize: number;
  /** Our cases found on one page: saved in one transaction, and counted as read. */
  saveFound: (found: readonly ({ case_id: string } & object)[]) => void;
}

/**
 * The list walked in parts at once. The list is newest first and a job's cases were created in
 * about the order of its rows, so the cases are cut into as many runs of the sources' order as
 * walks go at once, and each walk starts after the newest case of its run and goes towards
 * older ones. A walk stops once every case of its run is found, where another walk started (that
 * part is that walk's), at the end of the list, or after pages with none of ours. Nothing is assumed: a
 * case no walk found is retrieved after.
 */
export async function walkList(wanted: readonly string[], context: WalkContext): Promise<void> {
  const { pageSize, sender } = context;
  const walks = Math.max(1, Math.min(context.concurrency, Math.floor(wanted.length / (5 * pageSize))));
  const span = Math.ceil(wanted.length / walks);
  // The newest case of each run: the last in the sources' order.
  const starts = Array.from(
    { length: walks },
    (_, walk) => wanted[Math.min(wanted.length, (walk + 1) * span) - 1],
  ).filter((id): id is string => id !== undefined);
  const startSet = new Set(starts);
  const left = new Set(wanted);
  // Each walk's own run of cases: once all of them are found, the walk is done. A case's run is
  // its place in the sources' order divided by the span: one lookup, not one per walk.
  const runOf = new Map(wanted.map((caseId, position) => [caseId, Math.floor(position / span)]));
  const runLeft = starts.map((_, walk) => Math.min(span, wanted.length - walk * span));
  await Promise.all(
    starts.map(async (start, walk) => {
      // The walk's start is read by the walk above it, or retrieved: not counted as its own.
      runLeft[walk] = (runLeft[walk] ?? 1) - 1;
      let cursor = start;
      let emptyPages = 0;
      for (;;) {
        if (sender.stopping || left.size === 0) return;
        context.requests.casePages++;
        let page;
        try {
          page = (
            await sender.limit(async () => context.client.cases.list({ limit: pageSize, starting_after: cursor }))
          ).data;
          sender.succeeded();
        } catch (error) {
          // The walk ends; its cases are retrieved one by one after.
          sender.failed(error);
          sender.showBreaker();
          return;
        }
        const reachedAnother = page.data.some((found) => found.case_id !== start && startSet.has(found.case_id));
        const found = page.data.filter((listed) => left.has(listed.case_id));
        for (const listed of found) {
          left.delete(listed.case_id);
          const run = runOf.get(listed.case_id);
          if (run !== undefined && listed.case_id !== starts[run]) runLeft[run] = (runLeft[run] ?? 1) - 1;
        }
        const ours = found.length;
        context.saveFound(found);
        emptyPages = ours === 0 ? emptyPages + 1 : 0;
        const oldest = page.data.at(-1);
        if (
          (runLeft[walk] ?? 0) <= 0 ||
          reachedAnother ||
          !page.has_more ||
          oldest === undefined ||
          emptyPages >= emptyPagesBeforeStop
        )
          return;
        cursor = oldest.case_id;
      }
    }),
  );
}
