import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { csvOf, fraudRow } from '../import/e2e-fixtures.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The script of docs/nightly-job.md whose first comment names `/srv/disputes/NAME`, as the page shows it. */
async function scriptOf(name: string): Promise<string> {
  const page = await readFile(join(root, 'docs/nightly-job.md'), 'utf8');
  const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const script = blocks.find((block) => block.includes(`# /srv/disputes/${name}:`));
  if (script === undefined) throw new Error(`test: docs/nightly-job.md has no script /srv/disputes/${name}`);
  // `npx bulk-disputes` is the package installed in the job's folder; here, the built CLI on PATH.
  return script.replace(/\bnpx bulk-disputes\b/g, 'bulk-disputes');
}

interface Ran {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

async function runScript(file: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('sh', [file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (exitCode) => {
      resolve({ exitCode, stdout, stderr });
    });
  });
}

/**
 * docs/nightly-job.md's night and morning scripts, run as cron runs them, against a sandbox server
 * on a loopback port: two nights, then the merchant answers a case of the first night, then the
 * morning. Its worklist (the file the mail step sends) holds that case; it mails only on exit 1,
 * and a morning that cannot run (no service set) alerts as a failure instead. `date` and `mail`
 * are the host's commands the scripts call: here `date +%F` names the night being replayed and
 * `mail` keeps what it was given.
 */
describe('docs/nightly-job.md: the morning step', () => {
  it('follows every night: a case filed on the first night and answered on the second is on the worklist it mails', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-morning-'));
    const bin = join(folder, '.bin');
    await mkdir(bin);
    await mkdir(join(folder, 'in'));
    await mkdir(join(folder, 'out'));
    await mkdir(join(folder, 'mappings'));
    await cp(join(root, 'samples/evidence'), join(folder, 'in/evidence'), { recursive: true });
    await cp(join(root, 'mappings/generic.yaml'), join(folder, 'mappings/issuer.yaml'));
    const tool = async (name: string, body: string) => {
      await writeFile(join(bin, name), `#!/bin/sh\n${body}\n`);
      await chmod(join(bin, name), 0o755);
    };
    await tool('bulk-disputes', `exec '${process.execPath}' '${cliBin}' "$@"`);
    await tool('date', `if [ "$1" = "+%F" ]; then echo "$NIGHT"; else exec /bin/date "$@"; fi`);
    await tool('mail', `{ echo "to: $3"; echo "subject: $2"; cat; echo "--"; } >> '${join(folder, 'mailed.txt')}'`);
    const night = join(folder, 'nightly.sh');
    const morning = join(folder, 'morning.sh');
    await writeFile(night, await scriptOf('nightly.sh'));
    await writeFile(morning, await scriptOf('morning.sh'));

    const testSandbox = await startTestSandbox({ control: true });
    const env = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: folder,
      DISPUTES_DIR: folder,
      CLAIMS_BASE_URL: testSandbox.sandbox.url,
      CLAIMS_API_KEY: sandboxKey,
    };
    const mailed = async () => readFile(join(folder, 'mailed.txt'), 'utf8').catch(() => '');

    await writeFile(
      join(folder, 'in/disputes-2026-11-26.csv'),
      csvOf([fraudRow('N1-0001', 'T1'), fraudRow('N1-0002', 'T1')]),
    );
    const first = await runScript(night, { ...env, NIGHT: '2026-11-26' });
    expect(first.exitCode, first.stderr).toBe(0);
    const firstMorning = await runScript(morning, env);
    expect(firstMorning.exitCode, firstMorning.stderr).toBe(0);
    expect(firstMorning.stdout).toContain('nothing needs a person today');
    expect(await mailed()).toBe('');

    await writeFile(join(folder, 'in/disputes-2026-11-27.csv'), csvOf([fraudRow('N2-0001', 'T1')]));
    const second = await runScript(night, { ...env, NIGHT: '2026-11-27' });
    expect(second.exitCode, second.stderr).toBe(0);
    // The merchant answers a case of the first night.
    const answered = await testSandbox.request('POST', '/_sandbox/cases/N1-0002-T1/advance', {
      status: 'chargeback_represented',
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);

    const secondMorning = await runScript(morning, env);
    expect(secondMorning.exitCode, secondMorning.stderr).toBe(1);
    const worklist = parse<Record<string, string>>(await readFile(join(folder, 'out/morning.worklist.csv'), 'utf8'), {
      columns: true,
    });
    expect(worklist.map((line) => [line.claim_key, line.case_id, line.why, line.job])).toEqual([
      ['N1-0002', 'N1-0002-T1', 'merchant answered', 'disputes-2026-11-26'],
    ]);
    const status = parse<Record<string, string>>(await readFile(join(folder, 'out/morning.track.csv'), 'utf8'), {
      columns: true,
    });
    expect(status.map((line) => line.case_id).sort()).toEqual(['N1-0001-T1', 'N1-0002-T1', 'N2-0001-T1']);
    const sent = await mailed();
    expect(sent).toContain('to: team@example.com\nsubject: disputes need a person\n');
    expect(sent).toContain('N1-0002-T1,merchant answered');

    // A morning that cannot run says so to the on-call address, not as a worklist.
    const broken = await runScript(morning, { ...env, CLAIMS_BASE_URL: '' });
    expect(broken.exitCode, broken.stderr).toBe(2);
    const alerts = (await mailed()).slice(sent.length);
    expect(alerts).toContain('to: oncall@example.com\nsubject: disputes: the morning step failed (exit 2)\n');
    expect(alerts).toContain('bulk-disputes track exited 2: no worklist this morning');
  }, 120_000);
});
