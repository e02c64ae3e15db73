import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace } from './e2e-fixtures.js';

/** The in-process CLI with stderr as a wide terminal. */
async function importOnTerminal(argv: string[]) {
  let stderr = '';
  const exitCode = await main(argv, {
    stdout: { write: () => true },
    stderr: { isTTY: true, columns: 240, write: (text: string) => (stderr += text) },
    env: { NO_COLOR: '1' },
  });
  return { exitCode, stderr };
}

describe("the progress line's running counts", () => {
  it(
    'count rows by outcome as the claims finish, ending where the summary does; a re-run starts from what the journal holds',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const rows = [
        fraudRow('P-1', 'T1'),
        fraudRow('P-1', 'T2'),
        fraudRow('P-2', 'T1'),
        // Filing refuses a fraud claim on a card still active: created, not filed.
        fraudRow('P-3', 'T1', { card_active: 'yes' }),
        // Refused at staging: its claim is held back, nothing sent.
        fraudRow('P-4', 'T1', { currency: 'xx' }),
      ];
      const input = await workspace.write('night.csv', csvOf(rows));
      const argv = [
        'import',
        input,
        '--mapping',
        genericMapping,
        '--evidence-dir',
        workspace.evidenceDir,
        '--journal',
        workspace.journal,
        '--results',
        workspace.results,
        '--sandbox-db',
        `${workspace.dir}/sandbox.db`,
      ];

      const first = await importOnTerminal(argv);
      expect(first.exitCode, first.stderr).toBe(1);
      const lastLine = (stderr: string) =>
        stderr
          .split('\r\u001b[2K')
          .filter((line) => line.startsWith('sending'))
          .at(-1);
      expect(lastLine(first.stderr)).toMatch(
        /^sending \[#{20}\] 4\/4 claims 100% .*filed 3 {2}not_filed 1 {2}invalid 1$/,
      );
      expect(first.stderr).toMatch(/ {2}filed +3\n {2}not_filed +1\n {2}invalid +1\n/);

      // Everything final: nothing to send, the counts are the journal's.
      const again = await importOnTerminal(argv);
      expect(again.exitCode, again.stderr).toBe(1);
      expect(lastLine(again.stderr)).toMatch(
        /^sending \[#{20}\] 0\/0 claims 100% .*filed 3 {2}not_filed 1 {2}invalid 1$/,
      );
    },
  );
});
