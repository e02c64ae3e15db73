import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { csvOf, fraudRow, importArgs, makeWorkspace, runBin, runCli } from '../import/e2e-fixtures.js';

/**
 * A refused file or setting is exit 2 with its code and no stack (docs/exit-codes.md): exit 3 says
 * "run the same command again", and a scheduler that believes it retries a bad file forever.
 * Settings are checked before the journal is made, so a refusal leaves nothing behind.
 */

/** Nine levels of nine aliases each: some 387 million strings once expanded (the "billion laughs"). */
function aliasBomb(): string {
  const lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 9; level++)
    lines.push(`l${level}: &l${level} [${Array.from({ length: 9 }, () => `*l${level - 1}`).join(',')}]`);
  return `${lines.join('\n')}\n`;
}

describe('refusals of a file or a setting', () => {
  it('a mapping whose aliases expand without bound: exit 2, MAPPING_INVALID, no stack, at once', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    const mapping = await workspace.write('bomb.yaml', aliasBomb());
    const started = performance.now();

    const run = await runCli(importArgs(workspace, input, ['--dry-run'], mapping), {});

    expect(run.exitCode, run.stderr).toBe(2);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.stderr).toContain('MAPPING_INVALID');
    expect(run.stderr).toContain('bomb.yaml');
    expect(run.stderr).toContain('aliases');
    expect(run.stderr).not.toMatch(/ReferenceError|"stack"|\n\s+at /);
    expect(existsSync(workspace.results)).toBe(false);
    expect(existsSync(workspace.journal)).toBe(false);
  });

  it('credentials in --base-url: exit 2 before anything is staged, written or sent', async () => {
    const server = await startScriptedServer([]);
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));
    const address = new URL(server.url);
    address.username = 'user';
    address.password = 'pass';

    const run = await runCli(importArgs(workspace, input, ['--base-url', address.href]), {
      CLAIMS_API_KEY: 'live_key_0001',
    });

    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain('CLAIMS_CONFIG');
    expect(run.stderr).toContain('expected no credentials in the URL');
    expect(run.stderr).not.toContain('pass');
    expect(run.stderr).not.toContain('staged');
    expect(server.requests).toEqual([]);
    expect(await readdir(workspace.dir)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/journal|results/)]),
    );
  });

  it('a withdraw source of no kind it knows: exit 2 with WITHDRAW_SOURCE, not 3', async () => {
    const workspace = await makeWorkspace();
    const source = join(workspace.dir, 'noise.bin');
    await writeFile(source, Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 131 + 7) % 256)));

    const run = await runBin(['withdraw', source, '--dry-run', '--sandbox-db', ':memory:'], {}, { cwd: workspace.dir });

    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain('WITHDRAW_SOURCE');
    expect(run.stderr).not.toMatch(/"stack"|\n\s+at /);
  });

  it('mapping guess on binary bytes: exit 2 saying so, not a report layout guessed from noise', async () => {
    const workspace = await makeWorkspace();
    const noise = await workspace.write(
      'noise.csv',
      Buffer.from(Array.from({ length: 5000 }, (_, index) => (index * 131 + 7) % 256)),
    );
    const endsWithCtrlZ = await workspace.write('old.csv', `${csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')])}\x1a`);

    const binary = await runCli(['mapping', 'guess', noise, '--out', join(workspace.dir, 'noise.yaml')], {});
    const text = await runCli(['mapping', 'guess', endsWithCtrlZ, '--out', join(workspace.dir, 'old.yaml')], {});

    expect(binary.exitCode, binary.stderr).toBe(2);
    expect(binary.stderr).toContain('expected a CSV export (text), got binary content');
    expect(binary.stderr).not.toContain('report.header');
    expect(existsSync(join(workspace.dir, 'noise.yaml'))).toBe(false);
    expect(text.exitCode, text.stderr).toBe(0);
  });

  it.each(['--results', '--journal', '--payloads'])(
    'a folder at %s: exit 2 with OUTPUT_NOT_A_FILE before anything is staged',
    async (flag) => {
      const workspace = await makeWorkspace();
      const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
      const folder = join(workspace.dir, 'a-folder');
      await mkdir(folder);
      const paths = { ...workspace, [flag.slice(2)]: folder };

      const run = await runCli(
        importArgs(paths, input, ['--dry-run', ...(flag === '--payloads' ? ['--payloads', folder] : [])]),
        {},
      );

      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toContain('OUTPUT_NOT_A_FILE');
      expect(run.stderr).toContain(`${folder}, got a folder`);
      expect(run.stderr).not.toContain('staged');
      expect(await readdir(folder)).toEqual([]);
    },
  );
});
