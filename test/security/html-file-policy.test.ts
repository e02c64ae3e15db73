import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { groupColours } from '../../src/job-files/outcome-colours.js';
import { emptySummary } from '../../src/job-files/track/summary.js';
import { renderTrackHtml } from '../../src/track/render-html.js';
import { runCli } from '../helpers/cli.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';
import { temporaryFolder, writeResultsCsv } from '../report/fixture.js';

/**
 * The HTML files jobs write (`report --html`, `track --html`), opened from disk where no server
 * sends a header: their `<meta>` Content-Security-Policy lets their own inline style and script
 * run (by hash) and nothing else. In Chromium: the page draws and sorts with no violation; a
 * script slipped into the file (as a hostile edit or a cell that escaped would be) does not run.
 */

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);

const policyOf = (html: string) => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];

async function launched(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  onTestFinished(async () => browser.close());
  return browser;
}

/** A copy of `file` with a script of no hash in it: the policy must refuse it, and say so. */
async function withSlippedScript(file: string): Promise<string> {
  const copy = file.replace(/\.html$/, '.slipped.html');
  await writeFile(
    copy,
    (await readFile(file, 'utf8')).replace('</body>', '<script>document.title = "slipped ran"</script></body>'),
  );
  return copy;
}

async function refusedInChromium(browser: Browser, file: string): Promise<{ title: string; console: string[] }> {
  const page = await browser.newPage();
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await page.goto(pathToFileURL(file).href);
  return { title: await page.title(), console };
}

describe.skipIf(browserPath === undefined && process.env.CI !== 'true')('the HTML files a job writes', () => {
  it('report --html: its policy allows its own style and sorting script by hash, nothing else; in Chromium it draws and sorts with no violation, and a slipped-in script does not run', async () => {
    const folder = await temporaryFolder();
    const file = join(folder, 'report.html');
    expect((await runCli(['report', await writeResultsCsv(folder), '--html', file])).exitCode).toBe(0);
    const html = await readFile(file, 'utf8');
    expect(policyOf(html)).toMatch(
      /^default-src 'none'; style-src 'sha256-[\w+/]{43}='; script-src 'sha256-[\w+/]{43}='; base-uri 'none'; form-action 'none'$/,
    );
    // Before what it governs: the first thing after the charset.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));

    const browser = await launched();
    const page = await browser.newPage();
    refuseContentPolicyViolations(page);
    await page.goto(pathToFileURL(file).href);
    // The inline style applied; the sorting script ran: a click sorts by the column.
    expect(await page.evaluate("getComputedStyle(document.querySelector('#failed th')).cursor")).toBe('pointer');
    const heading = page.locator('#failed th', { hasText: 'line' }).first();
    await heading.click();
    expect(await heading.getAttribute('aria-sort')).toBe('ascending');
    await heading.click();
    expect(await heading.getAttribute('aria-sort')).toBe('descending');

    const slipped = await refusedInChromium(browser, await withSlippedScript(file));
    expect(slipped.title).toMatch(/^bulk-disputes report/);
    expect(slipped.console).toContainEqual(expect.stringContaining('Content Security Policy'));
  });

  it("track --html: no script at all; its style by hash, the key's colours as classes of it; in Chromium it draws with no violation", async () => {
    const folder = await temporaryFolder();
    const summary = emptySummary();
    summary.rows = 3;
    summary.cases = 3;
    summary.outcomesByReason = { fraud: { won: 1, lost: 1, closed: 0, open: 1, never_filed: 0 } };
    summary.resolvedByWeek = { '2026-11-23': 2 };
    const html = renderTrackHtml(summary, [], { title: 'night', service: 'the sandbox', asOf: '2026-11-27' });
    expect(policyOf(html)).toMatch(
      /^default-src 'none'; style-src 'sha256-[\w+/]{43}='; script-src 'none'; base-uri 'none'; form-action 'none'$/,
    );
    expect(html).not.toMatch(/<script|\sstyle=/);
    const file = join(folder, 'track.html');
    await writeFile(file, html);

    const browser = await launched();
    const page = await browser.newPage();
    refuseContentPolicyViolations(page);
    await page.goto(pathToFileURL(file).href);
    expect(await page.locator('#outcomes rect').count()).toBe(3);
    // The key's swatches take their colours from the style (a style attribute would be refused).
    expect(await page.evaluate("getComputedStyle(document.querySelector('.key span.won')).backgroundColor")).toBe(
      rgbOf(groupColours.won),
    );

    const slipped = await refusedInChromium(browser, await withSlippedScript(file));
    expect(slipped.title).toBe('bulk-disputes track: night');
    expect(slipped.console).toContainEqual(expect.stringContaining('Content Security Policy'));
  });
});

function rgbOf(hex: string): string {
  const [red, green, blue] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${String(red)}, ${String(green)}, ${String(blue)})`;
}
