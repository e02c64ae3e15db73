import type { ClaimsClient } from '../api/client/index.js';
import { ClaimsHttpError } from '../api/errors.js';
import type { Sender } from '../rate/sender.js';
import type { TrackJournal } from '../job-files/track/journal.js';
import { caseStateOf, finalStatuses, serialiseState } from '../job-files/track/case-state.js';
import { walkList } from './walk-list.js';
import type { TrackRequests } from './requests.js';

export const noRequests = (): TrackRequests => ({ casePages: 0, caseReads: 0, claimReads: 0, eventPages: 0 });

/** A list page: the most the interface allows. */
const pageSize = 100;
/** Below this many cases, one retrieve each costs fewer requests than walking pages of the list. */
const listWorthFrom = 2 * pageSize;
/** Retrieves queued at once: enough to keep every place busy, few enough to hold in memory. */
const retrieveChunk = 2000;
/** Answers saved in one transaction, at most. */
const saveEvery = 200;

export interface ReaderOptions {
  client: ClaimsClient;
  journal: TrackJournal;
  run: number;
  /** When this run started (ISO 8601): the time a case first read decided is taken to be decided, without an event saying when. */
  runStartedAt: string;
  concurrency: number;
  /**
   * Holds the reads in flight to a limit that follows the service (429, 503); a read that failed
   * after its retries counts towards its breaker (the case stays to be read); its stop check ends the run.
   */
  sender: Sender;
  onProgress?: (read: number) => void;
}

/**
 * How `track` reads the service, reads only (docs/track.md, "How it reads"):
 * - the first run walks the case list where that costs fewer requests than a retrieve per case,
 *   in as many walks at once as `--concurrency` allows, each starting after one of our cases;
 * - later runs follow the events list from the cursor the last run kept, and read again only the
 *   cases an event names;
 * - whatever a walk did not find is retrieved one by one (404: the case is gone).
 */
export class StateReader {
  readonly requests = noRequests();
  private read = 0;

  constructor(private readonly options: ReaderOptions) {}

  /** The newest event's id now: where the next run's walk of the events starts ('' when there is none yet). */
  async newestEventId(): Promise<string> {
    this.requests.eventPages++;
    const page = await this.options.client.events.list({ limit: 1 });
    return page.data.data[0]?.event_id ?? '';
  }

  /**
   * Every event after `cursor`, oldest first: each case of ours it names is marked to read again.
   * Returns the newest event's id (the next cursor), or `cursor` when there is none. A cursor the
   * service no longer knows (400) is `undefined`: the caller reads everything again.
   */
  async followEvents(
    cursor: string,
    saveCursor: (newest: string) => void,
    adoptCase?: (caseId: string) => void,
  ): Promise<{ cursor: string; named: number } | undefined> {
    const { client, journal } = this.options;
    let newest = cursor;
    let named = 0;
    let next: { limit: number; ending_before?: string; starting_after?: string } =
      cursor === '' ? { limit: pageSize } : { limit: pageSize, ending_before: cursor };
    const towardsNewer = cursor !== '';
    for (;;) {
      if (this.options.sender.stopping) throw new TrackStopped();
      this.requests.eventPages++;
      let page;
      try {
        page = (await this.options.sender.limit(async () => client.events.list(next))).data;
      } catch (error) {
        if (cursor !== '' && error instanceof ClaimsHttpError && error.status === 400) return undefined;
        throw error;
      }
      const events = towardsNewer ? [...page.data].reverse() : page.data;
      const newestOfPage = towardsNewer ? page.data[0]?.event_id : undefined;
      // The marks and the cursor past them in one transaction: a stop between pages loses neither.
      journal.transaction(() => {
        for (const event of events) {
          const caseId = (event.data as { case_id?: unknown } | undefined)?.case_id;
          if (typeof caseId !== 'string') continue;
          adoptCase?.(caseId);
          if (journal.markStale(caseId, event.created)) named++;
        }
        if (newestOfPage !== undefined) saveCursor(newestOfPage);
      });
      if (towardsNewer) {
        if (newestOfPage !== undefined) newest = newestOfPage;
        if (!page.has_more || newestOfPage === undefined) return { cursor: newest, named };
        next = { limit: pageSize, ending_before: newestOfPage };
      } else {
        // From the top (there was no event at the last run): the first page's first event is the
        // newest, kept once the walk has reached the end.
        if (newest === '' && page.data[0] !== undefined) newest = page.data[0].event_id;
        const oldest = page.data.at(-1);
        if (!page.has_more || oldest === undefined) {
          if (newest !== '')
            journal.transaction(() => {
              saveCursor(newest);
            });
          return { cursor: newest, named };
        }
        next = { limit: pageSize, starting_after: oldest.event_id };
      }
    }
  }

  /**
   * Reads every case marked to read. Walks the list for the first read of many cases; retrieves
   * the rest (and every case of a later run) one by one, `--concurrency` at once.
   */
  async readStale(options: { walk: boolean }): Promise<void> {
    const stale = this.options.journal.staleCases();
    if (options.walk && stale.length >= listWorthFrom)
      await walkList(stale, {
        client: this.options.client,
        sender: this.options.sender,
        concurrency: this.options.concurrency,
        requests: this.requests,
        pageSize,
        saveFound: (found) => {
          this.options.journal.transaction(() => {
            for (const listed of found) this.save(listed.case_id, listed);
          });
          this.progressed(found.length);
        },
      });
    await this.retrieveEach(this.options.journal.staleCases());
  }

