import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { v1Case } from '../migrate/fixtures.js';
import { temporaryFolder } from '../report/fixture.js';

describe('the progress bar and JSON logs on one terminal', () => {
  it('clears the bar before every log line, so no line starts mid-bar', { timeout: 60_000 }, async () => {
    const { sandbox, client } = await startTestSandbox();
    for (const id of ['p1', 'p2', 'p3', 'p4']) await client.v1.cases.create(v1Case(id));
    const folder = await temporaryFolder();
    let terminal = '';
    const exitCode = await main(
      ['migrate-v1', '--base-url', sandbox.url, '--journal', join(folder, 'j.sqlite'), '--results', join(folder, 'r.csv'), '--concurrency', '1', '--log-level', 'debug'],
      { stdout: { write: () => true }, stderr: { isTTY: true, columns: 100, write: (text: string) => (terminal += text) } as { write(text: string): unknown }, env: { CLAIMS_API_KEY: sandboxKey } },
    );
    expect(exitCode, terminal).toBe(0);
    expect(terminal).toContain('claims [');
    const logLines = [...terminal.matchAll(/\{"level":/g)];
    expect(logLines.length).toBeGreaterThan(2);
    for (const match of logLines) {
      const before = terminal.slice(0, match.index);
      // At the start, after a finished line, or right after the bar was cleared.
      expect(before === '' || before.endsWith('\n') || before.endsWith('\r\u001b[2K'), JSON.stringify(before.slice(-60))).toBe(true);
    }
  });
});
