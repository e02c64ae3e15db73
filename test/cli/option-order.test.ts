import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * A misspelt option is named, with commander's suggestion, before any other usage error; a required
 * option left out is still told as before.
 */
describe('unknown options are told first', () => {
  it.each([
    { args: ['import', 'night.csv', '--mappin', 'acme.yaml'], unknown: '--mappin', suggestion: '--mapping' },
    { args: ['export', 'cases', '--outt', '-'], unknown: '--outt', suggestion: '--out' },
    { args: ['merge-results', 'a.journal.sqlite', '--ot', 'x.csv'], unknown: '--ot', suggestion: '--out' },
    { args: ['mapping', 'explain', 'acme.yaml', 'night.csv', '--lin', '3'], unknown: '--lin', suggestion: '--line' },
    // Before a missing argument, too.
    { args: ['import', '--mappin', 'acme.yaml'], unknown: '--mappin', suggestion: '--mapping' },
  ])('$args.0 $unknown: "unknown option", did you mean $suggestion (exit 2)', async ({ args, unknown, suggestion }) => {
    const run = await runCli(args);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`error: unknown option '${unknown}'\n(Did you mean ${suggestion}?)`);
    expect(run.stderr).not.toContain('required option');
    expect(run.stderr).not.toContain('missing required argument');
  });

  it('a required option left out is still named (exit 2), after the arguments', async () => {
    const missing = await runCli(['import', 'night.csv']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("error: required option '--mapping <file>' not specified");
    const noArgument = await runCli(['import']);
    expect(noArgument.stderr).toContain("error: missing required argument 'input'");
    const explain = await runCli(['mapping', 'explain', 'acme.yaml', 'night.csv']);
    expect([explain.exitCode, explain.stderr]).toEqual([
      2,
      expect.stringContaining("error: required option '--line <N>' not specified") as unknown,
    ]);
  });

  it('--help still wins over a misspelt option', async () => {
    const run = await runCli(['import', '--mappin', 'x', '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('--mapping <file>');
  });
});
