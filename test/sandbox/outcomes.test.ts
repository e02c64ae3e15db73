import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/document.js';
import { decisionExtension } from '../../src/api/openapi/provenance.js';
import { dayMs } from '../../src/filing-rules/filing-window.js';
import { outcomePath, type OutcomeMove } from '../../src/sandbox/rules/outcome-paths.js';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { fraudClaim, liveKey, sandboxKey } from '../helpers/sandbox.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * `--outcomes` over loopback HTTP against real SQLite: filed cases move on as the sandbox clock
 * passes their moves, each case along the path its seed and id give (rules/outcome-paths.ts,
 * checked on its own in outcome-paths.test.ts). What a case shows and what the events say is
 * compared with that path at every step.
 */

type Json = Record<string, unknown>;
type Request = (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; body: Json }>;

interface Running {
  url: string;
  request: Request;
  close: () => Promise<void>;
}

/** A sandbox on port 0 with the control prefix, closed at the end of the test (closing twice is harmless). */
async function start(options: SandboxOptions = {}): Promise<Running> {
  const sandbox = await createSandbox({
    apiKeys: [sandboxKey, liveKey],
    control: true,
    workflowDelayMs: 50,
    ...options,
  });
  onTestFinished(async () => sandbox.close());
  return { url: sandbox.url, request: requester(sandbox.url), close: async () => sandbox.close() };
}

function requester(url: string): Request {
  return async (method, path, body, key = sandboxKey) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
}

/** `claims` claims of `perClaim` cases each, created and filed; returns the case ids. */
async function fileCases(
  request: Request,
  prefix: string,
  claims: number,
  perClaim: number,
  key = sandboxKey,
): Promise<string[]> {
  const caseIds: string[] = [];
  for (let index = 0; index < claims; index++) {
    const claimId = `${prefix}-${String(index)}`;
    expect((await request('POST', '/v2/issuer/new_claim', fraudClaim(claimId, perClaim), key)).status).toBe(201);
    const filed = await request('POST', `/v2/issuer/claims/${claimId}/file`, { file_mode: 'chargeback' }, key);
    expect(filed.body.results).toEqual(
      Array.from({ length: perClaim }, (_, n) => ({ case_id: `${claimId}-case-${String(n + 1)}`, success: true })),
    );
    caseIds.push(...Array.from({ length: perClaim }, (_, n) => `${claimId}-case-${String(n + 1)}`));
  }
  return caseIds;
}

async function clockMs(request: Request): Promise<number> {
  return Date.parse(String((await request('GET', '/_sandbox/clock')).body.now));
}

async function moveClock(request: Request, days: number): Promise<void> {
  const moved = await request('POST', '/_sandbox/clock', { advance_days: days });
  expect(moved.status).toBe(200);
}

async function caseOf(request: Request, caseId: string, key = sandboxKey): Promise<Json> {
  const answer = await request('GET', `/v2/issuer/cases/${caseId}`, undefined, key);
  expect(answer.status).toBe(200);
  return answer.body;
}

interface EventItem {
  event_id: string;
  type: string;
  created: string;
  data: { case_id: string };
}

/** Every event of the key's environment, oldest first. */
async function allEvents(request: Request, key = sandboxKey): Promise<EventItem[]> {
  const events: EventItem[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await request(
      'GET',
      `/v2/issuer/events?limit=100${after === undefined ? '' : `&starting_after=${after}`}`,
      undefined,
      key,
    );
    const data = page.body.data as EventItem[];
    events.push(...data);
    if (page.body.has_more !== true || data.length === 0) break;
    after = data.at(-1)?.event_id;
  }
  return events.reverse();
}

function eventsByCase(events: EventItem[]): Map<string, string[]> {
  const byCase = new Map<string, string[]>();
  for (const event of events) byCase.set(event.data.case_id, [...(byCase.get(event.data.case_id) ?? []), event.type]);
  return byCase;
}

/** What a case shows after the first `made` moves of its path, and the events it has then. */
function expectedAfter(moves: OutcomeMove[], made: number, dueAtFiling: string) {
  const done = moves.slice(0, made);
  const last = done.at(-1);
  const due = done.reduce<number | undefined>((latest, move) => move.resolutionDueMs ?? latest, undefined);
  return {
    status: last?.status ?? 'chargeback_filed',
    closed_reason: last?.closedReason ?? null,
    review_status: done.some((move) => move.needsReview === true) ? 'chargeback_needs_review' : null,
    resolution_due_date: due === undefined ? dueAtFiling : new Date(due).toISOString(),
    events: [
      'case.created',
      'case.chargeback_filed',
      ...done.flatMap((move) => [
        `case.${move.status}`,
        ...(move.needsReview === true ? ['case.chargeback_needs_review'] : []),
      ]),
    ],
  };
}

