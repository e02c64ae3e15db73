import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import type { ReviewServer } from '../../src/review/server.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';
import { importSampleWithBadAmount, temporaryFolder } from '../report/fixture.js';
import { serveReview } from '../review/review-http.js';

/**
 * The review page's token, as an attacker on the same machine and in the same browser goes after
 * it (docs/review.md, "Security"): a real Chromium loads the printed address; the token is in no
 * cookie, not in the address bar, not in the tab's history; another server on 127.0.0.1 (which
 * receives every cookie of 127.0.0.1, whatever its port) that the browser visits is sent no
 * header with the token in it; a hostile page there, or opened from a file, that frames the review
 * page, fetches its API or opens it in a window reads nothing of it.
 */

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const root = fileURLToPath(new URL('../..', import.meta.url));
/** The bad amount of the sample's row to fix: a cell of the page's data. */
const badAmount = '84x.99';

interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** What the hostile page found, per attempt: what it could read of the review page, or why not. */
interface Findings {
  readonly frame: string;
  readonly corsFetch: string;
  readonly noCorsFetch: string;
  readonly script: string;
  readonly window: string;
}

/**
 * The hostile page's script: frames the review page, fetches its API (CORS and no-cors, with the
 * browser's cookies), loads it as a script, opens it in a window; each attempt written down.
 */
const hostileScript = (review: string) => `
const review = ${JSON.stringify(review)};
const findings = {};
const settle = (name, value) => { findings[name] = String(value).slice(0, 300); };
const frame = document.createElement('iframe');
frame.src = review + '/';
// A frame still on its first, empty about:blank has shown nothing yet: read again later, and at
// the end it has shown nothing at all.
const readFrame = (final) => {
  try {
    const text = frame.contentDocument.body.innerHTML;
    if (text !== '') settle('frame', 'read: ' + text);
    else if (final) settle('frame', 'refused: nothing shown');
  } catch (error) { settle('frame', 'refused: ' + error.name); }
};
frame.onload = () => readFrame(false);
document.body.append(frame);
fetch(review + '/api/rows?scope=all', { credentials: 'include' })
  .then((response) => response.text()).then((text) => settle('corsFetch', 'read: ' + text), (error) => settle('corsFetch', 'refused: ' + error.name));
fetch(review + '/api/rows?scope=all', { credentials: 'include', mode: 'no-cors' })
  .then((response) => response.text().then((text) => settle('noCorsFetch', response.type + ' ' + response.status + ' read: ' + text)), (error) => settle('noCorsFetch', 'refused: ' + error.name));
const script = document.createElement('script');
script.src = review + '/api/rows?scope=all';
script.onload = () => settle('script', 'ran');
script.onerror = () => settle('script', 'refused');
document.body.append(script);
const opened = window.open(review + '/', 'review');
// Until the window leaves its first about:blank for the review page, reading it reads nothing.
const watch = setInterval(() => {
  try {
    if (opened === null) { settle('window', 'refused: no window'); clearInterval(watch); return; }
    const text = opened.document.body.innerHTML;
    if (text !== '') { settle('window', 'read: ' + text); clearInterval(watch); }
  } catch (error) { settle('window', 'refused: ' + error.name); clearInterval(watch); }
}, 100);
// Written down once every attempt has settled (a loaded machine is slow), or after 15 s with what has.
const started = Date.now();
const done = setInterval(() => {
  // A refused frame may never fire its load event: once the rest has settled, it is read as it is.
  if (!('frame' in findings) && Object.keys(findings).length === 4 && Date.now() - started > 3000) readFrame(false);
  if (Object.keys(findings).length < 5 && Date.now() - started < 15000) return;
  if (!('frame' in findings)) readFrame(true);
  clearInterval(done);
  window.findings = findings;
}, 100);
`;

/** A tiny server on another port of 127.0.0.1: logs every request it receives; serves the hostile page. */
async function neighbour(review: string): Promise<{ origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    received.push({ url: request.url ?? '', headers: request.headers });
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      request.url === '/hostile'
        ? `<!doctype html><title>hostile</title><body><script>${hostileScript(review)}</script></body>`
        : '<!doctype html><title>neighbour</title><p>a page of another local server</p>',
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  onTestFinished(
    async () =>
      new Promise<void>((closed) => {
        server.close(() => {
          closed();
        });
        // A browser keeps its connections open: close waits for them otherwise.
        server.closeAllConnections();
      }),
  );
  return { origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, received };
}

/** What Chromium told a hostile page's console: a frame refused by the review page's policy says so there. */
function consoleOf(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  return messages;
}

