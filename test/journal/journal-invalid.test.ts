import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { countIn, csvOf, fraudRow, importArgs, makeWorkspace, runCli } from '../import/e2e-fixtures.js';

/**
 * A journal's recorded settings are read through its kind's schema, as a mapping is (src/journal/
 * meta.ts): a value no version of this tool wrote stops the job at the door with JOURNAL_INVALID
 * (exit 2, docs/exit-codes.md), naming the key, what it expected and what it holds; nothing is
 * sent, and the journal is left as it was. Read by another command (report) the same.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

function setMeta(journal: string, key: string, value: string): void {
  const database = new Database(journal);
  try {
    database.prepare('UPDATE meta SET value = ? WHERE key = ?').run(value, key);
  } finally {
    database.close();
  }
}

function metaOf(journal: string, key: string): unknown {
  const database = new Database(journal, { readonly: true });
  try {
    return database.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key);
  } finally {
    database.close();
  }
}

describe('a journal whose metadata does not parse', () => {
  it('is refused by the import and by the report, naming the key; nothing sent, nothing changed', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T2')]));
    const args = importArgs(workspace, input, ['--base-url', sandbox.url]);
    const first = await runCli(args, env);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(countIn(sandbox, 'claims')).toBe(2);

    setMeta(workspace.journal, 'source_columns', '{"not": "a list"}');
    const again = await runCli([...args, '--log-format', 'pretty'], env);

    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain('JOURNAL_INVALID');
    expect(again.stderr).toContain(
      `${workspace.journal}: meta "source_columns": expected what this tool records there, got "{\\"not\\": \\"a list\\"}" (Invalid input: expected array, received object)`,
    );
    expect(again.stderr).not.toContain('    at ');
    expect(countIn(sandbox, 'claims')).toBe(2);
    expect(metaOf(workspace.journal, 'source_columns')).toBe('{"not": "a list"}');

    setMeta(workspace.journal, 'source_columns', '["case_ref"]');
    setMeta(workspace.journal, 'staged', 'yes');
    const report = await runCli(['--log-format', 'pretty', 'report', workspace.journal], env);
    expect(report.exitCode, report.stderr).toBe(2);
    expect(report.stderr).toContain('meta "staged": expected what this tool records there, got "yes" (Invalid option');
  });
});
