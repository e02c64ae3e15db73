import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openThroughRedirectFile } from '../../src/review/redirect-file.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';
import { importSampleWithBadAmount, temporaryFolder } from '../report/fixture.js';

/**
 * `review --open` (docs/review.md, "Security"): a process's arguments are every local user's to
 * read (`ps`, /proc/PID/cmdline), so the opener is never given the tokened address, but the path
 * of a redirect file, 0600 in a folder of its own (0700), removed when the server stops or its
 * lifetime ends. The opener is BULK_DISPUTES_OPENER here: a real program that writes down what it
 * was run with and what it found.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);

interface Opened {
  readonly argv: string[];
  readonly cmdline: string;
  readonly fileMode: number;
  readonly folderMode: number;
  readonly folderEntries: string[];
  readonly page: string;
}

/** An opener that writes down its arguments, its /proc cmdline and the file it was given, to `log`. */
async function recordingOpener(folder: string, log: string): Promise<string> {
  const opener = join(folder, 'record-opener.mjs');
  await writeFile(
    opener,
    `#!${process.execPath}
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
const [file = ''] = process.argv.slice(2);
writeFileSync(${JSON.stringify(log)}, JSON.stringify({
  argv: process.argv.slice(2),
  cmdline: readFileSync('/proc/self/cmdline', 'utf8'),
  fileMode: statSync(file).mode & 0o777,
  folderMode: statSync(dirname(file)).mode & 0o777,
  folderEntries: readdirSync(dirname(file)),
  page: readFileSync(file, 'utf8'),
}));
`,
  );
  await chmod(opener, 0o700);
  return opener;
}

async function until<T>(what: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = await what();
    if (found !== undefined) return found;
    if (Date.now() - started > timeoutMs) throw new Error('test: timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('review --open', () => {
  it(
    'gives the opener a 0600 redirect file in a 0700 folder, never the token; the file leads the browser to the page; stopping the server removes it',
    { timeout: 120_000 },
    async () => {
      const folder = await temporaryFolder();
      const { journal, imported } = await importSampleWithBadAmount(folder, '84x.99');
      expect(imported.exitCode, imported.stderr).toBe(1);
      const temporary = join(folder, 'tmp');
      await mkdir(temporary);
      const log = join(folder, 'opened.json');
      const child = spawn(
        process.execPath,
        [cliBin, '--log-level', 'warn', 'review', journal, '--mapping', join(root, 'mappings/generic.yaml'), '--open'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            PATH: process.env.PATH,
            TMPDIR: temporary,
            BULK_DISPUTES_OPENER: await recordingOpener(folder, log),
          },
        },
      );
      onTestFinished(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      const address = await until(async () => /review: (http:\/\/\S+)/.exec(output)?.[1]);
      const token = new URL(address).searchParams.get('token') ?? '';
      expect(token).toMatch(/^[\w-]{32}$/);

      const opened = await until(async () =>
        existsSync(log) ? (JSON.parse(await readFile(log, 'utf8')) as Opened) : undefined,
      );
      // What every local user could read of the opener's process: the file's path, no token.
      expect(opened.argv).toHaveLength(1);
      const [file = ''] = opened.argv;
      expect(opened.cmdline).not.toContain(token);
      expect(file).not.toContain(token);
      expect(dirname(dirname(file))).toBe(temporary);
      expect(opened.fileMode).toBe(0o600);
      expect(opened.folderMode).toBe(0o700);
      expect(opened.folderEntries).toEqual(['open-review.html']);
      // Nor the review process's own arguments, nor any process's on the machine.
      for (const pid of await readdir('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        expect([pid, cmdline.includes(token)]).toEqual([pid, false]);
      }

      // The file sends a browser on to the page; the page takes the token for its session.
      expect(opened.page).toContain(`content="0;url=${address}"`);
      if (browserPath !== undefined || process.env.CI === 'true') {
        const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
        onTestFinished(async () => browser.close());
        const page = await browser.newPage();
        refuseContentPolicyViolations(page);
        await page.goto(pathToFileURL(file).href);
        await page.waitForURL(`${new URL(address).origin}/`);
        await page.locator('.cell.bad').first().waitFor();
      }

      expect((await stat(file)).isFile()).toBe(true);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(file)).toBe(false);
      expect(await readdir(temporary)).toEqual([]);
    },
  );

  it('removes the redirect file when its lifetime ends, the server still running', async () => {
    const folder = await temporaryFolder();
    const log = join(folder, 'opened.json');
    const opened = await openThroughRedirectFile('http://127.0.0.1:9/?token=secret-of-the-test', {
      opener: await recordingOpener(folder, log),
      lifetimeMs: 1_500,
    });
    const seen = await until(async () =>
      existsSync(log) ? (JSON.parse(await readFile(log, 'utf8')) as Opened) : undefined,
    );
    expect(seen.argv).toEqual([opened.file]);
    expect(seen.page).toContain('content="0;url=http://127.0.0.1:9/?token=secret-of-the-test"');
    await until(async () => (existsSync(dirname(opened.file)) ? undefined : true), 10_000);
    // Removing it again, as stopping the server does, is no error.
    await opened.remove();
  });
});
