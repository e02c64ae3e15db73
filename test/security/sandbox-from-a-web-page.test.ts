import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fraudClaim, sandboxKey, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * A web page open in the same browser as a running sandbox must not drive it (docs/sandbox.md,
 * "What a web page cannot do to a running sandbox"): a write that is not JSON is 415, a request
 * of another origin 403, and a 401 carries no challenge that would make the browser keep a key.
 * First with plain requests, then from pages in a real Chromium.
 */

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const auth = { authorization: basic(sandboxKey) };
const claimJson = (claimId: string) => JSON.stringify(fraudClaim(claimId));

async function claimIds(t: TestSandbox): Promise<string[]> {
  return (await t.client.claims.list({ limit: 100 })).data.data.map((claim) => claim.claim_id).sort();
}

async function post(url: string, headers: Record<string, string>, body?: string | Uint8Array) {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

describe('a write that is not JSON is 415', () => {
  it.each([
    ['text/plain (a form of enctype text/plain, or a no-cors fetch)', { 'content-type': 'text/plain' }, '"text/plain"'],
    [
      'text/plain as fetch sends a string',
      { 'content-type': 'text/plain;charset=UTF-8' },
      '"text/plain;charset=UTF-8"',
    ],
    [
      'a url-encoded form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      '"application/x-www-form-urlencoded"',
    ],
    ['a multipart form', { 'content-type': 'multipart/form-data; boundary=x' }, '"multipart/form-data; boundary=x"'],
    [
      'JSON in another charset',
      { 'content-type': 'application/json; charset=iso-8859-1' },
      '"application/json; charset=iso-8859-1"',
    ],
    ['a JSON-like type', { 'content-type': 'application/jsonx' }, '"application/jsonx"'],
    ['no Content-Type', {}, `none, with a body of ${claimJson('ct_refused').length} bytes`],
  ])('%s: refused, nothing created', async (_name, headers: Record<string, string>, got) => {
    const t = await startTestSandbox();
    // A Uint8Array: fetch adds no Content-Type of its own.
    const answer = await post(
      `${t.sandbox.url}/v2/issuer/new_claim`,
      { ...auth, ...headers },
      Buffer.from(claimJson('ct_refused')),
    );
    expect(answer).toMatchObject({
      status: 415,
      body: { message: `expected Content-Type application/json, got ${got}` },
    });
    expect(await claimIds(t)).toEqual([]);
  });

  it('application/json, in any case and with a charset of utf-8, is taken; a POST without a body needs no type', async () => {
    const t = await startTestSandbox({ control: true });
    for (const [claimId, type] of [
      ['ct_plain', 'application/json'],
      ['ct_cased', 'Application/JSON'],
      ['ct_charset', 'application/json; charset=utf-8'],
      ['ct_quoted', 'application/json;charset="UTF-8"'],
    ] as const)
      expect(
        (await post(`${t.sandbox.url}/v2/issuer/new_claim`, { ...auth, 'content-type': type }, claimJson(claimId)))
          .status,
      ).toBe(201);
    // As our client withdraws, and as curl -X POST sends: no body, no type.
    expect((await post(`${t.sandbox.url}/v2/issuer/claims/ct_plain/withdraw`, auth)).status).toBe(202);
    expect((await t.client.claims.withdraw('ct_cased')).status).toBe(202);
    expect(await claimIds(t)).toEqual(['ct_cased', 'ct_charset', 'ct_plain', 'ct_quoted']);
    // A body-less route told its empty body is a form: refused all the same.
    const emptyForm = await post(`${t.sandbox.url}/_sandbox/reset`, {
      ...auth,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(emptyForm.status).toBe(415);
    expect(await claimIds(t)).toHaveLength(4);
    expect((await post(`${t.sandbox.url}/_sandbox/reset`, auth)).status).toBe(200);
    expect(await claimIds(t)).toEqual([]);
  });

  it('the upload still asks for multipart/form-data in its own words (400 content_type_invalid)', async () => {
    const t = await startTestSandbox();
    const answer = await post(
      `${t.sandbox.url}/v2/issuer/files`,
      { ...auth, 'content-type': 'text/plain' },
      'category=x',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: [{ code: 'content_type_invalid' }] });
  });
});

describe('a request a page of another origin sends is 403, before its key is looked at', () => {
  const crossOrigin: [string, Record<string, string>, string][] = [
    ['a page on another port', { origin: 'http://127.0.0.1:9' }, 'Origin: http://127.0.0.1:9'],
    ['a file:// or sandboxed page', { origin: 'null' }, 'Origin: null'],
    ['a page on another site', { origin: 'https://evil.example' }, 'Origin: https://evil.example'],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 'Sec-Fetch-Site: cross-site'],
    ['Sec-Fetch-Site: same-site (another port)', { 'sec-fetch-site': 'same-site' }, 'Sec-Fetch-Site: same-site'],
  ];
  const refusal = (got: string) => ({
    message: `cross-origin request refused: expected a request from a client, curl or this sandbox's own pages, got ${got}`,
  });

  it.each(crossOrigin)('%s: no claim, no reset, no read', async (_name, headers, got) => {
    const t = await startTestSandbox({ control: true });
    await t.client.claims.createWithCases(fraudClaim('kept'));
    const json = { ...auth, ...headers, 'content-type': 'application/json' };
    expect(await post(`${t.sandbox.url}/v2/issuer/new_claim`, json, claimJson('evil'))).toMatchObject({
      status: 403,
      body: refusal(got),
    });
    expect(await post(`${t.sandbox.url}/_sandbox/reset`, { ...auth, ...headers })).toMatchObject({
      status: 403,
      body: refusal(got),
    });
    expect(await post(`${t.sandbox.url}/v2/issuer/claims/kept/withdraw`, { ...auth, ...headers })).toMatchObject({
      status: 403,
    });
    const read = await fetch(`${t.sandbox.url}/v2/issuer/claims/kept`, { headers: { ...auth, ...headers } });
    expect(read.status).toBe(403);
    expect(await read.text()).not.toContain('kept');
    // Without a key too: a page learns nothing from the answer's status.
    expect((await post(`${t.sandbox.url}/v2/issuer/new_claim`, { ...headers }, claimJson('evil'))).status).toBe(403);
    expect(await claimIds(t)).toEqual(['kept']);
    expect((await t.client.claims.retrieve('kept')).data.status).toBe('open');
  });

  it('the sandbox\'s own page ("Try it out" on /docs) and an address typed into the browser pass', async () => {
    const t = await startTestSandbox();
    const own = new URL(t.sandbox.url).origin;
    for (const [claimId, headers] of [
      ['own_origin', { origin: own, 'sec-fetch-site': 'same-origin' }],
      ['typed', { 'sec-fetch-site': 'none' }],
    ] as const) {
      const answer = await post(
        `${t.sandbox.url}/v2/issuer/new_claim`,
        { ...auth, ...headers, 'content-type': 'application/json' },
        claimJson(claimId),
      );
      expect(answer.status).toBe(201);
    }
    expect(await claimIds(t)).toEqual(['own_origin', 'typed']);
  });

  it('a preflight is refused and nothing answers with CORS headers', async () => {
    const t = await startTestSandbox();
    const preflight = await fetch(`${t.sandbox.url}/v2/issuer/new_claim`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:9',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(403);
    const answers = [
      preflight,
      await fetch(`${t.sandbox.url}/v2/issuer/claims`, { headers: auth }),
      await fetch(`${t.sandbox.url}/openapi.json`, { headers: { origin: 'http://127.0.0.1:9' } }),
    ];
    for (const answer of answers)
      expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

describe('a 401 makes no browser keep a key', () => {
  it('no WWW-Authenticate challenge, the body as before', async () => {
    const t = await startTestSandbox();
    const refused: Record<string, string>[] = [
      {},
      { authorization: basic('test_unknown_key') },
      { authorization: 'Bearer x' },
    ];
    for (const headers of refused) {
      const answer = await fetch(`${t.sandbox.url}/v2/issuer/claims`, { headers });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBeNull();
      expect(Object.keys((await answer.json()) as object)).toEqual(['message']);
    }
  });
});

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const required = process.env.CI === 'true';

/**
 * The hostile page's attempts on `target` (the sandbox's address), each in its own page. The
 * text/plain form is the classic one: its one field's name and value, joined by the `=` the
 * encoding puts between them, are a whole new_claim.
 */
function attacks(target: string, claimPrefix: string): { name: string; path: string; html: string }[] {
  const field = (claimId: string) => {
    const json = claimJson(claimId);
    const cut = json.indexOf('Ada Lovelace') + 'Ada'.length;
    return `<input type="hidden" name='${json.slice(0, cut)}' value='${json.slice(cut + 1)}'>`;
  };
  const form = (action: string, enctype: string, fields: string) =>
    `<form id="f" method="POST" action="${action}" enctype="${enctype}">${fields}</form><script>document.getElementById('f').submit()</script>`;
  const withKey = target.replace('http://', `http://${sandboxKey}:@`);
  const noCors = (path: string, body: string) =>
    `<script>fetch('${target}${path}', { method: 'POST', mode: 'no-cors', credentials: 'include', ${body} })</script>`;
  return [
    {
      name: 'a text/plain form',
      path: '/v2/issuer/new_claim',
      html: form(`${target}/v2/issuer/new_claim`, 'text/plain', field(`${claimPrefix}_form`)),
    },
    {
      name: 'a form with the key in its address',
      path: '/v2/issuer/new_claim',
      html: form(`${withKey}/v2/issuer/new_claim`, 'text/plain', field(`${claimPrefix}_key_in_address`)),
    },
    {
      name: 'a no-cors fetch asking for application/json (the browser drops the type)',
      path: '/v2/issuer/new_claim',
      html: noCors(
        '/v2/issuer/new_claim',
        `headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(claimJson(`${claimPrefix}_fetch`))}`,
      ),
    },
    { name: 'a body-less no-cors fetch to reset', path: '/_sandbox/reset', html: noCors('/_sandbox/reset', '') },
    {
      name: 'an empty form to reset',
      path: '/_sandbox/reset',
      html: form(`${target}/_sandbox/reset`, 'application/x-www-form-urlencoded', ''),
    },
  ];
}

describe.skipIf(browserPath === undefined && !required)('from hostile pages in a real Chromium', () => {
  it.each([
    ['a browser that was given the key (its login dialog)', 'dialog'],
    ['a browser that sends the key with every request', 'always'],
  ] as const)('%s: no page creates a claim or resets the sandbox', { timeout: 120_000 }, async (_name, keyHeld) => {
    const t = await startTestSandbox({ control: true });
    await t.client.claims.createWithCases(fraudClaim('kept'));
    const sandboxOrigin = new URL(t.sandbox.url).origin;

    const hostilePages = new Map<string, string>();
    const hostile = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(hostilePages.get(request.url ?? '') ?? '');
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    onTestFinished(
      async () =>
        new Promise<void>((resolve) => {
          hostile.close(() => {
            resolve();
          });
          // A browser keeps its connections open: close waits for them otherwise.
          hostile.closeAllConnections();
        }),
    );
    const hostileOrigin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    const folder = await temporaryFolder('bulk-disputes-hostile-page-');

    // Chromium's own guard for pages reaching this machine is off: the sandbox's rules are what is tried.
    const browser = await chromium.launch({
      executablePath: browserPath,
      args: ['--no-sandbox', '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults'],
    });
    onTestFinished(async () => browser.close());
    const context: BrowserContext = await browser.newContext(
      keyHeld === 'dialog'
        ? { httpCredentials: { username: sandboxKey, password: '', origin: sandboxOrigin } }
        : { extraHTTPHeaders: auth },
    );

    const seen: string[] = [];
    let index = 0;
    for (const where of ['file', 'other port'] as const) {
      for (const attack of attacks(t.sandbox.url, where === 'file' ? 'evil_file' : 'evil_port')) {
        index += 1;
        const page = await context.newPage();
        const answered = page.waitForResponse(
          (response) =>
            new URL(response.url()).origin === sandboxOrigin && new URL(response.url()).pathname === attack.path,
          { timeout: 20_000 },
        );
        const html = `<!doctype html><html><body>${attack.html}</body></html>`;
        if (where === 'file') {
          const file = join(folder, `attack-${String(index)}.html`);
          await writeFile(file, html);
          await page.goto(pathToFileURL(file).href);
        } else {
          hostilePages.set(`/attack-${String(index)}`, html);
          await page.goto(`${hostileOrigin}/attack-${String(index)}`);
        }
        const response = await answered;
        seen.push(`${where}, ${attack.name}: ${String(response.status())}`);
        await page.close();
      }
    }
    // Every attempt reached the sandbox and was refused there, by its origin first (without these
    // rules each made its claim or emptied the sandbox); the claim made before is untouched.
    expect(seen).toHaveLength(10);
    for (const line of seen) expect(line).toMatch(/: 403$/);
    expect(await claimIds(t)).toEqual(['kept']);
    expect((await t.client.claims.retrieve('kept')).data.status).toBe('open');
  });
});
