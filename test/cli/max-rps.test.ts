import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../src/sandbox/faults/seeded-faults.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { startScriptedServer } from '../helpers/scripted-server.js';
import { countIn, csvOf, fraudRow, importArgs, makeWorkspace, runCli, type Workspace } from '../import/e2e-fixtures.js';

/**
 * `--max-rps` and CLAIMS_MAX_RPS on import, export and migrate-v1 (docs/rate-limits.md): a bad
 * value stops the command with exit 2 before anything is sent, in the words of the flag or the
 * variable; a good one paces the job, and its summary says so.
 */

type Command = 'import' | 'export' | 'migrate-v1';

async function argsFor(command: Command, workspace: Workspace, baseUrl: string): Promise<string[]> {
  if (command === 'import') {
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1')]));
    return importArgs(workspace, input, ['--base-url', baseUrl]);
  }
  if (command === 'export')
    return ['export', 'claims', '--base-url', baseUrl, '--out', join(workspace.dir, 'claims.csv')];
  return ['migrate-v1', '--base-url', baseUrl, '--journal', workspace.journal, '--results', workspace.results];
}

const commands: Command[] = ['import', 'export', 'migrate-v1'];
const badValues = ['0', '-1', 'abc', '1e3', '0.0', 'Infinity', ' '];

describe('--max-rps and CLAIMS_MAX_RPS', () => {
  it.each(commands.flatMap((command) => badValues.map((value) => ({ command, value }))))(
    '$command --max-rps "$value": exit 2 naming the flag, nothing sent',
    async ({ command, value }) => {
      const server = await startScriptedServer([]);
      const workspace = await makeWorkspace();
      const run = await runCli([...(await argsFor(command, workspace, server.url)), '--max-rps', value], {
        CLAIMS_API_KEY: sandboxKey,
      });
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toContain(`--max-rps: expected a positive number, got ${value}`);
      expect(server.requests).toEqual([]);
    },
  );

  it.each(
    commands.flatMap((command) =>
      badValues.filter((value) => value.trim() !== '').map((value) => ({ command, value })),
    ),
  )('$command with CLAIMS_MAX_RPS="$value": exit 2 naming the variable, nothing sent', async ({ command, value }) => {
    const server = await startScriptedServer([]);
    const workspace = await makeWorkspace();
    const run = await runCli(await argsFor(command, workspace, server.url), {
      CLAIMS_API_KEY: sandboxKey,
      CLAIMS_MAX_RPS: value,
    });
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`CLAIMS_MAX_RPS: expected a positive number, got ${value}`);
    expect(server.requests).toEqual([]);
  });

  it('the main --help lists CLAIMS_MAX_RPS with the environment', async () => {
    const run = await runCli(['--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}CLAIMS_MAX_RPS {4}import, migrate-v1, export: requests per second for the whole job$/m,
    );
  });

  it.each(commands)('%s --help describes --max-rps', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/--max-rps <n>\s+requests per second for the whole job/);
  });

  it(
    'import: CLAIMS_MAX_RPS paces the job and the summary says so; the flag wins over the variable',
    { timeout: 30_000 },
    async () => {
      const { sandbox } = await startTestSandbox();
      const workspace = await makeWorkspace();
      const input = await workspace.write(
        'disputes.csv',
        csvOf(['A', 'B', 'C', 'D', 'E'].map((ref) => fraudRow(ref, 'T1'))),
      );
      const args = importArgs(workspace, input, [
        '--base-url',
        sandbox.url,
        '--file-mode',
        'none',
        '--log-level',
        'silent',
      ]);

      const startedMs = performance.now();
      const paced = await runCli(args, { CLAIMS_API_KEY: sandboxKey, CLAIMS_MAX_RPS: '4' });
      const elapsedMs = performance.now() - startedMs;
      expect(paced.exitCode, paced.stderr).toBe(0);
      expect(countIn(sandbox, 'claims')).toBe(5);
      // Five creates, a quarter of a second apart.
      expect(elapsedMs).toBeGreaterThanOrEqual(4 * 250 - 5);
      expect(paced.stderr).toMatch(/^requests: 5 in 1\.\d s \([\d.]+ a second\)$/m);
      expect(paced.stderr).toContain('throttled: never (claims in flight stayed at 8)');
      expect(paced.stderr).toContain('--max-rps 4: 4 waited for their turn');

      // CLAIMS_MAX_RPS=0.001 would hold the second create for 1,000 s: the flag's pace is the one kept.
      const other = await makeWorkspace();
      const otherInput = await other.write('disputes.csv', csvOf(['F', 'G'].map((ref) => fraudRow(ref, 'T1'))));
      const flagWins = await runCli(
        [
          ...importArgs(other, otherInput, ['--base-url', sandbox.url, '--file-mode', 'none', '--log-level', 'silent']),
          '--max-rps',
          '1000',
        ],
        {
          CLAIMS_API_KEY: sandboxKey,
          CLAIMS_MAX_RPS: '0.001',
        },
      );
      expect(flagWins.exitCode, flagWins.stderr).toBe(0);
      expect(flagWins.stderr).toMatch(/--max-rps 1000: [01] waited for their turn/);
      expect(countIn(sandbox, 'claims')).toBe(7);
    },
  );

  it("export: a 429 sets its pace to the service's rate (its Retry-After of 1 s holds only that page), it finishes, and its summary and log say so", async () => {
    const { sandbox, request } = await startTestSandbox({ faults: createFaultInjector({ rateLimitPerSecond: 1 }) });
    // The key's one token a second, spent: the export's first page is refused once.
    expect((await request('GET', '/v2/issuer/claims')).status).toBe(200);
    const workspace = await makeWorkspace();

    const run = await runCli(
      [
        'export',
        'claims',
        '--base-url',
        sandbox.url,
        '--out',
        join(workspace.dir, 'claims.csv'),
        '--log-level',
        'info',
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );

    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /^rate limited \(429\): 1 \(50\.0%\); paced to the service's rate, last measured at [\d.]+ a second \(cut once, lowest [\d.]+\)$/m,
    );
    const finished = run.stderr.split('\n').find((line) => line.includes('"msg":"export finished"')) ?? '{}';
    expect(JSON.parse(finished)).toMatchObject({
      throttling: { requests: 2, answered429: 1, pauses: 0, rate: { throttles: 1 } },
    });
  });
});
