import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { testApiKey } from '../helpers/client.js';
import { startImportProcess } from '../helpers/import-process.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { countIn, genericMapping, makeWorkspace, readResults } from '../import/e2e-fixtures.js';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from '../import/generate.js';

/**
 * A SIGKILL while the import still stages and its first claims are already created (docs/import.md,
 * "Resume"): the same command again stages afresh, finds the claims the first run sent by their
 * ids rather than creating them again, and ends with every row once and every claim once.
 */

describe('import killed while it stages and sends', () => {
  it(
    'the next run ends with every claim created once and every row in the results once',
    { timeout: 400_000 },
    async () => {
      const { sandbox } = await startTestSandbox({ apiKeys: [testApiKey] });
      const workspace = await makeWorkspace();
      const input = `${workspace.dir}/night.csv`;
      // Long enough to stage that the first claims are out well before its end.
      const specs = [...plannedRows({ rows: 60_000, sizeOf: oneToThreeRows, block: 1 })];
      await writeDisputesCsv(input, specs);
      const claims = new Set(specs.map((spec) => spec.claim)).size;
      const args = [
        cliBin,
        '--log-format',
        'json',
        'import',
        input,
        '--mapping',
        genericMapping,
        '--base-url',
        sandbox.url,
        '--file-mode',
        'none',
        '--journal',
        workspace.journal,
        '--results',
        workspace.results,
      ];

      const first = startImportProcess(args, 120_000);
      let sentWhileStaging = 0;
      while (first.exited() === undefined) {
        const created = countIn(sandbox, 'claims');
        if (created > 0) {
          sentWhileStaging = created;
          break;
        }
        await sleep(5);
      }
      const killed = await first.kill();
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      expect(killed.stderr).not.toContain('"msg":"input staged"');
      expect(sentWhileStaging).toBeGreaterThan(0);

      const again = await startImportProcess(args, 300_000).exit;
      expect(again.code, again.stderr).toBe(0);
      expect(countIn(sandbox, 'claims')).toBe(claims);
      const results = await readResults(workspace.results);
      expect(results.rows.map((row) => Number(row.line))).toEqual(specs.map((_, place) => place + 2));
      expect(new Set(results.rows.map((row) => row.outcome))).toEqual(new Set(['created']));
    },
  );
});
