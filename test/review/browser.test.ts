import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startServiceBehindDoor } from '../helpers/service-doors.js';
import {
  csvOf,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runBin,
  type GenericRow,
} from '../import/e2e-fixtures.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';
import { startReview } from '../helpers/review-process.js';

/**
 * `review` in a real Chromium (Debian's, driven by playwright-core; .ci/run installs it when
 * missing): a real import into a real sandbox process leaves a mistyped amount and an unmapped
 * reason; the reviewer opens the printed address, fixes both cells with the keyboard, sees each
 * error clear as the row is checked, saves, and feeds the fix file back: the two claims filed, no
 * other claim created (counted at the sandbox's door). A screenshot is kept in out/test-artifacts/.
 */

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const required = process.env.CI === 'true';
const liveKey = 'live_review_key_0001';
const artifacts = fileURLToPath(new URL('../../out/test-artifacts/', import.meta.url));
const creates = (requests: readonly string[]) =>
  requests.filter((request) => request === 'POST /v2/issuer/new_claim').length;

/** The rows of the night's import: a good claim, a mistyped amount (line 3) and an unmapped reason (line 4). */
const nightRows = () => [
  fraudRow('GOOD', 'T1'),
  fraudRow('AMOUNT', 'T1', { disputed_amount: '84x.99' }),
  fraudRow('REASON', 'T1', { reason_code: 'XX' }),
];

