import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, runCli } from '../import/e2e-fixtures.js';
import { refuseContentPolicyViolations } from '../helpers/policy-violations.js';

type Line = Record<string, string>;

const browserPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => existsSync(path));
const artifacts = fileURLToPath(new URL('../../out/test-artifacts/', import.meta.url));

async function readCsv(file: string): Promise<Line[]> {
  return parse<Line>(await readFile(file, 'utf8'), { columns: true });
}

/**
 * `bulk-disputes track` against a sandbox server on a loopback port, after a real import: the
 * first run reads every case; the network moves some (the control prefix); the next run reads
 * exactly the cases an event names, and the files say what the service holds.
 */
describe('track', () => {
  it('reads every case once, then only the cases the events name, and lists what needs a person', async () => {
    const workspace = await makeWorkspace();
    const testSandbox = await startTestSandbox({ control: true });
    const rows = Array.from({ length: 12 }, (_, index) => fraudRow(`D${String(index).padStart(2, '0')}`, 'T1'));
    // One row the import holds back: the status file still has its line.
    rows.push(fraudRow('BAD', 'T1', { disputed_amount: '12x' }));
    await workspace.write('night.csv', csvOf(rows));
    const journal = join(workspace.dir, 'night.journal.sqlite');
    const env = { CLAIMS_API_KEY: sandboxKey };
    const imported = await runCli(
      [
        'import',
        join(workspace.dir, 'night.csv'),
        '--mapping',
        genericMapping,
        '--evidence-dir',
        workspace.evidenceDir,
        '--base-url',
        testSandbox.sandbox.url,
        '--journal',
        journal,
        '--results',
        join(workspace.dir, 'night.results.csv'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(imported.exitCode, imported.stderr).toBe(1);

    const track = async (...extra: string[]) =>
      runCli(
        [
          'track',
          journal,
          '--results',
          join(workspace.dir, 'night.track.csv'),
          '--base-url',
          testSandbox.sandbox.url,
          '--log-format',
          'json',
          ...extra,
        ],
        env,
      );
    const first = await track();
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('nothing needs a person today');
    const status = await readCsv(join(workspace.dir, 'night.track.csv'));
    expect(status).toHaveLength(13);
    expect(status.filter((line) => line.status === 'chargeback_filed')).toHaveLength(12);
    expect(status.find((line) => line.claim_key === 'BAD')).toMatchObject({
      case_id: '',
      status: '',
      note: 'no case at the service (invalid)',
    });
    expect(new Set(status.filter((line) => line.case_id !== '').map((line) => line.changed))).toEqual(new Set(['new']));
    const firstRecord = closingRecord(first.stderr);
    expect(firstRecord.run).toBe('first');
    // Twelve cases: one retrieve each costs fewer requests than the list; one event page for the cursor.
    expect(firstRecord.requests).toMatchObject({ caseReads: 12, casePages: 0, eventPages: 1, requests: 13 });

    // Nothing happened: the next run reads one page of events and no case.
    const quiet = await track();
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(closingRecord(quiet.stderr).requests).toMatchObject({ caseReads: 0, eventPages: 1, requests: 1 });
    expect(
      (await readCsv(join(workspace.dir, 'night.track.csv'))).filter((line) => line.changed === 'no'),
    ).toHaveLength(12);

    // The network moves three cases.
    for (const [caseId, move] of [
      ['D00-T1', 'won'],
      ['D01-T1', 'chargeback_represented'],
      ['D02-T1', 'lost'],
    ] as const) {
      const moved = await testSandbox.request('POST', `/_sandbox/cases/${caseId}/advance`, { status: move });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const second = await track();
    expect(second.exitCode, second.stderr).toBe(1);
    expect(closingRecord(second.stderr).requests).toMatchObject({
      caseReads: 3,
      casePages: 0,
      claimReads: 0,
      requests: 4,
    });
    const after = await readCsv(join(workspace.dir, 'night.track.csv'));
    const byCase = new Map(after.map((line) => [line.case_id, line]));
    expect(byCase.get('D00-T1')).toMatchObject({ status: 'won', changed: 'yes' });
    expect(byCase.get('D01-T1')).toMatchObject({ status: 'chargeback_represented', changed: 'yes' });
    expect(byCase.get('D02-T1')).toMatchObject({ status: 'lost', changed: 'yes' });
    expect(byCase.get('D03-T1')).toMatchObject({ status: 'chargeback_filed', changed: 'no' });
    // Every status in the file is the service's.
    for (const line of after.filter((candidate) => candidate.case_id !== '')) {
      const held = (await testSandbox.client.cases.retrieve(line.case_id ?? '')).data;
      expect(line.status).toBe(held.status);
    }
    expect(second.stdout).toContain('1 case needs a person');
    expect(second.stdout).toContain('D01-T1');
    const worklist = await readCsv(join(workspace.dir, 'night.track.worklist.csv'));
    expect(worklist.map((line) => [line.case_id, line.why])).toEqual([['D01-T1', 'merchant answered']]);

    // The page: drawn from the journal, nothing read again (no event since).
    const page = join(workspace.dir, 'night.track.html');
    const drawn = await track('--html', page);
    expect(drawn.exitCode, drawn.stderr).toBe(1);
    expect(closingRecord(drawn.stderr).requests).toMatchObject({ caseReads: 0, requests: 1 });
    const html = await readFile(page, 'utf8');
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
    expect(html).toContain('<table id="worklist">');
    expect(/<table id="worklist">[\s\S]*?<\/table>/.exec(html)?.[0]).toContain('D01-T1');
    expect(html).toMatch(/<svg id="outcomes"[\s\S]*<rect[^>]*fill="#2e7d32"/);
    expect(html).toContain('<svg id="weeks"');
    await renderInChromium(page, join(artifacts, 'track.png'));

    // `report` of the track journal: the last run's summary and worklist, nothing sent.
    const reported = await runCli(['report', join(workspace.dir, 'night.track.journal.sqlite')], env);
    expect(reported.exitCode, reported.stderr).toBe(0);
    expect(reported.stdout).toContain('(track journal)');
    expect(reported.stdout).toContain('by status: chargeback_filed 9, won 1, chargeback_represented 1, lost 1');
    expect(reported.stdout).toMatch(/1 case needs a person: 1 merchant answered\n.*\n\S+ +D01-T1 +merchant answered/);
    const mixed = await runCli(['report', join(workspace.dir, 'night.track.journal.sqlite'), journal], env);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain('a track journal reports alone');
  });

  it('refuses to run without a source or --all (exit 2, nothing read)', async () => {
    const run = await runCli(['track', '--base-url', 'http://127.0.0.1:9'], { CLAIMS_API_KEY: sandboxKey });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('expected a source');
  });
});

/** The page in Debian's Chromium (playwright-core), screenshotted; the chart and the worklist must be drawn. */
async function renderInChromium(page: string, screenshot: string): Promise<void> {
  if (browserPath === undefined) {
    if (process.env.CI === 'true') throw new Error('no chromium: .ci/run installs it');
    return;
  }
  const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    refuseContentPolicyViolations(tab);
    await tab.goto(pathToFileURL(page).href);
    const bars = await tab.locator('#outcomes rect').count();
    expect(bars).toBeGreaterThanOrEqual(3);
    expect(await tab.locator('#worklist tbody tr').count()).toBe(1);
    await mkdir(artifacts, { recursive: true });
    await tab.screenshot({ path: screenshot, fullPage: true });
  } finally {
    await browser.close();
  }
}

function closingRecord(stderr: string): { run: string; requests: Record<string, number> } {
  const line = stderr.split('\n').find((candidate) => candidate.includes('"msg":"track finished"'));
  if (line === undefined) throw new Error(`no closing record in:\n${stderr}`);
  return JSON.parse(line) as { run: string; requests: Record<string, number> };
}