  /** The claims named without their cases: one retrieve each, its cases read with it. */
  async expandClaims(): Promise<void> {
    const { client, journal } = this.options;
    const rows = journal.claimOnlyRows();
    const byClaim = new Map<string, typeof rows>();
    for (const row of rows) byClaim.set(row.claim_id, [...(byClaim.get(row.claim_id) ?? []), row]);
    await Promise.all(
      [...byClaim].map(async ([claimId, claimRows]) =>
        this.options.sender.limit(async () => {
          if (this.options.sender.stopping) return;
          this.requests.claimReads++;
          try {
            const claim = (await client.claims.retrieve(claimId)).data as { cases?: unknown[] };
            const cases = (claim.cases ?? []).filter(
              (found): found is Record<string, unknown> =>
                typeof found === 'object' &&
                found !== null &&
                typeof (found as { case_id?: unknown }).case_id === 'string',
            );
            journal.transaction(() => {
              for (const row of claimRows)
                journal.expandClaimRow(
                  row,
                  cases.map((found) => found.case_id as string),
                  'the claim has no case',
                );
              // Full cases come with the claim: read now, not again.
              for (const found of cases)
                if (typeof found.status === 'string') this.save(found.case_id as string, found);
            });
            this.options.sender.succeeded();
          } catch (error) {
            if (error instanceof ClaimsHttpError && error.status === 404) {
              journal.transaction(() => {
                for (const row of claimRows) journal.expandClaimRow(row, [], 'the claim is not at the service (404)');
              });
              return;
            }
            this.failed(error);
          }
        }),
      ),
    );
  }

  /** `--all`: every case of the key's environment, from the top of the list to its end. */
  async walkEverything(addCase: (caseId: string) => void): Promise<void> {
    const { client, journal } = this.options;
    let cursor: string | undefined;
    for (;;) {
      if (this.options.sender.stopping) throw new TrackStopped();
      this.requests.casePages++;
      const page = (
        await this.options.sender.limit(async () =>
          client.cases.list(cursor === undefined ? { limit: pageSize } : { limit: pageSize, starting_after: cursor }),
        )
      ).data;
      journal.transaction(() => {
        for (const found of page.data) {
          addCase(found.case_id);
          this.save(found.case_id, found);
        }
      });
      this.progressed(page.data.length);
      const oldest = page.data.at(-1);
      if (!page.has_more || oldest === undefined) return;
      cursor = oldest.case_id;
    }
  }

  private async retrieveEach(caseIds: readonly string[]): Promise<void> {
    const { journal, run } = this.options;
    // Saved in batches, at least once a second: one transaction per answer would be a sync per
    // case, and a batch never saved is read again after a crash.
    const batch: { caseId: string; state: Record<string, unknown> | undefined }[] = [];
    let savedAt = Date.now();
    const flush = (force = true) => {
      if (!force && batch.length < saveEvery && Date.now() - savedAt < 1000) return;
      savedAt = Date.now();
      const saving = batch.splice(0);
      journal.transaction(() => {
        for (const { caseId, state } of saving) {
          if (state === undefined) journal.saveMissing(caseId, run);
          else this.save(caseId, state);
        }
      });
    };
    // A chunk at a time: a promise per case of 100,000 at once would hold them all in memory.
    for (let start = 0; start < caseIds.length && !this.options.sender.stopping; start += retrieveChunk) {
      await this.retrieveChunk(caseIds.slice(start, start + retrieveChunk), batch, flush);
    }
    flush();
  }

  private async retrieveChunk(
    caseIds: readonly string[],
    batch: { caseId: string; state: Record<string, unknown> | undefined }[],
    flush: (force: boolean) => void,
  ): Promise<void> {
    const { client } = this.options;
    await Promise.all(
      caseIds.map(async (caseId) =>
        this.options.sender.limit(async () => {
          if (this.options.sender.stopping) return;
          this.requests.caseReads++;
          try {
            const found = (await client.cases.retrieve(caseId)).data as Record<string, unknown>;
            batch.push({ caseId, state: found });
            this.options.sender.succeeded();
          } catch (error) {
            if (error instanceof ClaimsHttpError && error.status === 404) batch.push({ caseId, state: undefined });
            else {
              this.failed(error);
              return;
            }
          }
          flush(false);
          this.progressed(1);
        }),
      ),
    );
  }

  /** A case as the service answered it, into the journal. */
  private save(caseId: string, found: object): void {
    const state = caseStateOf(found as Record<string, unknown>);
    this.options.journal.saveState(caseId, serialiseState(state), this.options.run, {
      final: finalStatuses.has(state.status),
      at: this.options.runStartedAt,
    });
  }

  /** A read that failed after its retries: the breaker counts it, and shows it. */
  private failed(error: unknown): void {
    this.options.sender.failed(error);
    this.options.sender.showBreaker();
  }

  private progressed(count: number): void {
    this.read += count;
    this.options.onProgress?.(this.read);
  }
}

/** A stop asked for (a signal, or the breaker): the run ends, resumable. */
export class TrackStopped extends Error {
  constructor() {
    super('stop requested');
  }
}
