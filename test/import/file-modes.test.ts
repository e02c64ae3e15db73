import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * Every file the tool writes that holds cardholder data is readable by its owner only, like the
 * journal: results CSVs (an import's, a merge's, a migration's), payloads, exports, the HTML
 * report and the embedded sandbox's database, also when it replaces a file that was readable by everyone.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('files with cardholder data are created 0600', () => {
  it(
    'results, journal, payloads, merged results, HTML report, export, migration results and the sandbox database',
    { timeout: 60_000 },
    async () => {
      const folder = await temporaryFolder('bulk-disputes-modes-');
      const file = (name: string) => join(folder, name);
      // A results file left world-readable by an earlier version: replaced by one that is not.
      await writeFile(file('export.results.csv'), 'old\n', { mode: 0o644 });
      const sandbox = ['--sandbox-db', file('sandbox.db'), '--log-level', 'silent'];
      const imported = await runCli([
        'import',
        join(root, 'samples/generic-export.csv'),
        '--mapping',
        join(root, 'mappings/generic.yaml'),
        '--evidence-dir',
        join(root, 'samples/evidence'),
        '--sandbox-clock',
        '2026-11-20T12:00:00Z',
        '--journal',
        file('export.journal.sqlite'),
        '--results',
        file('export.results.csv'),
        '--payloads',
        file('payloads.jsonl'),
        ...sandbox,
      ]);
      expect(imported.exitCode, imported.stderr).toBe(0);
      expect(
        (await runCli(['merge-results', '--out', file('merged.results.csv'), file('export.journal.sqlite')])).exitCode,
      ).toBe(0);
      expect((await runCli(['report', file('export.results.csv'), '--html', file('report.html')])).exitCode).toBe(0);
      expect((await runCli(['export', 'cases', '--out', file('cases.csv'), ...sandbox])).exitCode).toBe(0);
      expect(
        (
          await runCli([
            'migrate-v1',
            '--results',
            file('migrate.results.csv'),
            '--journal',
            file('migrate.journal.sqlite'),
            ...sandbox,
          ])
        ).exitCode,
      ).toBe(0);

      const files = [
        'export.results.csv',
        'export.journal.sqlite',
        'payloads.jsonl',
        'merged.results.csv',
        'report.html',
        'cases.csv',
        'migrate.results.csv',
        'migrate.journal.sqlite',
        'sandbox.db',
      ];
      const modes = Object.fromEntries(
        await Promise.all(files.map(async (name) => [name, (await modeOf(file(name))).toString(8)] as const)),
      );
      expect(modes).toEqual(Object.fromEntries(files.map((name) => [name, '600'])));
    },
  );
});
