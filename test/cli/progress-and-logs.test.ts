import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { testApiKey } from '../helpers/client.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { json, startScriptedServer } from '../helpers/scripted-server.js';
import { v1Case } from '../migrate/fixtures.js';
import { temporaryFolder } from '../report/fixture.js';

/** The CLI in-process with stderr as a terminal (or not) that records what was written on it. */
async function runOn(argv: string[], options: { isTTY: boolean; env: NodeJS.ProcessEnv }) {
  let stderr = '';
  const exitCode = await main(argv, {
    stdout: { write: () => true },
    stderr: { isTTY: options.isTTY, columns: 160, write: (text: string) => (stderr += text) },
    env: options.env,
  });
  return { exitCode, stderr };
}

async function migrateArgs() {
  const { sandbox, client } = await startTestSandbox();
  for (const id of ['p1', 'p2', 'p3', 'p4']) await client.v1.cases.create(v1Case(id));
  const folder = await temporaryFolder();
  return [
    'migrate-v1',
    '--base-url',
    sandbox.url,
    '--journal',
    join(folder, 'j.sqlite'),
    '--results',
    join(folder, 'r.csv'),
    '--concurrency',
    '1',
    '--log-level',
    'debug',
  ];
}

/** Each match starts a line: at the start, after a finished line, or right after the progress line was cleared. */
function expectEachAtLineStart(output: string, pattern: RegExp): number {
  const matches = [...output.matchAll(pattern)];
  for (const match of matches) {
    const before = output.slice(0, match.index);
    expect(
      before === '' || before.endsWith('\n') || before.endsWith('\r\u001b[2K'),
      JSON.stringify(before.slice(-60)),
    ).toBe(true);
  }
  return matches.length;
}

describe('a terminal for people, a pipe for programs', () => {
  it(
    'on a terminal: human log lines, never JSON, each on a cleared line under the progress line',
    { timeout: 60_000 },
    async () => {
      const { exitCode, stderr } = await runOn(await migrateArgs(), {
        isTTY: true,
        env: { CLAIMS_API_KEY: sandboxKey, NO_COLOR: '1' },
      });
      expect(exitCode, stderr).toBe(0);
      expect(stderr).toContain('sending [####################] 4/4 claims 100%');
      expect(stderr).not.toContain('{"level"');
      expect(expectEachAtLineStart(stderr, /\[\d\d:\d\d:\d\d\] (DEBUG|INFO|WARN):/g)).toBeGreaterThan(2);
      expect(stderr).toMatch(/\[\d\d:\d\d:\d\d\] INFO: v1 cases staged {2}cases=4\n/);
      // NO_COLOR: no colour codes, only the progress line's own clearing.
      expect(stderr.replaceAll('\r\u001b[2K', '')).not.toContain('\u001b');
      expect(stderr).toMatch(/took \S+: staging \S+, sending \S+(?: \(\S+ of it while staging\))?, results \S+\n/);
    },
  );

  it('--log-format json on a terminal: JSON lines, still never mid-line', { timeout: 60_000 }, async () => {
    const { exitCode, stderr } = await runOn(['--log-format', 'json', ...(await migrateArgs())], {
      isTTY: true,
      env: { CLAIMS_API_KEY: sandboxKey },
    });
    expect(exitCode, stderr).toBe(0);
    expect(stderr).toContain('sending [');
    expect(expectEachAtLineStart(stderr, /\{"level":/g)).toBeGreaterThan(2);
  });

  it(
    'on a pipe: JSON lines and no progress line; --log-format pretty gives human lines there',
    { timeout: 60_000 },
    async () => {
      const piped = await runOn(await migrateArgs(), { isTTY: false, env: { CLAIMS_API_KEY: sandboxKey } });
      expect(piped.exitCode, piped.stderr).toBe(0);
      expect(piped.stderr).not.toContain('\u001b');
      const logLines = piped.stderr.split('\n').filter((line) => line.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(2);
      for (const line of logLines)
        expect(JSON.parse(line)).toMatchObject({
          level: expect.any(Number) as unknown,
          msg: expect.any(String) as unknown,
        });

      const pretty = await runOn(['--log-format', 'pretty', ...(await migrateArgs())], {
        isTTY: false,
        env: { CLAIMS_API_KEY: sandboxKey },
      });
      expect(pretty.exitCode, pretty.stderr).toBe(0);
      expect(pretty.stderr).not.toContain('{"level"');
      expect(pretty.stderr).not.toContain('\u001b');
      expect(pretty.stderr).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: v1 cases staged {2}cases=4$/m);
    },
  );

  it(
    'export on a terminal: records counted with their rate, how long it took; not over a CSV going to the same terminal',
    { timeout: 60_000 },
    async () => {
      const { sandbox, client } = await startTestSandbox();
      for (const id of ['e1', 'e2', 'e3']) await client.v1.cases.create(v1Case(id));
      const folder = await temporaryFolder();
      const toFile = await runOn(['export', 'events', '--base-url', sandbox.url, '--out', join(folder, 'events.csv')], {
        isTTY: true,
        env: { CLAIMS_API_KEY: sandboxKey },
      });
      expect(toFile.exitCode, toFile.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex -- the progress line's clearing is what is asserted
      expect(toFile.stderr).toMatch(/\r\u001b\[2Kexporting [\d,]+ events {2}elapsed /);
      expect(toFile.stderr).toMatch(/\ntook \S+\n/);

      let stdout = '';
      let stderr = '';
      const exitCode = await main(['export', 'events', '--base-url', sandbox.url, '--out', '-'], {
        stdout: { isTTY: true, write: (text: string) => (stdout += text) },
        stderr: { isTTY: true, columns: 160, write: (text: string) => (stderr += text) },
        env: { CLAIMS_API_KEY: sandboxKey },
      });
      expect(exitCode, stderr).toBe(0);
      expect(stdout).toContain('event_id');
      expect(stderr).not.toContain('exporting');
    },
  );

  it('a fatal error is one sentence on a terminal, one JSON record otherwise', async () => {
    const refused = async () => startScriptedServer([json(401, { message: 'invalid API key' })]);
    const sentence = 'CLAIMS_AUTHENTICATION: GET /v2/issuer/claims: 401: invalid API key (1 attempt)';

    const terminal = await runOn(['check'], {
      isTTY: true,
      env: { CLAIMS_BASE_URL: (await refused()).url, CLAIMS_API_KEY: testApiKey },
    });
    expect(terminal.exitCode).toBe(3);
    expect(terminal.stderr.split('\n').filter((line) => line.includes('401'))).toEqual([`bulk-disputes: ${sentence}`]);
    expect(terminal.stderr).not.toContain('{');

    const piped = await runOn(['check', '--log-level', 'silent'], {
      isTTY: false,
      env: { CLAIMS_BASE_URL: (await refused()).url, CLAIMS_API_KEY: testApiKey },
    });
    expect(piped.exitCode).toBe(3);
    const lines = piped.stderr.split('\n').filter((line) => line.includes('401'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 50,
      code: 'CLAIMS_AUTHENTICATION',
      exitCode: 3,
      msg: sentence,
    });
  });
});
