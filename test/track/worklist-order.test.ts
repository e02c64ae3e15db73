import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { openReviewJob } from '../../src/review/job.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  daysAgo,
  duplicateChargeRow,
  fraudRow,
  jobArgs,
  makeWorkspace,
  runCli,
} from '../import/e2e-fixtures.js';
import { call, serveReview, type RowsPage } from '../review/review-http.js';

type Line = Record<string, string>;

async function readCsv(file: string): Promise<Line[]> {
  return parse<Line>(await readFile(file, 'utf8'), { columns: true });
}

/** The case ids of an HTML table's rows, in the page's order. */
function caseIdsIn(html: string, table: string): string[] {
  const body = new RegExp(`<table id="${table}">[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  return [...body.matchAll(/<tr><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((match) => match[1] ?? '');
}

/**
 * The worklist in the order a person works it (docs/track.md, "The worklist"), over a real night
 * imported into a sandbox server on a loopback port: the service's flag and the merchant's answer
 * first, then what is due soon, then the cases the import could not file, each with the code the
 * import recorded; the same order and whys in the status file's worklist, the terminal, the page,
 * `report` and `review` over HTTP. The recovery rate counts only what was filed.
 */
describe('track: the worklist in the order a person works it', () => {
  it('lists flags and answers, then due soon, then never filed with their import errors, in every view', async () => {
    const workspace = await makeWorkspace();
    // Over 5,000.00: the service's workflow flags the case for review instead of filing it.
    const testSandbox = await startTestSandbox({
      control: true,
      rules: { rules: [{ when: { amount_over: 500_000 }, outcome: 'flag_for_review' }], default: 'file_chargeback' },
    });
    const env = { CLAIMS_API_KEY: sandboxKey };
    const rows = [
      fraudRow('WON', 'T1', { transaction_date: daysAgo(40) }),
      fraudRow('ANSWERED', 'T1', { transaction_date: daysAgo(10) }),
      fraudRow('FLAGGED', 'T1', {
        transaction_date: daysAgo(20),
        transaction_amount: '9000.00',
        disputed_amount: '9000.00',
      }),
      fraudRow('SOON', 'T1', { transaction_date: daysAgo(116) }),
      fraudRow('LATER', 'T1', { transaction_date: daysAgo(12) }),
      fraudRow('ACTIVE', 'T1', { transaction_date: daysAgo(30), card_active: 'yes' }),
      fraudRow('EXPIRED', 'T1', { transaction_date: daysAgo(200) }),
      duplicateChargeRow('NORECEIPT', 'T1', '', { transaction_date: daysAgo(5) }),
    ];
    const input = await workspace.write('night.csv', csvOf(rows));
    const importJournal = join(workspace.dir, 'night.journal.sqlite');
    const night = jobArgs(workspace, 'night', input);
    const imported = await runCli([...night.args, '--base-url', testSandbox.sandbox.url, '--log-level', 'silent'], env);
    expect(imported.exitCode, imported.stderr).toBe(1);
    const results = await readCsv(night.results);
    const importErrors = new Map(results.map((line) => [line.case_id, `${line.error_code}: ${line.error_message}`]));
    expect(
      results.filter((line) => line.outcome === 'not_filed').map((line) => line.case_id),
      JSON.stringify(results.map((l) => [l.case_id, l.outcome, l.error_code, l.error_message])),
    ).toEqual(['FLAGGED-T1', 'ACTIVE-T1', 'EXPIRED-T1', 'NORECEIPT-T1']);

    for (const [caseId, move] of [
      ['WON-T1', 'won'],
      ['ANSWERED-T1', 'chargeback_represented'],
    ] as const) {
      expect((await testSandbox.request('POST', `/_sandbox/cases/${caseId}/advance`, { status: move })).status).toBe(
        200,
      );
    }
    const trackJournal = join(workspace.dir, 'night.track.journal.sqlite');
    const page = join(workspace.dir, 'night.track.html');
    const tracked = await runCli(
      [
        'track',
        importJournal,
        '--journal',
        trackJournal,
        '--results',
        join(workspace.dir, 'night.track.csv'),
        '--html',
        page,
        '--due-within',
        '7',
        '--base-url',
        testSandbox.sandbox.url,
        '--log-format',
        'json',
      ],
      env,
    );
    expect(tracked.exitCode, tracked.stderr).toBe(1);

    const expected = [
      ['FLAGGED-T1', 'needs review'],
      ['ANSWERED-T1', 'merchant answered'],
      ['SOON-T1', 'due soon'],
      ['EXPIRED-T1', 'never filed'],
      ['ACTIVE-T1', 'never filed'],
      ['NORECEIPT-T1', 'never filed'],
    ];
    const worklist = await readCsv(join(workspace.dir, 'night.track.worklist.csv'));
    expect(worklist.map((line) => [line.case_id, line.why])).toEqual(expected);
    // Each never-filed case with the code and message its import recorded, and what to do.
    for (const line of worklist.filter((item) => item.why === 'never filed')) {
      expect(line.job_error).toBe(importErrors.get(line.case_id ?? ''));
      expect(line.next_step).toContain('feed the results file back');
    }
    expect(worklist.find((line) => line.case_id === 'EXPIRED-T1')?.job_error).toMatch(/^filing_window_expired: /);
    expect(worklist.find((line) => line.case_id === 'NORECEIPT-T1')?.job_error).toMatch(/^documentation_missing: /);
    expect(worklist.every((line) => line.claim_key !== '')).toBe(true);

    // The terminal: the count by why, then the cases by claim key and case id, in the same order.
    const printed = tracked.stdout.split('\n');
    expect(printed[0]).toBe('6 cases need a person: 1 needs review, 1 merchant answered, 1 due soon, 3 never filed');
    expect(printed[1]).toMatch(/^claim key +case +why +due +days left +status +not filed because$/);
    expect(printed.slice(2, 8).map((line) => line.split(/ {2,}/).slice(0, 3))).toEqual(
      worklist.map((line) => [line.claim_key, line.case_id, line.why]),
    );
    expect(printed[7]).toContain(importErrors.get('NORECEIPT-T1'));

    // The recovery rate: won over filed, the never-filed (and the flagged, still created) left out.
    const summaryLines = tracked.stderr.split('\n');
    expect(summaryLines.some((line) => line.includes('"recovery":{"USD":0.25}'))).toBe(true);

    const html = await readFile(page, 'utf8');
    expect(caseIdsIn(html, 'worklist')).toEqual(expected.map(([caseId]) => caseId));
    expect(html).toContain('(4 never filed not counted)');
    // The outcome bars draw the never-filed in a colour of their own, apart from the open and the won.
    expect(html).toMatch(/<svg id="outcomes"[\s\S]*<rect[^>]*fill="#f9a825"><title>fraud: 3 never filed<\/title>/);

    const reported = await runCli(['report', trackJournal], env);
    expect(reported.exitCode, reported.stderr).toBe(0);
    const reportLines = reported.stdout.split('\n');
    const first = reportLines.findIndex((line) => line.startsWith('6 cases need a person: '));
    expect(reportLines.slice(first + 2, first + 8).map((line) => line.split(/ {2,}/)[1])).toEqual(
      expected.map(([caseId]) => caseId),
    );
    // A decided case without a closed reason, told as the service said it.
    expect(reportLines).toContain('decided: won, no reason given 1');
    expect(reported.stdout).toMatch(
      /recovered \(won\): 25\.0% of 3399\.96 USD filed \(4 cases never filed not counted\)/,
    );

    const job = await openReviewJob([trackJournal], undefined);
    const server = await serveReview(job, workspace.dir);
    const reviewed = (await call<RowsPage>(server, 'GET', '/api/rows')).body;
    expect(reviewed.rows.map((row) => [row.caseId, row.errorCode])).toEqual([
      ['FLAGGED-T1', 'needs_review'],
      ['ANSWERED-T1', 'answered'],
      ['SOON-T1', 'due_soon'],
      ['EXPIRED-T1', 'not_filed'],
      ['ACTIVE-T1', 'not_filed'],
      ['NORECEIPT-T1', 'not_filed'],
    ]);
    expect(reviewed.rows[3]?.errorMessage).toBe(importErrors.get('EXPIRED-T1'));
  });
});
