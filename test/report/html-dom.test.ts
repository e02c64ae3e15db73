import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { failedLines, temporaryFolder, writeResultsCsv } from './fixture.js';

/** Debian's `chromium` (or `chromium-browser`) on PATH; the test is skipped without one. */
function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // Not this one; try the next name.
    }
  }
  return undefined;
}

const chromium = findChromium();
if (chromium === undefined)
  console.warn(
    'test/report/html-dom.test.ts skipped: no chromium or chromium-browser on PATH (Debian: apt-get install chromium)',
  );

describe.skipIf(chromium === undefined)('the HTML report in headless Chromium', () => {
  it('renders the outcome chart and the table of failed rows', async () => {
    const folder = await temporaryFolder();
    const page = join(folder, 'report.html');
    expect((await runCli(['report', await writeResultsCsv(folder), '--html', page])).exitCode).toBe(0);

    const dom = await new Promise<string>((resolve, reject) => {
      const args = [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--user-data-dir=${join(folder, 'profile')}`,
        '--dump-dom',
        pathToFileURL(page).href,
      ];
      execFile(
        chromium ?? 'chromium',
        args,
        { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        (error: Error | null, stdout) => {
          if (error !== null) reject(error);
          else resolve(stdout);
        },
      );
    });
    expect(dom).toMatch(/<svg[^>]*>[\s\S]*<rect/);
    const failed = /<table id="failed">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(dom)?.[1] ?? '';
    expect([...failed.matchAll(/<tr><td class="n">(\d+)<\/td>/g)].map((match) => match[1])).toEqual(failedLines);
    // The escaped cell stayed text: no element was made of it.
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  }, 90_000);
});
