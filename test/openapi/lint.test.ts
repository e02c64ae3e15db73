import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Redocly CLI's lint (its `recommended` rules, as redocly.yaml adjusts them, each change with its
 * reason) finds nothing in the committed document: no error, no warning.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const redoclyBin = (() => {
  const manifest = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === 'string' ? bin : (bin.redocly ?? Object.values(bin)[0] ?? ''));
})();

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

describe('Redocly lint', () => {
  it('openapi/claims-service.json: 0 errors, 0 warnings', { timeout: 60_000 }, async () => {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      // Offline and quiet: no telemetry, no update check (a CI machine may have no way out).
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      execFile(
        process.execPath,
        [redoclyBin, 'lint', '--format=json'],
        { cwd: root, env, maxBuffer: 16 * 1024 * 1024 },
        (_error, out, err) => {
          resolve({ stdout: out, stderr: err });
        },
      );
    });
    const start = stdout.indexOf('{');
    expect(start, `redocly printed no report:\n${stdout}\n${stderr}`).toBeGreaterThanOrEqual(0);
    const report = JSON.parse(stdout.slice(start)) as LintReport;
    const problems = report.problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
