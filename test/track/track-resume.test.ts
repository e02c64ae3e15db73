import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { cliBin, killHard } from '../helpers/sandbox-process.js';
import { makeWorkspace, runCli } from '../import/e2e-fixtures.js';

/**
 * A first run killed with SIGKILL part-way: the next run is again a first run, reads only what
 * the killed one left unsaved (answers are saved at least once a second), and the status file is
 * whole. Reads change nothing, so a case read again after a crash costs a request, nothing more.
 */
describe('track, killed and run again', () => {
  it('reads only what the killed run left, and writes every row', async () => {
    const workspace = await makeWorkspace();
    const testSandbox = await startTestSandbox();
    const ids: string[] = [];
    for (let start = 0; start < 150; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, offset) =>
          testSandbox.client.claims.createWithCases(fraudClaim(`K-${String(start + offset).padStart(4, '0')}`)),
        ),
      );
      for (let offset = 0; offset < 50; offset++) ids.push(`K-${String(start + offset).padStart(4, '0')}-case-1`);
    }
    const list = join(workspace.dir, 'night.csv');
    await writeFile(list, `case_id\n${ids.join('\n')}\n`);
    const args = [
      'track',
      list,
      '--results',
      join(workspace.dir, 'night.track.csv'),
      '--base-url',
      testSandbox.sandbox.url,
      '--log-format',
      'json',
    ];
    const env = { CLAIMS_API_KEY: sandboxKey };
    // 150 cases are retrieved one by one (fewer than a walk pays for); 20 a second leaves time to kill it part-way.
    const child = spawn(process.execPath, [cliBin, ...args, '--max-rps', '20', '--concurrency', '2'], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await killHard(child);
    const second = await runCli(args, env);
    // Created and never filed: every case is on the worklist, so the run exits 1.
    expect(second.exitCode, second.stderr).toBe(1);
    expect(second.stdout).toContain('150 cases need a person: 150 never filed');
    const record = JSON.parse(
      second.stderr.split('\n').find((line) => line.includes('"msg":"track finished"')) ?? '{}',
    ) as { run: string; requests: { caseReads: number } };
    expect(record.run).toBe('first');
    // Some were read and saved before the kill: fewer than all are read now.
    expect(record.requests.caseReads).toBeGreaterThan(0);
    expect(record.requests.caseReads).toBeLessThan(150);
    const status = parse<Record<string, string>>(await readFile(join(workspace.dir, 'night.track.csv'), 'utf8'), {
      columns: true,
    });
    expect(status.map((line) => line.case_id)).toEqual(ids);
    expect(status.every((line) => line.status === 'created' && line.changed !== '')).toBe(true);
  });
});
