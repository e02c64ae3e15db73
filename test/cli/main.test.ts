import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/cli.js';
import { testApiKey } from '../helpers/client.js';
import { json, startScriptedServer } from '../helpers/scripted-server.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

const emptyPage = { data: [], has_more: false };

describe('bulk-disputes (in-process)', () => {
  it('--help lists the commands, the environment and the exit codes, exit 0', async () => {
    const result = await run(['--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: bulk-disputes');
    expect(result.stdout).toContain('check [options]');
    expect(result.stdout).toContain('CLAIMS_API_KEY');
    expect(result.stdout).toContain('3  aborted');
  });

  it('check --help describes its flags', async () => {
    const result = await run(['check', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('--api-key-file <file>');
  });

  it('an unknown command or flag is a usage error, exit 2', async () => {
    expect(await run(['bogus'])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining("unknown command 'bogus'") as unknown,
    });
    expect(await run(['check', '--api-key', 'x'])).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining("unknown option '--api-key'") as unknown,
    });
    expect((await run(['--log-level', 'loud', 'check'])).exitCode).toBe(2);
  });

  it('check without a base URL or key says what is missing, exit 2, nothing sent', async () => {
    const noUrl = await run(['check'], { CLAIMS_API_KEY: testApiKey });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toContain('base URL: expected --base-url URL or CLAIMS_BASE_URL, got neither');

    const server = await startScriptedServer([]);
    const noKey = await run(['check', '--base-url', server.url]);
    expect(noKey.exitCode).toBe(2);
    expect(noKey.stderr).toContain('API key: expected CLAIMS_API_KEY or --api-key-file FILE, got neither');
    expect(server.requests).toHaveLength(0);
  });

  it('check succeeds with the key from the environment, exit 0', async () => {
    const server = await startScriptedServer([json(200, emptyPage)]);
    const result = await run(['check'], { CLAIMS_BASE_URL: server.url, CLAIMS_API_KEY: testApiKey });

    expect(result).toMatchObject({
      exitCode: 0,
      stdout: `route: direct (no proxy set)\nclient certificate: none configured\nok: ${server.url} accepted the key (sandbox environment)\n`,
    });
    expect(server.requests[0]?.url).toBe('/v2/issuer/claims?limit=1');
  });

  it('check reads --api-key-file without its trailing newline', async () => {
    const folder = await temporaryFolder('bulk-disputes-');
    const keyFile = join(folder, 'key');
    await writeFile(keyFile, 'live_abc123\n');
    const server = await startScriptedServer([json(200, emptyPage)]);

    const result = await run(['check', '--base-url', server.url, '--api-key-file', keyFile]);

    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('(production environment)');
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('live_abc123:').toString('base64')}`);
  });

  it('a missing key file is a usage error naming the file', async () => {
    const result = await run(['check', '--base-url', 'http://127.0.0.1:1', '--api-key-file', '/nonexistent/key']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      '--api-key-file /nonexistent/key: expected a readable file holding the API key, got ENOENT',
    );
  });

  it.each([
    ['404', json(404, { message: 'no such route' })],
    [
      'an HTML page',
      (_request: unknown, response: import('node:http').ServerResponse) => response.end('<html>welcome</html>'),
    ],
  ])('a base URL that answers %s is a configuration error, exit 2', async (_name, step) => {
    const server = await startScriptedServer([step]);
    const result = await run(['check', '--base-url', server.url], { CLAIMS_API_KEY: testApiKey });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`base URL ${server.url}: expected the Claims Service, got GET /v2/issuer/claims`);
  });

  it('a refused key aborts with exit 3, and the key appears nowhere in the output', async () => {
    const server = await startScriptedServer([json(401, { message: 'invalid API key' })]);
    const result = await run(['check', '--log-level', 'trace'], {
      CLAIMS_BASE_URL: server.url,
      CLAIMS_API_KEY: testApiKey,
    });

    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('CLAIMS_AUTHENTICATION: GET /v2/issuer/claims: 401: invalid API key (1 attempt)');
    expect(result.stderr + result.stdout).not.toContain(testApiKey);
    // Logs are JSON lines.
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});
