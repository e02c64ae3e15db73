import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, importArgs, makeWorkspace, runCli } from '../import/e2e-fixtures.js';
import { thinJournal } from '../import/thin-journal.js';

/**
 * Who reads a journal `prune` thinned (docs/data.md, "Retention"): what works by ids and outcomes
 * works as before (report as text and HTML, withdraw --dry-run, track); what needs the rows' cells
 * (review, merge-results, report --xlsx) refuses it in one sentence, exit 2, before writing anything.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

async function thinnedJob() {
  const { sandbox } = await startTestSandbox();
  const workspace = await makeWorkspace();
  const rows = [fraudRow('A', 'T1'), fraudRow('B', 'T1'), fraudRow('C', 'T1', { card_active: 'yes' })];
  const input = await workspace.write('disputes.csv', csvOf(rows));
  const imported = await runCli(importArgs(workspace, input, ['--base-url', sandbox.url]), env);
  expect(imported.exitCode, imported.stderr).toBe(1);
  const reportBefore = await runCli(['report', workspace.journal]);
  expect(reportBefore.exitCode, reportBefore.stderr).toBe(0);
  thinJournal(workspace.journal);
  return { sandbox, workspace, reportBefore };
}

const refusal = (file: string) => `JOURNAL_THINNED: ${file}: expected a journal that still holds its rows' cells (`;

describe('a thinned import journal', () => {
  it('reports as text and HTML as before; report --xlsx refuses it before writing anything', async () => {
    const { workspace, reportBefore } = await thinnedJob();

    const text = await runCli(['report', workspace.journal]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toBe(reportBefore.stdout);
    const html = join(workspace.dir, 'report.html');
    const page = await runCli(['report', workspace.journal, '--html', html]);
    expect(page.exitCode, page.stderr).toBe(0);
    expect(existsSync(html)).toBe(true);

    const xlsx = join(workspace.dir, 'report.xlsx');
    const workbook = await runCli(['report', workspace.journal, '--xlsx', xlsx]);
    expect(workbook.exitCode).toBe(2);
    expect(workbook.stderr).toContain(refusal(workspace.journal));
    expect(workbook.stderr).toContain(
      'a workbook of every line repeats its cells), got one thinned by prune on 2031-04-05',
    );
    expect(workbook.stderr).toContain('run `bulk-disputes report` without --xlsx');
    expect(workbook.stderr).not.toMatch(/\n\s+at /u);
    expect(workbook.stdout).toBe('');
    expect(existsSync(xlsx)).toBe(false);
  });

  it('merge-results and review refuse it, naming the file, the day and what to do instead', async () => {
    const { workspace } = await thinnedJob();

    const out = join(workspace.dir, 'merged.csv');
    const merged = await runCli(['merge-results', workspace.journal, '--out', out]);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toContain(refusal(workspace.journal));
    expect(merged.stderr).toContain(
      "the merged results repeat every row's cells), got one thinned by prune on 2031-04-05",
    );
    expect(existsSync(out)).toBe(false);

    const reviewed = await runCli(['review', workspace.journal, '--port', '0']);
    expect(reviewed.exitCode).toBe(2);
    expect(reviewed.stderr).toContain(refusal(workspace.journal));
    expect(reviewed.stderr).toContain('the page shows and fixes their cells), got one thinned by prune on 2031-04-05');
    expect(reviewed.stderr).not.toMatch(/\n\s+at /u);
  });

  it('withdraw --dry-run finds its claims by their ids and proof; track reads its cases', async () => {
    const { sandbox, workspace } = await thinnedJob();

    const results = join(workspace.dir, 'withdraw.results.csv');
    const withdrawn = await runCli(
      ['withdraw', workspace.journal, '--dry-run', '--base-url', sandbox.url, '--results', results],
      env,
    );
    expect(withdrawn.exitCode, withdrawn.stderr).toBe(0);
    expect(withdrawn.stderr).toContain('would_withdraw');
    const planned = await readFile(results, 'utf8');
    for (const claimId of ['CLM-A', 'CLM-B', 'CLM-C']) expect(planned).toContain(claimId);

    const status = join(workspace.dir, 'track.csv');
    const tracked = await runCli(
      [
        'track',
        workspace.journal,
        '--base-url',
        sandbox.url,
        '--results',
        status,
        '--journal',
        join(workspace.dir, 'track.sqlite'),
      ],
      env,
    );
    expect([0, 1], tracked.stderr).toContain(tracked.exitCode);
    expect(tracked.stderr).not.toContain('JOURNAL_THINNED');
    // Every case of the job, found by the ids the thinned journal kept.
    const lines = (await readFile(status, 'utf8')).split('\n');
    for (const caseId of ['A-T1', 'B-T1', 'C-T1']) expect(lines.some((line) => line.includes(caseId))).toBe(true);
  });
});
