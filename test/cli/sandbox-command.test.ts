import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaimsClient } from '../../src/api/client/index.js';
import { OutcomeUnknownError } from '../../src/api/errors.js';
import { main } from '../../src/cli/main.js';
import { verifySignature } from '../../src/sandbox/webhooks/signature.js';
import { fraudClaim } from '../helpers/sandbox.js';
import { json, startScriptedServer } from '../helpers/scripted-server.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

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

    const answer = await fetch(`${url}/v2/issuer/claims`, {
      headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    });
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 200,
      body: { data: [], has_more: false },
    });

    stop?.();
    expect(await running).toBe(0);
  });

  it('refuses a bad --port with exit 2', async () => {
    let stderr = '';
    const exitCode = await main(['sandbox', '--port', 'http'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      env: {},
    });
    expect(exitCode).toBe(2);
    expect(stderr).toContain('--port: expected a whole number from 0 to 65535, got http');
  });

  it('runs as a process with the configured keys, and exits 0 on SIGTERM', async () => {
    const sandbox = await startSandboxProcess(['--db', ':memory:', '--api-key', 'test_one', '--api-key', 'live_two']);
    expect(sandbox.output()).toContain('API keys: 2 configured');
    const withKey = async (key: string) =>
      (
        await fetch(`${sandbox.url}/v2/issuer/events`, {
          headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
        })
      ).status;
    expect(await withKey('test_one')).toBe(200);
    expect(await withKey('live_two')).toBe(200);
    expect(await withKey('test_three')).toBe(401);
    const exited = new Promise<number | null>((resolve) =>
      sandbox.child.once('exit', (code) => {
        resolve(code);
      }),
    );
    sandbox.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('bulk-disputes sandbox --rules', () => {
  it('refuses a rules file that does not parse, naming the file and the field, exit 2', async () => {
    const rulesFile = join(await temporaryFolder('bulk-disputes-rules-'), 'rules.json');
    await writeFile(
      rulesFile,
      JSON.stringify({ rules: [{ when: { amount_over: 'lots' }, outcome: 'file_chargeback' }] }),
    );
    let stderr = '';
    const exitCode = await main(['sandbox', '--rules', rulesFile, '--port', '0'], {
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
      env: {},
    });
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      `--rules ${rulesFile}: rules.0.when.amount_over: Invalid input: expected number, received string`,
    );
  });
});

describe('bulk-disputes sandbox: faults and webhooks from flags', () => {
  it('--drop-after-commit-rate 1 on new_claim: the client sees a reset, yet the claim exists; the webhook receiver gets the signed event', async () => {
    const receiver = await startScriptedServer(() => json(200, {}));
    const sandbox = await startSandboxProcess([
      '--db',
      ':memory:',
      '--api-key',
      'test_flags',
      '--drop-after-commit-rate',
      '1',
      '--fault-route',
      'POST /v2/issuer/new_claim',
      '--seed',
      '7',
      '--webhook-url',
      receiver.url,
      '--webhook-secret',
      'whsec_test',
    ]);
    const client = new ClaimsClient({ baseUrl: sandbox.url, apiKey: 'test_flags', retry: { maxAttempts: 1 } });
    try {
      await expect(client.claims.createWithCases(fraudClaim('dropped'))).rejects.toBeInstanceOf(OutcomeUnknownError);
      expect((await client.claims.retrieve('dropped')).data.claim_id).toBe('dropped');
      await expect.poll(() => receiver.requests.length).toBe(1);
      const delivery = receiver.requests[0];
      const body = delivery?.body.toString('utf8') ?? '';
      expect(JSON.parse(body)).toMatchObject({ type: 'case.created', data: { case_id: 'dropped-case-1' } });
      expect(
        verifySignature('whsec_test', delivery?.headers['bulk-disputes-signature'] as string, body, Date.now() / 1000),
      ).toBe(true);
    } finally {
      await client.close();
    }
  });
});
