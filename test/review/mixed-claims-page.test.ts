import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { outcomeColours } from '../../src/job-files/outcome-colours.js';
import { csvOf, fraudRow, genericMapping, jobArgs, makeWorkspace, runCli } from '../import/e2e-fixtures.js';
import { serveReview } from './review-http.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const artifacts = fileURLToPath(new URL('../../out/test-artifacts/', import.meta.url));

/** Claim keys as operators write them, short and long; the generic mapping's claim id is `CLM-` and the key. */
const keys = [
  'PR-IT-7005',
  'PR-IT-2026-11-27-0007006',
  'CHG-FR-2026-11-27-PARIS-OPERA-0007007',
  'DISPUTE-DE-2026-11-27-BERLIN-MITTE-STORE-0042-0007008',
  'PR-ES-7009',
  'CHG-NL-2026-11-27-AMSTERDAM-CENTRAAL-0007010',
];

/**
 * The review page of a night whose claims have mixed outcomes (one transaction filed, the other
 * past its filing window), drawn in Chromium at 1,400 pixels: each entry of "Claims with mixed
 * outcomes" reads as text, its link at the start of the line, wrapping as text wraps (never
 * centred in a box of its own), at most two lines high; a case never filed is not drawn in a
 * filed one's colour.
 */
describe('review page: claims with mixed outcomes', () => {
  it('draws each mixed claim as text of at most two lines at 1,400 pixels, its link at the start', async () => {
    if (browserPath === undefined && process.env.CI !== 'true') return;
    const workspace = await makeWorkspace();
    const rows = keys.flatMap((key) => [fraudRow(key, 'T1'), fraudRow(key, 'T2', { transaction_date: '2025-01-02' })]);
    const input = await workspace.write('night.csv', csvOf(rows));
    const night = jobArgs(workspace, 'night', input);
    const run = await runCli([
      ...night.args,
      '--sandbox-db',
      join(workspace.dir, 'sandbox.db'),
      '--log-level',
      'silent',
    ]);
    expect(run.exitCode, run.stderr).toBe(1);
    const server = await serveReview(
      await openReviewJob([join(workspace.dir, 'night.journal.sqlite')], genericMapping),
      workspace.evidenceDir,
    );

    const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    onTestFinished(async () => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    refuseContentPolicyViolations(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.locator('#mixed li a').first().waitFor();
    // An entry's lines: its height over a line's, the shortest entry's (a short key and id are one line).
    const items = page.locator('#mixed li');
    expect(await items.count()).toBe(keys.length);
    const entries = [];
    for (let index = 0; index < keys.length; index++) {
      const item = items.nth(index);
      const [box, link] = await Promise.all([item.boundingBox(), item.locator('a').boundingBox()]);
      entries.push({
        text: await item.textContent(),
        height: box?.height ?? 0,
        linkOffset: (link?.x ?? 0) - (box?.x ?? 0),
      });
    }
    const lineHeight = Math.min(...entries.map((entry) => entry.height));
    for (const [index, key] of keys.entries()) {
      const entry = entries[index];
      expect(entry?.text).toBe(`${key} (CLM-${key}): filed, not_filed`);
      expect(Math.round((entry?.height ?? 0) / lineHeight), entry?.text ?? '').toBeLessThanOrEqual(2);
      // At the start of the line, not centred in a box of its own.
      expect(entry?.linkOffset, entry?.text ?? '').toBeLessThan(1);
    }
    // The link still shows that claim's rows.
    await page.locator('#mixed li a').nth(2).click();
    await page
      .getByText(`Claim ${keys[2] ?? ''}`, { exact: false })
      .first()
      .waitFor();
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'review-mixed-claims.png'), fullPage: true });
    expect(errors).toEqual([]);
    // Never filed is amber, filed green: not one colour for both.
    expect(outcomeColours.not_filed).not.toBe(outcomeColours.filed);
    expect(outcomeColours.created).not.toBe(outcomeColours.won);
  });
});
