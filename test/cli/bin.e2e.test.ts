import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testApiKey } from '../helpers/client.js';
import { json, startScriptedServer } from '../helpers/scripted-server.js';

/** The built bin, as `npm ci` leaves it (npm test builds before it runs the tests). */
const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

async function runBin(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ exitCode: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } }, (error, stdout, stderr) => {
      resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

// One end-to-end run per exit code the CLI can produce today; exit 1 arrives with the import.
describe('bulk-disputes bin, end to end', () => {
  it('exit 0: check against a service that accepts the key', async () => {
    const server = await startScriptedServer([json(200, { data: [], has_more: false })]);
    const result = await runBin(['check'], { CLAIMS_BASE_URL: server.url, CLAIMS_API_KEY: testApiKey });
    expect(result).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('accepted the key') as unknown });
  });

  it('exit 2: a usage error', async () => {
    const result = await runBin(['check'], { CLAIMS_API_KEY: testApiKey });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('expected --base-url URL or CLAIMS_BASE_URL');
  });

  it('exit 3: the service refuses the key', async () => {
    const server = await startScriptedServer([json(401, { message: 'invalid API key' })]);
    const result = await runBin(['check'], { CLAIMS_BASE_URL: server.url, CLAIMS_API_KEY: testApiKey });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).not.toContain(testApiKey);
  });
});
