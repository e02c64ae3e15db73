import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { jobStem } from '../../src/job-files/job-name.js';
import { editedMapping, fraudRow, genericColumns, makeWorkspace, runBin } from '../import/e2e-fixtures.js';

/**
 * A `;` export with decimal commas, imported into the embedded sandbox under the default names,
 * then tracked and withdrawn (dry run) from the import's journal: their files follow the
 * export's dialect (`;`, amounts `849,99`), as docs/track.md and docs/withdraw.md say; a fixed
 * results file fed back names its files without stacking the tool's suffixes.
 */
describe("track's and withdraw's files from an import journal", () => {
  it("follow the import's `;` dialect and decimal comma; fed-back names do not stack", async () => {
    const workspace = await makeWorkspace();
    const mapping = await editedMapping(workspace, (edited) => {
      (edited.csv as Record<string, unknown>).delimiter = ';';
      for (const target of ['dispute.amount', 'transaction.amount'])
        ((edited.case?.[target] as Record<string, Record<string, unknown>>).amount ?? {}).decimal_separator = ',';
    });
    const rows = [fraudRow('IT-0001', 'T1'), fraudRow('IT-0002', 'T1', { disputed_amount: '1234,56' })].map((row) => ({
      ...row,
      transaction_amount: (row.transaction_amount ?? '').replace('.', ','),
      disputed_amount: (row.disputed_amount ?? '').replace('.', ','),
    }));
    await workspace.write(
      'contestazioni.csv',
      stringify(
        rows.map((row) => genericColumns.map((column) => row[column] ?? '')),
        { header: true, columns: [...genericColumns], delimiter: ';' },
      ),
    );
    const here = { cwd: workspace.dir };
    const sandbox = ['--sandbox-db', 'sandbox.db'];
    const env = {};
    const imported = await runBin(
      ['import', 'contestazioni.csv', '--mapping', mapping, '--evidence-dir', workspace.evidenceDir, ...sandbox],
      env,
      here,
    );
    expect(imported.exitCode, imported.stderr).toBe(0);

    const tracked = await runBin(['track', 'contestazioni.sandbox.journal.sqlite', ...sandbox], env, here);
    expect(tracked.exitCode, tracked.stderr).toBe(0);
    const statusText = await readFile(join(workspace.dir, 'contestazioni.track.sandbox.csv'), 'utf8');
    expect(statusText.split('\n')[0]).toMatch(/^job;line;claim_key;/);
    const status = parse<Record<string, string>>(statusText, { columns: true, delimiter: ';' });
    expect(status.map((line) => [line.job, line.case_id, line.amount])).toEqual([
      ['contestazioni', 'IT-0001-T1', '849,99'],
      ['contestazioni', 'IT-0002-T1', '1234,56'],
    ]);

    const withdrawn = await runBin(
      ['withdraw', 'contestazioni.sandbox.journal.sqlite', '--dry-run', ...sandbox],
      env,
      here,
    );
    expect(withdrawn.exitCode, withdrawn.stderr).toBe(0);
    const withdrawText = await readFile(join(workspace.dir, 'contestazioni.withdraw.dry-run.results.csv'), 'utf8');
    expect(withdrawText.split('\n')[0]).toMatch(/^claim_key;claim_id;case_id;/);

    // A reviewer's fix file, named as review names it, fed back under the default names.
    await copyFile(
      join(workspace.dir, 'contestazioni.sandbox.results.csv'),
      join(workspace.dir, 'contestazioni.sandbox.fix-1.results.csv'),
    );
    const fedBack = await runBin(
      [
        'import',
        'contestazioni.sandbox.fix-1.results.csv',
        '--mapping',
        mapping,
        '--evidence-dir',
        workspace.evidenceDir,
        ...sandbox,
      ],
      env,
      here,
    );
    expect(fedBack.exitCode, fedBack.stderr).toBe(0);
    const files = await readdir(workspace.dir);
    expect(files).toContain('contestazioni.fix-1.sandbox.results.csv');
    expect(files).toContain('contestazioni.fix-1.sandbox.journal.sqlite');
    expect(files.filter((file) => /\.results\..*\.results\./.test(file))).toEqual([]);
  }, 90_000);

  it('names a job by its input without the parts the tool adds, wherever they stand', () => {
    expect(jobStem('/x/contestazioni.sandbox.fix-1.results.csv')).toBe('contestazioni.fix-1');
    expect(jobStem('night.shard-2-of-4.sandbox.journal.sqlite')).toBe('night');
    expect(jobStem('disputes-2026-11-27.journal.sqlite')).toBe('disputes-2026-11-27');
    expect(jobStem('export.v2.csv')).toBe('export.v2');
    expect(jobStem('results.csv')).toBe('results');
  });
});
