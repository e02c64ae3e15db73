import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, runBin, runCli } from '../import/e2e-fixtures.js';
import {
  byOutcome,
  call,
  serveReview,
  type ReadOnlyOverview as Overview,
  type RowsPage as Page,
} from './review-http.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
  existsSync(path),
);
const artifacts = fileURLToPath(new URL('../../out/test-artifacts/', import.meta.url));

/**
 * `review` of a track journal: a real night imported into a sandbox server on a loopback port,
 * tracked, three cases moved by the network, tracked again; the journal shown over real HTTP
 * with the worklist first, every case read-only with its status line's cells, the summary, and
 * the command that reads the states again, run for real.
 */
describe('bulk-disputes review: a track journal', () => {
  it(
    'shows the worklist first, every case as its status line, the summary, and the command that reads them again',
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const testSandbox = await startTestSandbox({ control: true });
      const env = { CLAIMS_API_KEY: sandboxKey };
      const rows = ['D00', 'D01', 'D02', 'D03'].map((key) => fraudRow(key, 'T1'));
      rows.push(fraudRow('BAD', 'T1', { disputed_amount: '12x' }));
      const input = await workspace.write('night.csv', csvOf(rows));
      const importJournal = join(workspace.dir, 'night.journal.sqlite');
      const imported = await runCli(
        [
          'import',
          input,
          '--mapping',
          genericMapping,
          '--evidence-dir',
          workspace.evidenceDir,
          '--base-url',
          testSandbox.sandbox.url,
          '--journal',
          importJournal,
          '--results',
          join(workspace.dir, 'night.results.csv'),
          '--log-level',
          'silent',
        ],
        env,
      );
      expect(imported.exitCode, imported.stderr).toBe(1);

      const journal = join(workspace.dir, 'night.track.journal.sqlite');
      const track = async () =>
        runCli(
          [
            'track',
            importJournal,
            '--journal',
            journal,
            '--results',
            join(workspace.dir, 'night.track.csv'),
            '--due-within',
            '3',
            '--base-url',
            testSandbox.sandbox.url,
            '--log-format',
            'json',
          ],
          env,
        );
      expect((await track()).exitCode).toBe(0);
      for (const [caseId, move] of [
        ['D00-T1', 'won'],
        ['D01-T1', 'chargeback_represented'],
        ['D02-T1', 'lost'],
      ] as const) {
        expect((await testSandbox.request('POST', `/_sandbox/cases/${caseId}/advance`, { status: move })).status).toBe(
          200,
        );
      }
      const second = await track();
      expect(second.exitCode, second.stderr).toBe(1);

      const job = await openReviewJob([journal], undefined);
      expect(job.kind).toBe('track');
      const server = await serveReview(job, workspace.dir);
      const overview = (await call<Overview>(server, 'GET', '/api/overview')).body;
      expect([overview.kind, overview.rows, overview.claims, overview.toFix]).toEqual(['track', 5, 5, 1]);
      expect(byOutcome(overview)).toEqual({
        won: 1,
        chargeback_represented: 1,
        lost: 1,
        chargeback_filed: 1,
        no_case: 1,
      });
      expect(overview.errors).toEqual([
        expect.objectContaining({
          code: 'answered',
          count: 1,
          hint: expect.stringContaining('the merchant answered') as string,
        }),
      ]);
      expect(overview.fixOutcomes).toBeNull();
      expect(overview.summaryText ?? '').toContain('by status:');
      expect(overview.retry).toBe(
        `bulk-disputes track ${importJournal} --journal ${journal} --due-within 3 --base-url ${testSandbox.sandbox.url}`,
      );
      expect(overview.retryNote).toContain("A track journal holds the cases' states as they were last read");

      // The worklist: the represented case, why and by when, read-only.
      const worklist = (await call<Page>(server, 'GET', '/api/rows')).body;
      expect(worklist.rows.map((row) => [row.caseId, row.outcome, row.errorCode, row.editable])).toEqual([
        ['D01-T1', 'chargeback_represented', 'answered', false],
      ]);
      expect(worklist.rows[0]?.errorMessage).toMatch(/^due \d{4}-\d{2}-\d{2}: (\d+ days? left|overdue by \d+ days?)$/);
      expect(worklist.rows[0]?.cells).toMatchObject({
        case_id: 'D01-T1',
        status: 'chargeback_represented',
        changed: 'yes',
        job: 'night',
      });
      // Filtered by status within the worklist, it stays the worklist.
      expect((await call<Page>(server, 'GET', '/api/rows?outcome=chargeback_represented')).body.total).toBe(1);
      // Every row in the status file's order, the held-back row with its note.
      const all = (await call<Page>(server, 'GET', '/api/rows?scope=all')).body;
      expect(all.rows.map((row) => [row.caseId, row.outcome])).toEqual([
        ['D00-T1', 'won'],
        ['D01-T1', 'chargeback_represented'],
        ['D02-T1', 'lost'],
        ['D03-T1', 'chargeback_filed'],
        ['', 'no_case'],
      ]);
      expect(all.rows[4]?.cells.note).toBe('no case at the service (invalid)');
      expect(
        (await call<Page>(server, 'GET', '/api/rows?scope=all&q=lost')).body.rows.map((row) => row.caseId),
      ).toEqual(['D02-T1']);
      // Nothing to edit, save or send.
      expect(
        (await call(server, 'PUT', `/api/rows/${worklist.rows[0]?.line ?? 0}`, { body: { cells: {} } })).status,
      ).toBe(404);
      expect((await call(server, 'POST', '/api/save')).status).toBe(404);
      const page = (await call<string>(server, 'GET', '/')).body;
      expect(page).toContain('<h2 id="rows-title" tabindex="-1">Worklist</h2>');
      expect(page).toContain("a track journal: the cases' states as last read");

      // In a real browser (CI has one): the worklist drawn first, with what to do, the summary beside it.
      if (browserPath !== undefined || process.env.CI === 'true') {
        const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
        onTestFinished(async () => browser.close());
        const shown = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
        refuseContentPolicyViolations(shown);
        const errors: string[] = [];
        shown.on('pageerror', (error) => errors.push(error.message));
        await shown.goto(server.url);
        await shown.getByText('Case D01-T1 · chargeback_represented').waitFor();
        await shown.getByText(/^what to do: the merchant answered/).waitFor();
        expect(await shown.locator('#summary-text').textContent()).toContain('by status:');
        expect(await shown.locator('#figures').textContent()).toContain('on the worklist');
        await mkdir(artifacts, { recursive: true });
        await shown.screenshot({ path: join(artifacts, 'review-track.png'), fullPage: true });
        expect(errors).toEqual([]);
      }

      // The page's command, run as given while the page is open: nothing moved, so no case is read.
      const [command, ...args] = overview.retry.split(' ');
      expect(command).toBe('bulk-disputes');
      // As a person runs it: the built CLI, in the job's folder, where its status file lands.
      const again = await runBin([...args, '--log-format', 'json'], env, { cwd: workspace.dir });
      expect(again.exitCode, again.stderr).toBe(1);
      expect(again.stderr).toMatch(/"caseReads":0/);
    },
  );
});
