import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openApiText } from '../../src/api/openapi/document.js';
import { operations } from '../../src/api/openapi/operations.js';
import { startTestSandbox } from '../helpers/sandbox.js';

/**
 * The sandbox serves its OpenAPI document without a key, and a page that renders it from files
 * on this machine: nothing is fetched from anywhere but the sandbox.
 */

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const required = process.env.CI === 'true';

describe('the sandbox serves its OpenAPI document', () => {
  it('GET /openapi.json needs no key and is the committed document, naming this sandbox as its server', async () => {
    const { sandbox } = await startTestSandbox();
    const answer = await fetch(`${sandbox.url}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const host = new URL(sandbox.url).host;
    expect(await answer.text()).toBe(openApiText(`http://${host}`));
    // Only reading is open: the service's routes still ask for a key, and so does a write here.
    expect((await fetch(`${sandbox.url}/v2/issuer/claims`)).status).toBe(401);
    expect((await fetch(`${sandbox.url}/openapi.json`, { method: 'POST' })).status).toBe(401);
  });

  it('GET /docs is a page of local files only, under a policy that allows nothing else', async () => {
    const { sandbox } = await startTestSandbox();
    const page = await fetch(`${sandbox.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset.startsWith('/docs/'), asset).toBe(true);
      const file = await fetch(`${sandbox.url}${asset}`);
      expect(file.status, asset).toBe(200);
      expect((await file.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    expect((await fetch(`${sandbox.url}/docs/package.json`)).status).toBe(401);
    expect((await fetch(`${sandbox.url}/docs/..%2Fpackage.json`)).status).toBe(401);
  });

  describe.skipIf(browserPath === undefined && !required)('in a real browser', () => {
    it('renders every operation, with no request leaving the sandbox', { timeout: 60_000 }, async () => {
      const { sandbox } = await startTestSandbox();
      const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
      onTestFinished(async () => browser.close());
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(sandbox.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });
      await page.goto(`${sandbox.url}/docs`);
      // Every operation, and the webhook beside them.
      await expect
        .poll(async () => page.locator('.opblock').count(), { timeout: 20_000 })
        .toBeGreaterThanOrEqual(operations.length);
      await page.getByText('Issuer Chargeback Claims Service').first().waitFor();
      expect(elsewhere).toEqual([]);
    });
  });
});