/** A real import of `rows` into a sandbox process (exit 1: some rows left to fix), reviewed in Chromium. */
async function reviewInBrowser(
  extraArgs: readonly string[] = [],
  rows: readonly GenericRow[] = nightRows(),
  created = 1,
) {
  const workspace = await makeWorkspace();
  const service = await startServiceBehindDoor([liveKey]);
  const env = { CLAIMS_BASE_URL: service.url, CLAIMS_API_KEY: liveKey };
  await workspace.write('night.csv', csvOf(rows));
  await workspace.evidence('receipts/cafe-lumiere-receipt.pdf', 'receipts/hotel-receipt.pdf');
  const imported = await runBin(
    ['import', 'night.csv', '--mapping', genericMapping, '--evidence-dir', 'evidence', '--log-level', 'warn'],
    env,
    { cwd: workspace.dir },
  );
  expect(imported.exitCode, imported.stderr).toBe(1);
  expect(creates(service.door.requests())).toBe(created);

  const address = await startReview(
    [join(workspace.dir, 'night.journal.sqlite'), '--mapping', genericMapping, ...extraArgs],
    workspace.dir,
    env,
  );
  const browser: Browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  onTestFinished(async () => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  refuseContentPolicyViolations(page);
  await page.goto(address);
  // The first load takes the token for a session and moves on to the page without it.
  await page.waitForURL(`${new URL(address).origin}/`);
  return { workspace, service, env, page };
}

describe.skipIf(browserPath === undefined && !required)('review in a real browser', () => {
  it(
    'fix an amount and an unmapped reason by keyboard, errors clear live, save, feed back: those two claims filed, nothing else created',
    { timeout: 120_000 },
    async () => {
      const { workspace, service, env, page } = await reviewInBrowser();
      // The token went into a cookie; the address bar no longer shows it.
      expect(page.url()).not.toContain('token=');
      await page.getByText('Line 3 · invalid').waitFor();
      const row = (line: number) => page.locator(`article[data-line="${line}"]`);
      await expect.poll(async () => row(3).locator('.cell.bad input').count()).toBe(1);

      // Keyboard only: focus the marked cell, select its text, type the fix.
      await row(3).getByLabel('disputed_amount', { exact: true }).focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('849.99');
      await row(3).getByText('✓ maps: ready to feed back').waitFor();
      await expect.poll(async () => row(3).locator('.cell.bad').count()).toBe(0);
      await row(4).getByLabel('reason_code', { exact: true }).fill('XY');
      await row(4)
        .getByText(/1 problem\(s\): shared\.dispute\.reason enum_unmapped/)
        .waitFor();
      await row(4).getByLabel('reason_code', { exact: true }).fill('FR');
      await row(4).getByText('✓ maps: ready to feed back').waitFor();

      await page.getByRole('button', { name: 'Save fix file' }).click();
      await page.getByText(/Saved 2 row\(s\) to /).waitFor();
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'review.png'), fullPage: true });
      const saved = (await page.locator('#saved').textContent()) ?? '';
      const fixFile = /to (\S+\.results\.csv)/.exec(saved)?.[1] ?? '';
      expect(saved).toContain(
        `bulk-disputes import ${fixFile} --mapping ${genericMapping} --evidence-dir ${join(workspace.dir, 'evidence')} --journal `,
      );

      const before = service.door.requests().length;
      const fed = await runBin(
        [
          'import',
          fixFile,
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--journal',
          'fix-1.journal.sqlite',
          '--results',
          'fix-1.results.csv',
          '--log-level',
          'warn',
        ],
        env,
        { cwd: workspace.dir },
      );
      expect(fed.exitCode, fed.stderr).toBe(0);
      expect(creates(service.door.requests().slice(before))).toBe(2);
      const { rows } = await readResults(join(workspace.dir, 'fix-1.results.csv'));
      expect(rows.map((result) => [result.dispute_ref, result.outcome])).toEqual([
        ['AMOUNT', 'filed'],
        ['REASON', 'filed'],
      ]);
    },
  );

  it(
    'with --send, the Send button feeds the fixes back from the page: those two claims filed, nothing else created',
    { timeout: 120_000 },
    async () => {
      const { service, page } = await reviewInBrowser(['--send']);
      const row = (line: number) => page.locator(`article[data-line="${line}"]`);
      await page.getByText('Line 3 · invalid').waitFor();
      await row(3).getByLabel('disputed_amount', { exact: true }).fill('849.99');
      await row(3).getByText('✓ maps: ready to feed back').waitFor();
      await row(4).getByLabel('reason_code', { exact: true }).fill('FR');
      await row(4).getByText('✓ maps: ready to feed back').waitFor();
      // Undone: the row is back as the import read it, its error marked; then fixed again.
      await row(4).getByRole('button', { name: 'Undo my edits to line 4' }).click();
      await expect.poll(async () => row(4).getByLabel('reason_code', { exact: true }).inputValue()).toBe('XX');
      await expect.poll(async () => row(4).locator('.cell.bad').count()).toBe(1);
      await row(4).getByLabel('reason_code', { exact: true }).fill('FR');
      await row(4).getByText('✓ maps: ready to feed back').waitFor();
      const before = service.door.requests().length;
      await page.getByRole('button', { name: 'Send fixes' }).click();
      await page.getByText(/Sent: filed 2/).waitFor({ timeout: 60_000 });
      expect(creates(service.door.requests().slice(before))).toBe(2);
    },
  );

  it(
    "a not_filed row, reached from the overview's chart: what the service said, an evidence file attached from the folder, saved and fed back: the claim filed, none created",
    { timeout: 120_000 },
    async () => {
      const { workspace, service, env, page } = await reviewInBrowser(
        [],
        [fraudRow('GOOD', 'T1'), duplicateChargeRow('DUP-1', 'T1', '')],
        2,
      );
      // The overview's outcome bar is a button: it shows the rows behind it.
      await page.getByRole('button', { name: /^not_filed: 1 rows/ }).click();
      const row = page.locator('article[data-line="3"]');
      await row.getByText('Line 3 · not_filed').waitFor();
      await row.getByText(/The service created this claim \(\S+, case \S+\) but did not file it\./).waitFor();
      await row.getByText(/It said: documentation_missing: /).waitFor();
      // The folder is offered as the reviewer types; the path is added to the evidence column and checked.
      await row.getByLabel('file in the evidence folder').fill('hotel');
      // Asked of the page's server as the reviewer types: on a busy machine that takes more than the poll's 1 s.
      await page
        .locator('#evidence-files option[value="receipts/hotel-receipt.pdf"]')
        .waitFor({ state: 'attached', timeout: 15_000 });
      expect(await page.locator('#evidence-files option').count()).toBe(1);
      await row.getByLabel('to column').selectOption('receipt_file');
      await row.getByLabel('file in the evidence folder').fill('receipts/hotel-receipt.pdf');
      await row.getByRole('button', { name: 'Attach' }).click();
      await expect
        .poll(async () => row.getByLabel('receipt_file', { exact: true }).inputValue())
        .toBe('receipts/hotel-receipt.pdf');
      await row.getByText('✓ maps: ready to feed back').waitFor();
      await page.screenshot({ path: join(artifacts, 'review-not-filed.png'), fullPage: true });
      await page.getByRole('button', { name: 'Save fix file' }).click();
      await page.getByText(/Saved 1 row\(s\) to /).waitFor();
      const fixFile = /to (\S+\.results\.csv)/.exec((await page.locator('#saved').textContent()) ?? '')?.[1] ?? '';

      const before = service.door.requests().length;
      const fed = await runBin(
        [
          'import',
          fixFile,
          '--mapping',
          genericMapping,
          '--evidence-dir',
          'evidence',
          '--journal',
          'fix-1.journal.sqlite',
          '--results',
          'fix-1.results.csv',
          '--log-level',
          'warn',
        ],
        env,
        { cwd: workspace.dir },
      );
      expect(fed.exitCode, fed.stderr).toBe(0);
      const sent = service.door.requests().slice(before);
      expect(creates(sent)).toBe(0);
      expect(sent.some((request) => request.startsWith('POST /v2/issuer/files'))).toBe(true);
      const { rows } = await readResults(join(workspace.dir, 'fix-1.results.csv'));
      expect(rows.map((result) => [result.dispute_ref, result.outcome, result.receipt_file])).toEqual([
        ['DUP-1', 'filed', 'receipts/hotel-receipt.pdf'],
      ]);
    },
  );
});
