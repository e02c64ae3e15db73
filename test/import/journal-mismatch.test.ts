import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { countIn, csvOf, fraudRow, genericMapping, importArgs, makeWorkspace, runCli } from './e2e-fixtures.js';

/**
 * A journal used with another input, mapping or flags is refused (exit 2), and the refusal says
 * what differs and what to change, as a person reads it on the terminal (docs/import.md, "Resume").
 */

const env = { CLAIMS_API_KEY: sandboxKey };
/** The lines a person reads on a terminal, not the JSON a scheduler gets. */
const onTerminal = ['--log-format', 'pretty'];

async function finishedJob() {
  const { sandbox } = await startTestSandbox();
  const workspace = await makeWorkspace();
  const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
  const first = await runCli([...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);
  expect(first.exitCode, first.stderr).toBe(0);
  const mappingText = await readFile(genericMapping, 'utf8');
  return { sandbox, workspace, input, mappingText };
}

describe('import: a journal used with other inputs says what differs', () => {
  it("only the mapping's file_mode changed: the key, its two values, and the mapping as it was to resume", async () => {
    const { sandbox, workspace, input, mappingText } = await finishedJob();
    const mapping = await workspace.write(
      'changed.yaml',
      mappingText.replace(/^file_mode: auto$/mu, 'file_mode: none'),
    );

    const refused = await runCli(
      [...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url], mapping)],
      env,
    );

    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `JOURNAL_MISMATCH: journal ${workspace.journal}: expected the input, mapping and flags it was made with, ` +
        'got a mapping that differs in key file_mode: "auto" → "none". ' +
        'To resume it, run again with the mapping as it was (file_mode: "auto"); to start it over with the new ones, ' +
        'add --restart (claims created before are recognised by their ids, never duplicated), or give another --journal file',
    );
    // The mapping's key says it: the file mode it sets is not named again as a flag.
    expect(refused.stderr).not.toContain('--file-mode');
    expect(countIn(sandbox, 'claims')).toBe(2);
  });

  it('another input file: its sha256 and the file the journal was made with; a flag: its name and both values', async () => {
    const { sandbox, workspace, input } = await finishedJob();
    const other = await workspace.write('other.csv', csvOf([fraudRow('C', 'T1')]));

    const refused = await runCli(
      [...onTerminal, ...importArgs(workspace, other, ['--base-url', sandbox.url, '--shard', '2/3'])],
      env,
    );

    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `got an input file that differs from the one this journal was made with \\(${input.replaceAll('.', '\\.')}\\) ` +
          '\\(sha256 [0-9a-f]{12}… vs [0-9a-f]{12}…\\); --shard: not given → 2/3\\. ' +
          `To resume it, run again with the input file it was made with, ${input.replaceAll('.', '\\.')}, no --shard;`,
      ),
    );
  });

  it('a journal of an earlier version, which kept only the mapping hash, says so and still says what to do', async () => {
    const { sandbox, workspace, input, mappingText } = await finishedJob();
    const database = new Database(workspace.journal);
    database.prepare("DELETE FROM meta WHERE key IN ('made_with_mapping', 'made_with_input')").run();
    database.close();
    const mapping = await workspace.write(
      'changed.yaml',
      mappingText.replace(/^file_mode: auto$/mu, 'file_mode: none'),
    );

    const refused = await runCli(
      [...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url, '--dry-run'], mapping)],
      env,
    );

    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        'got a mapping file that differs from the one this journal was made with \\(sha256 [0-9a-f]{12}… vs [0-9a-f]{12}…; ' +
          'the journal was made by an earlier version, which kept only its hash, so the keys that changed cannot be named\\); ' +
          '--file-mode: auto → none; --dry-run: not given → given\\. ' +
          'To resume it, run again with the mapping file as it was, --file-mode auto, no --dry-run; to start it over',
        'u',
      ),
    );
  });

  it('the same command after a refusal resumes: the journal still names what it was made with', async () => {
    const { sandbox, workspace, input, mappingText } = await finishedJob();
    const mapping = await workspace.write('changed.yaml', `${mappingText}\n# a comment only\n`);

    const refused = await runCli(
      [...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url], mapping)],
      env,
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /got a mapping file whose text differs though no key changed \(comments or layout only; sha256/u,
    );

    const again = await runCli([...onTerminal, ...importArgs(workspace, input, ['--base-url', sandbox.url])], env);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(countIn(sandbox, 'claims')).toBe(2);
  });
});
