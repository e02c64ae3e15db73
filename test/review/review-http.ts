import { request } from 'undici';
import { onTestFinished } from 'vitest';
import type { ReviewJob } from '../../src/review/job-types.js';
import { startReviewServer, type ReviewServer } from '../../src/review/server.js';
import { ReviewStore } from '../../src/review/store.js';

/** A review server on `job`, its store beside the job's journal; all stopped when the test ends. */
export async function serveReview(job: ReviewJob, evidenceDir: string): Promise<ReviewServer> {
  const store = new ReviewStore(ReviewStore.fileFor(job.journal));
  const server = await startReviewServer({ job, store, evidenceDir });
  onTestFinished(async () => {
    await server.close();
    store.close();
    await job.close();
  });
  return server;
}

const sessions = new WeakMap<ReviewServer, Promise<string>>();

/** The session cookie a browser holds after loading the printed address (`name=value`). */
export async function sessionOf(server: ReviewServer): Promise<string> {
  const known = sessions.get(server);
  if (known !== undefined) return known;
  const opened = request(server.url).then(async (first) => {
    await first.body.dump();
    const cookie = /^[^;]+/.exec(String(first.headers['set-cookie']))?.[0];
    if (first.statusCode !== 200 || cookie === undefined)
      throw new Error(`test: the printed address answered ${String(first.statusCode)} without a session`);
    return cookie;
  });
  sessions.set(server, opened);
  return opened;
}

/** A request as a browser on the page sends it: the session cookie, and for writes the page's Origin; a JSON answer read as `T`. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the answer's shape
export async function call<T = Record<string, unknown>>(
  server: ReviewServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const write = method !== 'GET';
  const response = await request(`${server.origin}${path}`, {
    method,
    headers: {
      cookie: await sessionOf(server),
      ...(write ? { origin: server.origin } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    body: (text.startsWith('{') ? JSON.parse(text) : text) as T,
  };
}

/** GET /api/overview of a job whose rows are shown, not edited (a migration, a withdraw, a track). */
export interface ReadOnlyOverview {
  kind: string;
  rows: number;
  claims: number;
  toFix: number;
  outcomes: { outcome: string; count: number }[];
  errors: { code: string; count: number; hint: string }[];
  fixOutcomes: string[] | null;
  retry: string;
  retryNote: string;
  summaryText?: string;
}

/** GET /api/rows: one page of rows. */
export interface RowsPage {
  total: number;
  rows: {
    line: number;
    outcome: string;
    claimId: string;
    caseId: string;
    errorCode: string;
    errorMessage: string;
    hint: string;
    editable: boolean;
    cells: Record<string, string>;
  }[];
}

/** Rows per outcome, as the overview counts them. */
export const byOutcome = (overview: ReadOnlyOverview): Record<string, number> =>
  Object.fromEntries(overview.outcomes.map(({ outcome, count }) => [outcome, count]));
