import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/** The `mapping guess` command's edges; the guesses themselves: test/mapping/guess/. */
const sample = fileURLToPath(new URL('../../samples/generic-export.csv', import.meta.url));

describe('mapping guess: the command', () => {
  it('has help with an example and the exit codes', async () => {
    const result = await runCli(['mapping', 'guess', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('$ bulk-disputes mapping guess export.csv --out mappings/acme.yaml');
    expect(result.stdout).toContain('Exit 0 when a draft was written, 2 when');
  });

  it('writes the draft to stdout without --out, the summary to stderr, and says to save it', async () => {
    const result = await runCli(['mapping', 'guess', sample]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^# yaml-language-server: \$schema=/);
    expect(result.stdout).toContain('key: [dispute_ref]');
    expect(result.stderr).toContain('mapping guess: 10 rows of');
    expect(result.stderr).toContain('save the draft: run again with --out DRAFT.yaml');
    expect(result.stderr).not.toContain('yaml-language-server');
  });

  it('--rows reads only the first N rows', async () => {
    const result = await runCli(['mapping', 'guess', sample, '--rows', '3']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('mapping guess: 3 rows of');
    expect(result.stdout).toContain('guessed from 3 rows');
  });

  it('refuses an existing --out unless --force, and leaves it untouched', async () => {
    const folder = await temporaryFolder('bulk-disputes-guess-');
    const out = join(folder, 'acme.yaml');
    await writeFile(out, 'mine\n');
    const refused = await runCli(['mapping', 'guess', sample, '--out', out]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `--out ${out}: expected a new file, got an existing one (use --force to overwrite it)`,
    );
    expect(await readFile(out, 'utf8')).toBe('mine\n');

    const forced = await runCli(['mapping', 'guess', sample, '--out', out, '--force']);
    expect(forced.exitCode).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('key: [dispute_ref]');
    expect(forced.stdout).toBe('');
    expect((await runCli(['mapping', 'lint', out])).exitCode).toBe(0);
  });

  it.each([
    [['--rows', '0'], 'expected a whole number from 1, got "0"'],
    [['--rows', 'ten'], 'expected a whole number from 1, got "ten"'],
  ])('a bad flag %j exits 2 saying what was expected', async (flags, message) => {
    const result = await runCli(['mapping', 'guess', sample, ...flags]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('a missing, empty or header-only sample exits 2 naming the file', async () => {
    const folder = await temporaryFolder('bulk-disputes-guess-');
    const missing = await runCli(['mapping', 'guess', join(folder, 'none.csv')]);
    expect(missing).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('none.csv: expected a readable CSV file, got ENOENT') as unknown,
    });

    const empty = join(folder, 'empty.csv');
    await writeFile(empty, '');
    expect(await runCli(['mapping', 'guess', empty])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('got an empty file') as unknown,
    });

    const headerOnly = join(folder, 'header.csv');
    await writeFile(headerOnly, 'ref;amount;currency\n');
    expect(await runCli(['mapping', 'guess', headerOnly])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('expected rows below the header line') as unknown,
    });
  });
});
