import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';

describe('bulk-disputes sandbox', () => {
  it('prints its URL and a generated test key that the sandbox then accepts; stops cleanly', async () => {
    let stdout = '';
    let stop: (() => void) | undefined;
    const running = main(['sandbox', '--port', '0', '--db', ':memory:', '--log-level', 'silent'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => true },
      env: {},
      onStop: (handler) => {
        stop = handler;
      },
    });
    await expect.poll(() => stdout).toContain('sandbox listening on');
    const url = /listening on (\S+)/.exec(stdout)?.[1] ?? '';
    const key = /API key \(generated, sandbox environment\): (test_[0-9a-f]{32})/.exec(stdout)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(stdout).toContain(`try: curl -u ${key}: ${url}/v2/issuer/claims`);

    const answer = await fetch(`${url}/v2/issuer/claims`, { headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } });
    expect({ status: answer.status, body: (await answer.json()) }).toEqual({ status: 200, body: { data: [], has_more: false } });

    stop?.();
    expect(await running).toBe(0);
  });

  it('refuses a bad --port with exit 2', async () => {
    let stderr = '';
    const exitCode = await main(['sandbox', '--port', 'http'], { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) }, env: {} });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--port: expected a whole number from 0 to 65535, got http');
  });

  it('runs as a process with the configured keys, and exits 0 on SIGTERM', async () => {
    const sandbox = await startSandboxProcess(['--db', ':memory:', '--api-key', 'test_one', '--api-key', 'live_two']);
    expect(sandbox.output()).toContain('API keys: 2 configured');
    const withKey = async (key: string) => (await fetch(`${sandbox.url}/v2/issuer/events`, { headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } })).status;
    expect(await withKey('test_one')).toBe(200);
    expect(await withKey('live_two')).toBe(200);
    expect(await withKey('test_three')).toBe(401);
    const exited = new Promise<number | null>((resolve) => sandbox.child.once('exit', (code) => { resolve(code); }));
    sandbox.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('bulk-disputes sandbox --rules', () => {
  it('refuses a rules file that does not parse, naming the file and the field, exit 2', async () => {
    const rulesFile = join(await mkdtemp(join(tmpdir(), 'bulk-disputes-rules-')), 'rules.json');
    await writeFile(rulesFile, JSON.stringify({ rules: [{ when: { amount_over: 'lots' }, outcome: 'file_chargeback' }] }));
    let stderr = '';
    const exitCode = await main(['sandbox', '--rules', rulesFile, '--port', '0'], { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) }, env: {} });
    expect(exitCode).toBe(2);
    expect(stderr).toContain(`--rules ${rulesFile}: rules.0.when.amount_over: Invalid input: expected number, received string`);
  });
});