/** Each case's path, from the seed, its id, its filing (its event's time) and its due date at filing. */
async function pathsOf(request: Request, seed: number, caseIds: string[], key = sandboxKey) {
  const filedAt = new Map(
    (await allEvents(request, key))
      .filter((event) => event.type === 'case.chargeback_filed')
      .map((event) => [event.data.case_id, Date.parse(event.created)]),
  );
  const paths = new Map<string, { moves: OutcomeMove[]; dueAtFiling: string }>();
  for (const caseId of caseIds) {
    const dueAtFiling = String((await caseOf(request, caseId, key)).resolution_due_date);
    paths.set(caseId, {
      moves: outcomePath(seed, caseId, filedAt.get(caseId) ?? Number.NaN, Date.parse(dueAtFiling)),
      dueAtFiling,
    });
  }
  return paths;
}

const finalState = (view: Json) => ({
  status: view.status,
  closed_reason: view.closed_reason,
  review_status: view.review_status,
  resolution_due_date: view.resolution_due_date,
});

describe('bulk-disputes sandbox --outcomes', () => {
  it(
    'moves a few hundred filed cases along their paths as the clock passes, with one event per move, to won or lost',
    { timeout: 120_000 },
    async () => {
      const seed = 11;
      const { request } = await start({ outcomes: { seed } });
      const caseIds = await fileCases(request, 'out', 30, 10);
      const paths = await pathsOf(request, seed, caseIds);
      for (let day = 10; day <= 120; day += 10) {
        await moveClock(request, 10);
        // Moves due up to a second before this reading are made; none due after the last reading.
        const fromMs = (await clockMs(request)) - 1000;
        const views = new Map<string, Json>();
        for (const caseId of caseIds) views.set(caseId, await caseOf(request, caseId));
        const events = await allEvents(request);
        const toMs = await clockMs(request);
        // Event ids in the order of their times.
        const created = events.map((event) => Date.parse(event.created));
        expect(created).toEqual([...created].sort((a, b) => a - b));
        const byCase = eventsByCase(events);
        for (const caseId of caseIds) {
          const { moves, dueAtFiling } = paths.get(caseId) ?? { moves: [], dueAtFiling: '' };
          const least = moves.filter((move) => move.atMs <= fromMs).length;
          const most = moves.filter((move) => move.atMs <= toMs).length;
          const view = views.get(caseId) ?? {};
          // The path's statuses in order are distinct: the status says how many moves were made.
          expect(
            view.status === 'chargeback_filed' || moves.some((move) => move.status === view.status),
            `${caseId} on day ${String(day)}: ${String(view.status)} is not on its path`,
          ).toBe(true);
          const made = moves.findIndex((move) => move.status === view.status) + 1;
          expect(made, `${caseId} on day ${String(day)}`).toBeGreaterThanOrEqual(least);
          expect(made, `${caseId} on day ${String(day)}`).toBeLessThanOrEqual(most);
          const expected = expectedAfter(moves, made, dueAtFiling);
          expect(finalState(view), `${caseId} on day ${String(day)}`).toEqual({
            status: expected.status,
            closed_reason: expected.closed_reason,
            review_status: expected.review_status,
            resolution_due_date: expected.resolution_due_date,
          });
          // The events equal the moves made (a move due between the two readings may have come since).
          const types = byCase.get(caseId) ?? [];
          const eventMoves = types.filter(
            (type) =>
              type !== 'case.created' && type !== 'case.chargeback_filed' && type !== 'case.chargeback_needs_review',
          ).length;
          expect(eventMoves).toBeGreaterThanOrEqual(made);
          expect(eventMoves).toBeLessThanOrEqual(most);
          expect(types, `${caseId} on day ${String(day)}`).toEqual(
            expectedAfter(moves, eventMoves, dueAtFiling).events,
          );
        }
      }

      // Day 120: every path is done (the longest takes under 120 days).
      const finals = await Promise.all(caseIds.map(async (caseId) => caseOf(request, caseId)));
      for (const view of finals) expect(['won', 'lost']).toContain(view.status);
      const reasons = new Set(finals.map((view) => `${String(view.status)}/${String(view.closed_reason)}`));
      for (const reason of reasons)
        expect(['won/accepted', 'won/merchant_credited', 'won/expired', 'lost/rejected', 'lost/expired']).toContain(
          reason,
        );
      const shareOf = (test: (view: Json) => boolean) => finals.filter(test).length / finals.length;
      const byReason = (status: string, reason: string) =>
        shareOf((view) => view.status === status && view.closed_reason === reason);
      // Loose bounds around the model's shares of final outcomes (300 cases).
      expect(byReason('won', 'accepted')).toBeGreaterThan(0.3);
      expect(byReason('won', 'accepted')).toBeLessThan(0.47);
      expect(byReason('won', 'merchant_credited')).toBeGreaterThan(0.04);
      expect(byReason('won', 'merchant_credited')).toBeLessThan(0.17);
      expect(byReason('won', 'expired')).toBeGreaterThan(0.08);
      expect(byReason('won', 'expired')).toBeLessThan(0.23);
      expect(byReason('lost', 'rejected')).toBeGreaterThan(0.18);
      expect(byReason('lost', 'rejected')).toBeLessThan(0.35);
      expect(byReason('lost', 'expired')).toBeGreaterThan(0.04);
      expect(byReason('lost', 'expired')).toBeLessThan(0.17);
      const events = eventsByCase(await allEvents(request));
      const represented = caseIds.filter((caseId) => events.get(caseId)?.includes('case.chargeback_represented'));
      expect(represented.length / caseIds.length).toBeGreaterThan(0.25);
      expect(represented.length / caseIds.length).toBeLessThan(0.45);
      // A representment gives the issuer 30 days from its move to answer: the due date says so.
      for (const caseId of represented) {
        const represent = paths.get(caseId)?.moves[0];
        expect(represent?.status).toBe('chargeback_represented');
        const view = finals[caseIds.indexOf(caseId)] ?? {};
        if (view.closed_reason === 'expired')
          expect(view.resolution_due_date).toBe(new Date((represent?.atMs ?? 0) + 30 * dayMs).toISOString());
      }
      expect(
        represented.filter((caseId) => events.get(caseId)?.includes('case.chargeback_needs_review')).length /
          represented.length,
      ).toBeGreaterThan(0.15);
    },
  );

  it(
    'the same seed gives the same final states, in one jump of the clock as in steps; another seed others',
    { timeout: 60_000 },
    async () => {
      const finalsOf = async (seed: number, steps: number[]) => {
        const { request } = await start({ outcomes: { seed } });
        const caseIds = await fileCases(request, 'same', 10, 10);
        for (const days of steps) await moveClock(request, days);
        return Promise.all(
          caseIds.map(async (caseId) => ({ case_id: caseId, ...finalState(await caseOf(request, caseId)) })),
        );
      };
      const first = await finalsOf(21, [120]);
      const again = await finalsOf(21, [30, 30, 30, 30]);
      const other = await finalsOf(22, [120]);
      const states = (finals: Json[]) => finals.map(({ resolution_due_date: _due, ...state }) => state);
      // Due dates count from the filing, which differs between runs by the time it took: not compared.
      expect(states(again)).toEqual(states(first));
      expect(states(other)).not.toEqual(states(first));
      for (const view of first) expect(['won', 'lost']).toContain(view.status);
    },
  );

  it('without --outcomes nothing moves on its own', async () => {
    const { request } = await start();
    const caseIds = await fileCases(request, 'still', 2, 10);
    await moveClock(request, 200);
    for (const caseId of caseIds)
      expect(finalState(await caseOf(request, caseId))).toMatchObject({
        status: 'chargeback_filed',
        closed_reason: null,
        review_status: null,
      });
    expect(new Set((await allEvents(request)).map((event) => event.type))).toEqual(
      new Set(['case.created', 'case.chargeback_filed']),
    );
  });

  it('a case withdrawn or advanced by hand leaves its path; the rest move on', async () => {
    const seed = 31;
    const { request } = await start({ outcomes: { seed } });
    const caseIds = await fileCases(request, 'left', 2, 10);
    const [withdrawn = '', byHand = '', ...others] = caseIds;
    expect((await request('POST', `/v2/issuer/cases/${withdrawn}/withdraw`)).status).toBe(202);
    expect(
      (await request('POST', `/_sandbox/cases/${byHand}/advance`, { status: 'chargeback_represented' })).status,
    ).toBe(200);
    await moveClock(request, 150);
    expect(finalState(await caseOf(request, withdrawn))).toMatchObject({ status: 'lost', closed_reason: 'withdrawn' });
    expect(await caseOf(request, byHand)).toMatchObject({ status: 'chargeback_represented', closed_reason: null });
    const events = eventsByCase(await allEvents(request));
    expect(events.get(withdrawn)).toEqual(['case.created', 'case.chargeback_filed', 'case.withdrawn']);
    expect(events.get(byHand)).toEqual(['case.created', 'case.chargeback_filed', 'case.chargeback_represented']);
    for (const caseId of others) expect(['won', 'lost']).toContain((await caseOf(request, caseId)).status);
  });

  it('environments stay apart: a move touches only its own case', async () => {
    const { request } = await start({ outcomes: { seed: 41 } });
    const filed = await fileCases(request, 'env', 1, 10);
    // The same ids in production: created, not filed.
    expect((await request('POST', '/v2/issuer/new_claim', fraudClaim('env-0', 10), liveKey)).status).toBe(201);
    // Filed in both: the same path in each (same seed, same id), each with its own events.
    const both = await fileCases(request, 'both', 1, 10);
    expect(await fileCases(request, 'both', 1, 10, liveKey)).toEqual(both);
    await moveClock(request, 150);
    for (const caseId of filed) {
      expect(['won', 'lost']).toContain((await caseOf(request, caseId)).status);
      expect(finalState(await caseOf(request, caseId, liveKey))).toMatchObject({
        status: 'created',
        closed_reason: null,
      });
    }
    const liveEvents = eventsByCase(await allEvents(request, liveKey));
    for (const caseId of filed) expect(liveEvents.get(caseId)).toEqual(['case.created']);
    const sandboxEvents = eventsByCase(await allEvents(request));
    for (const caseId of both) {
      const inSandbox = await caseOf(request, caseId);
      expect(['won', 'lost']).toContain(inSandbox.status);
      expect({ ...finalState(await caseOf(request, caseId, liveKey)), resolution_due_date: undefined }).toEqual({
        ...finalState(inSandbox),
        resolution_due_date: undefined,
      });
      expect(liveEvents.get(caseId)).toEqual(sandboxEvents.get(caseId));
    }
  });

  it(
    'a restarted sandbox (same database file) keeps the schedule: the paths drawn before it go on',
    { timeout: 60_000 },
    async () => {
      const db = join(await temporaryFolder('bulk-disputes-outcomes-'), 'sandbox.db');
      const first = await start({ db, outcomes: { seed: 51 } });
      const caseIds = await fileCases(first.request, 'kept', 5, 10);
      const paths = await pathsOf(first.request, 51, caseIds);
      await moveClock(first.request, 20);
      const movedBefore = (await allEvents(first.request)).length;
      await first.close();

      // Another seed now: the cases filed before keep the paths drawn then.
      const second = await start({ db, outcomes: { seed: 52 } });
      // Its clock starts again from the real time (the clock is not kept): 150 days pass every move.
      await moveClock(second.request, 150);
      const events = await allEvents(second.request);
      expect(events.length).toBeGreaterThan(movedBefore);
      const byCase = eventsByCase(events);
      for (const caseId of caseIds) {
        const { moves, dueAtFiling } = paths.get(caseId) ?? { moves: [], dueAtFiling: '' };
        const expected = expectedAfter(moves, moves.length, dueAtFiling);
        expect(finalState(await caseOf(second.request, caseId))).toEqual({
          status: expected.status,
          closed_reason: expected.closed_reason,
          review_status: expected.review_status,
          resolution_due_date: expected.resolution_due_date,
        });
        // No move made twice, none missed.
        expect(byCase.get(caseId)).toEqual(expected.events);
      }
    },
  );

  it('`bulk-disputes sandbox --outcomes --seed N` serves it from the command line', { timeout: 60_000 }, async () => {
    const served = await startSandboxProcess([
      '--db',
      ':memory:',
      '--api-key',
      sandboxKey,
      '--control',
      '--outcomes',
      '--seed',
      '61',
    ]);
    expect(served.output()).toContain(
      'outcomes: filed cases move on along seeded paths as the sandbox clock passes (seed 61)',
    );
    const request = requester(served.url);
    const caseIds = await fileCases(request, 'cli', 2, 10);
    const paths = await pathsOf(request, 61, caseIds);
    await moveClock(request, 150);
    for (const caseId of caseIds) {
      const { moves, dueAtFiling } = paths.get(caseId) ?? { moves: [], dueAtFiling: '' };
      expect((await caseOf(request, caseId)).status).toBe(expectedAfter(moves, moves.length, dueAtFiling).status);
    }
  });

  it('the OpenAPI document marks it as a sandbox decision where case statuses and events are described', () => {
    const schemas = (openApiDocument() as { components: { schemas: Record<string, Json> } }).components.schemas;
    for (const name of ['Case', 'Event']) {
      expect(schemas[name]?.[decisionExtension], name).toBe(true);
      expect(String(schemas[name]?.description), name).toContain('`--outcomes`');
    }
  });
});
