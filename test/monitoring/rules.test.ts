import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The shipped alert rules (docs/monitoring.md), checked and unit-tested by Prometheus's own
 * promtool: its rule checker, then its rule unit tests in rules.test.yml (for each alert, series
 * that fire it with its exact labels and annotations, beside series that leave it silent).
 * promtool comes with Debian's `prometheus` package; CI installs it (.ci/run), and without it
 * these tests fail, never skip.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const promtool = '/usr/bin/promtool';
const rules = 'monitoring/bulk-disputes-rules.yml';
const unitTests = 'test/monitoring/rules.test.yml';

/** promtool's exit code and everything it printed, whatever the code (execFile's callback keeps both). */
async function runPromtool(args: string[]): Promise<{ code: number; output: string }> {
  if (!existsSync(promtool))
    throw new Error(`${promtool} is missing: install Debian's prometheus package (apt-get install prometheus)`);
  return new Promise((resolve) => {
    const child = execFile(promtool, args, { cwd: root, timeout: 60_000 }, (_error, stdout, stderr) => {
      resolve({ code: child.exitCode ?? -1, output: `${stdout}${stderr}` });
    });
  });
}

describe(`the alert rules (${rules})`, () => {
  it('pass promtool check rules: six rules', async () => {
    const { code, output } = await runPromtool(['check', 'rules', rules]);
    expect(code, output).toBe(0);
    expect(output).toContain('SUCCESS: 6 rules found');
  });

  it(`pass promtool test rules ${unitTests}: each alert fires where it should and nowhere else`, async () => {
    const { code, output } = await runPromtool(['test', 'rules', unitTests]);
    expect(code, output).toBe(0);
    expect(output).toContain('SUCCESS');
  });
});