async function findingsOf(page: Page): Promise<Findings> {
  // Strings run in the page: the tests' TypeScript knows no DOM.
  await page.waitForFunction("'findings' in window", undefined, { timeout: 30_000 });
  return page.evaluate<Findings>('window.findings');
}

/** Nothing the hostile page could read holds the page's data or the token. */
function expectNothingRead(findings: Findings, server: ReviewServer): void {
  for (const [attempt, found] of Object.entries(findings)) {
    expect([attempt, found]).not.toEqual([attempt, expect.stringContaining(badAmount)]);
    expect([attempt, found]).not.toEqual([attempt, expect.stringContaining(server.token)]);
    expect([attempt, found]).not.toEqual([attempt, expect.stringContaining('bulk-disputes review')]);
  }
  expect(findings.corsFetch).toMatch(/^refused: TypeError/);
  // Refused outright (Cross-Origin-Resource-Policy), or at most an opaque answer with nothing in it.
  expect(findings.noCorsFetch).toMatch(/^(refused: TypeError|opaque 0 read: )$/);
  expect(findings.script).toBe('refused');
  expect(findings.window).toMatch(/^refused/);
}

describe.skipIf(browserPath === undefined && process.env.CI !== 'true')('the review page token', () => {
  it(
    'is in no cookie, no address, no history entry; another local server is sent none of it; a hostile page, served or opened from a file, reads nothing of the page',
    { timeout: 120_000 },
    async () => {
      const folder = await temporaryFolder();
      const { journal, imported } = await importSampleWithBadAmount(folder, badAmount);
      expect(imported.exitCode, imported.stderr).toBe(1);
      const server = await serveReview(await openReviewJob([journal], join(root, 'mappings/generic.yaml')), folder);
      const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
      onTestFinished(async () => browser.close());
      const context = await browser.newContext();
      const page = await context.newPage();
      refuseContentPolicyViolations(page);

      await page.goto(server.url);
      await page.locator('.cell.bad').first().waitFor();
      // The address bar holds the page's address alone; the page works on its session.
      expect(page.url()).toBe(`${server.origin}/`);
      const cookies = await context.cookies();
      expect(cookies.map(({ value }) => value)).not.toContain(server.token);
      expect(cookies.filter(({ value }) => value.includes(server.token))).toEqual([]);
      expect(cookies).toEqual([
        expect.objectContaining({
          name: server.sessionCookie,
          domain: '127.0.0.1',
          path: '/',
          httpOnly: true,
          sameSite: 'Strict',
          expires: -1,
        }),
      ]);
      // HttpOnly: the page's script sees no cookie at all.
      expect(await page.evaluate('document.cookie')).toBe('');
      // The tab's history: back to where it started, forward to the page without the token.
      await page.goBack();
      expect(page.url()).toBe('about:blank');
      await page.goForward();
      expect(page.url()).toBe(`${server.origin}/`);
      await page.locator('.cell.bad').first().waitFor();

      // Another server on 127.0.0.1: the browser sends it the cookies of 127.0.0.1 (ports do not
      // separate cookies), never the token.
      const other = await neighbour(server.origin);
      const visit = await context.newPage();
      const visitConsole = consoleOf(visit);
      await visit.goto(`${other.origin}/`);
      await visit.goto(`${other.origin}/hostile`);
      const served = await findingsOf(visit);
      console.info('the other local server received:', JSON.stringify(other.received, undefined, 1));
      expect(other.received.length).toBeGreaterThanOrEqual(2);
      for (const { url, headers } of other.received) {
        expect(url).not.toContain(server.token);
        expect(Object.values(headers).join('\n')).not.toContain(server.token);
      }
      console.info('the hostile page on another port found:', served);
      expectNothingRead(served, server);
      expect(served.frame).toMatch(/^refused/);

      // The same page opened from a file.
      const file = join(folder, 'hostile.html');
      await writeFile(
        file,
        `<!doctype html><title>hostile</title><body><script>${hostileScript(server.origin)}</script></body>`,
      );
      const local = await context.newPage();
      const localConsole = consoleOf(local);
      await local.goto(pathToFileURL(file).href);
      const opened = await findingsOf(local);
      console.info('the hostile page opened from a file found:', opened);
      expectNothingRead(opened, server);
      expect(opened.frame).toMatch(/^refused/);

      // Neither framed it: the browser refused the frame (frame-ancestors), and no frame of the
      // hostile pages shows the review page.
      for (const messages of [visitConsole, localConsole])
        await expect
          .poll(() => messages, { timeout: 20_000 })
          .toContainEqual(expect.stringContaining("frame-ancestors 'none'"));
      for (const hostile of [visit, local])
        for (const frame of hostile.frames().slice(1))
          expect(await frame.content().catch(() => '')).not.toContain('bulk-disputes review');
    },
  );
});
