import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { reviewContentPolicy } from '../../src/review/response-headers.js';
import type { ReviewServer } from '../../src/review/server.js';
import { ReviewSessions } from '../../src/review/sessions.js';
import { importSampleWithBadAmount, temporaryFolder } from '../report/fixture.js';
import { call, serveReview, sessionOf } from '../review/review-http.js';

/**
 * The review server over HTTP, as a hostile page or program on the machine meets it
 * (docs/review.md, "Security"): the headers of every answer, refusals too; the session cookie the
 * printed address is exchanged for, and what a wrong, unknown or forgotten session gets; a request
 * another origin's page makes, told by its fetch metadata.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));

async function reviewServer(): Promise<ReviewServer> {
  const folder = await temporaryFolder();
  const { journal, imported } = await importSampleWithBadAmount(folder, '84x.99');
  expect(imported.exitCode, imported.stderr).toBe(1);
  return serveReview(await openReviewJob([journal], join(root, 'mappings/generic.yaml')), folder);
}

const expectedHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

async function bare(server: ReviewServer, path: string, headers: Record<string, string> = {}) {
  const response = await request(`${server.origin}${path}`, { headers });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text };
}

describe('review: the headers, the session, the fetch metadata', () => {
  it('sends its policy and headers with every answer: the page, its script and style, the API, a redirect, a refusal, a route that is not there', async () => {
    const server = await reviewServer();
    expect(reviewContentPolicy).toBe(expectedHeaders['content-security-policy']);
    const answers = {
      page: await call<string>(server, 'GET', '/'),
      script: await call(server, 'GET', '/review.js'),
      style: await call(server, 'GET', '/review.css'),
      overview: await call(server, 'GET', '/api/overview'),
      rows: await call(server, 'GET', '/api/rows?scope=all'),
      evidence: await call(server, 'GET', '/api/evidence?q=r'),
      check: await call(server, 'POST', '/api/rows/2/check', { body: { cells: 'not an object' } }),
      save: await call(server, 'POST', '/api/save'),
      missing: await call(server, 'GET', '/api/nothing-here'),
      exchange: await bare(server, new URL(server.url).pathname + new URL(server.url).search),
      noToken: await bare(server, '/api/rows'),
      wrongToken: await bare(server, '/api/rows', { authorization: 'Bearer guess' }),
      otherHost: await bare(server, '/', { host: 'evil.example' }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status]))).toEqual({
      page: 200,
      script: 200,
      style: 200,
      overview: 200,
      rows: 200,
      evidence: 200,
      check: 400,
      save: 409,
      missing: 404,
      exchange: 200,
      noToken: 401,
      wrongToken: 403,
      otherHost: 421,
    });
    for (const [name, answer] of Object.entries(answers))
      expect([name, answer.headers]).toEqual([name, expect.objectContaining(expectedHeaders)]);
    expect(answers.page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answers.style.headers['content-type']).toBe('text/css; charset=utf-8');
    // No inline script, style or handler left for the policy to refuse.
    const page = answers.page.body;
    expect(page).toContain('<script src="/review.js"></script>');
    expect(page).toContain('<link rel="stylesheet" href="/review.css">');
    expect(page).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=|javascript:/i);
  });

  it("exchanges the printed token for a session cookie of this server's port, HttpOnly, SameSite=Strict, Path=/, for the browser's session only; an unknown or forgotten session is 401", async () => {
    const server = await reviewServer();
    const port = new URL(server.origin).port;
    expect(server.sessionCookie).toBe(`review_session_${port}`);
    const first = await bare(server, `/?token=${server.token}`);
    // A page of this origin moving on at once, not a 302 (security.ts says why).
    expect(first.status).toBe(200);
    expect(first.text).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(first.text).not.toContain(server.token);
    const setCookie = String(first.headers['set-cookie']);
    // No Domain, no Max-Age or Expires (gone when the browser closes), never the token.
    expect(setCookie).toMatch(
      new RegExp(`^review_session_${port}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`),
    );
    expect(setCookie).not.toContain(server.token);
    const session = /^[^;]+/.exec(setCookie)?.[0] ?? '';
    expect((await bare(server, '/api/overview', { cookie: session })).status).toBe(200);

    // A second load of the printed address keeps a session the browser holds, and keeps the
    // address's other parts; only the token leaves.
    const again = await bare(server, `/?scope=all&token=${server.token}`, { cookie: session });
    expect(again.status).toBe(200);
    expect(again.text).toContain('<meta http-equiv="refresh" content="0;url=/?scope=all">');
    expect(/^[^;]+/.exec(String(again.headers['set-cookie']))?.[0]).toBe(session);

    // A session of another review server, the token as a cookie (as earlier versions set it),
    // or no proof at all: 401, with what was expected.
    const other = await reviewServer();
    const foreign = await sessionOf(other);
    const refused = {
      none: await bare(server, '/api/rows'),
      guessed: await bare(server, '/api/rows', { cookie: `${server.sessionCookie}=guess` }),
      otherServers: await bare(server, '/api/rows', {
        cookie: `${server.sessionCookie}=${foreign.split('=')[1] ?? ''}`,
      }),
      tokenAsCookie: await bare(server, '/api/rows', { cookie: `review_token=${server.token}` }),
    };
    for (const [name, answer] of Object.entries(refused)) {
      expect([name, answer.status]).toEqual([name, 401]);
      expect(JSON.parse(answer.text)).toEqual({
        message: expect.stringMatching(/^expected the token of the address review printed/) as unknown,
      });
    }
    expect(JSON.parse(refused.guessed.text)).toEqual({
      message:
        'expected the token of the address review printed, got a session this server does not know ' +
        '(of a review server since stopped?): open the address review printed',
    });

    // A script may use the API with the token instead: a header, or the address's `?token=`.
    expect((await bare(server, '/api/overview', { authorization: `Bearer ${server.token}` })).status).toBe(200);
    expect((await bare(server, `/api/overview?token=${server.token}`)).status).toBe(200);
    expect((await bare(server, '/api/overview?token=guess')).status).toBe(403);
  });

  it('forgets the oldest session past the most it keeps', async () => {
    const server = await reviewServer();
    const opened: string[] = [];
    for (let count = 0; count <= ReviewSessions.most; count += 1) {
      const first = await bare(server, `/?token=${server.token}`);
      opened.push(/^[^;]+/.exec(String(first.headers['set-cookie']))?.[0] ?? '');
    }
    expect(new Set(opened).size).toBe(ReviewSessions.most + 1);
    expect((await bare(server, '/api/overview', { cookie: opened[0] ?? '' })).status).toBe(401);
    expect((await bare(server, '/api/overview', { cookie: opened[1] ?? '' })).status).toBe(200);
    expect((await bare(server, '/api/overview', { cookie: opened.at(-1) ?? '' })).status).toBe(200);
  });

  it("refuses what another origin's page asks but a top-level navigation: a fetch, a script, an image, a frame (403), even with the session", async () => {
    const server = await reviewServer();
    const cookie = await sessionOf(server);
    const from = (site: string, mode: string, dest: string) => ({
      cookie,
      'sec-fetch-site': site,
      'sec-fetch-mode': mode,
      'sec-fetch-dest': dest,
    });
    const asked = {
      fetch: await bare(server, '/api/rows', from('same-site', 'cors', 'empty')),
      noCors: await bare(server, '/api/rows', from('cross-site', 'no-cors', 'empty')),
      script: await bare(server, '/api/rows', from('same-site', 'no-cors', 'script')),
      image: await bare(server, '/review.css', from('cross-site', 'no-cors', 'image')),
      frame: await bare(server, '/', from('same-site', 'navigate', 'iframe')),
      link: await bare(server, '/', from('cross-site', 'navigate', 'document')),
      ownPage: await bare(server, '/api/rows', from('same-origin', 'cors', 'empty')),
      typed: await bare(server, '/', from('none', 'navigate', 'document')),
    };
    expect(Object.fromEntries(Object.entries(asked).map(([name, answer]) => [name, answer.status]))).toEqual({
      fetch: 403,
      noCors: 403,
      script: 403,
      image: 403,
      frame: 403,
      link: 200,
      ownPage: 200,
      typed: 200,
    });
    expect(JSON.parse(asked.frame.text)).toEqual({
      message: 'Sec-Fetch-Site: expected a request of this page, got same-site (navigate, iframe)',
    });
  });
});
