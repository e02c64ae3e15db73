import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { oldestSupported, runtimeRefusal } from '../../src/runtime/supported.js';
import { cliBin } from '../helpers/sandbox-process.js';

/**
 * The supported Node.js lines (docs/development.md, "Supported Node.js"): below the oldest, one
 * sentence naming the version and what to install, exit 2, and nothing loaded that could crash.
 */

describe('runtimeRefusal', () => {
  it('runs on the supported lines and after them', () => {
    for (const version of ['22.12.0', '22.23.3', '24.0.0', '24.21.0', '26.10.0', '27.0.0'])
      expect(runtimeRefusal(version), version).toBeUndefined();
  });

  it('refuses the lines before, naming the version and what to install', () => {
    for (const version of ['20.20.2', '22.11.0', '18.20.8', '21.7.3']) {
      const refusal = runtimeRefusal(version);
      expect(refusal, version).toContain(`this is Node.js ${version}`);
      expect(refusal).toContain(`Node.js ${String(oldestSupported.major)}.${String(oldestSupported.minor)} or later`);
      expect(refusal).toContain('install Node.js 24 LTS');
      expect(refusal).not.toContain('\n');
    }
  });
});

// .ci/run passes the machine's own Node here when it is older than every supported line; a
// machine without one has nothing to run this on.
const oldNode = process.env.BULK_DISPUTES_OLD_NODE;

describe.runIf(oldNode !== undefined)(`on an unsupported Node.js (${oldNode ?? 'none given'})`, () => {
  const run = (args: string[]) => spawnSync(oldNode ?? 'node', args, { encoding: 'utf8', timeout: 20_000 });
  const oldVersion = () => run(['-p', 'process.versions.node']).stdout.trim();

  it('the command line says so in one sentence and exits 2, before any work', () => {
    const version = oldVersion();
    for (const args of [
      ['--version'],
      ['import', 'samples/generic-export.csv', '--mapping', 'mappings/generic.yaml', '--dry-run'],
    ]) {
      const result = run([cliBin, ...args]);
      expect({ status: result.status, signal: result.signal, stdout: result.stdout }).toEqual({
        status: 2,
        signal: null,
        stdout: '',
      });
      expect(result.stderr).toBe(`${String(runtimeRefusal(version))}\n`);
    }
  });

  it('the library throws the same sentence when it is imported, instead of crashing', () => {
    const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const result = run([
      '--input-type=module',
      '-e',
      `import(${JSON.stringify(entry)}).then(() => console.log('loaded'), (error) => console.log(error.message))`,
    ]);
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
    expect(result.stdout).toBe(`${String(runtimeRefusal(oldVersion()))}\n`);
  });
});
