import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliBin } from '../helpers/sandbox-process.js';
import { oneToThreeRows, plannedRows, writeDisputesCsv } from '../import/generate.js';
import { temporaryFolder } from '../report/fixture.js';

/**
 * A terminal for people, a pipe for programs, with real processes: the built CLI's import into
 * the embedded sandbox under a pseudo-terminal (util-linux `script`, which gives the command a
 * terminal and copies what it shows), and the same import on a plain pipe. --max-rps keeps the
 * sending going long enough for a rate over a second of data, whatever the machine's speed (no
 * clock is asserted on).
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const evidence = fileURLToPath(new URL('../../samples/evidence', import.meta.url));

async function importArgs(folder: string): Promise<string[]> {
  const input = join(folder, 'night.csv');
  await writeDisputesCsv(input, plannedRows({ rows: 600, sizeOf: oneToThreeRows, block: 1 }));
  return [
    cliBin,
    'import',
    input,
    '--mapping',
    mapping,
    '--evidence-dir',
    evidence,
    '--sandbox-db',
    join(folder, 'sandbox.db'),
    '--max-rps',
    '150',
  ];
}

/** Runs `command` to its end; what it wrote on stdout and stderr. */
async function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

const shellQuoted = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
/** Colours off: what is left are the progress line's own clearing and the text. */
// eslint-disable-next-line no-control-regex -- colour codes are what is taken out
const withoutColour = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
const humanLogLine = /\[\d\d:\d\d:\d\d\] (TRACE|DEBUG|INFO|WARN|ERROR|FATAL):/;

describe('the import as a person and as a program see it', () => {
  it(
    'on a terminal: a progress line with a rate and an ETA, human log lines, no JSON record',
    { timeout: 120_000 },
    async () => {
      const folder = await temporaryFolder();
      const command = [process.execPath, ...(await importArgs(folder))].map(shellQuoted).join(' ');
      // -e: the command's exit code; -q: no "Script started" lines; /dev/null: no typescript file.
      const result = await run('script', ['-qec', command, '/dev/null'], { TERM: 'xterm-256color' }, folder);
      const screen = withoutColour(result.stdout);
      expect(result.code, screen.slice(-2000)).toBe(0);
      expect(screen).toMatch(/staging .*[\d,]+ rows/);
      // done/total, percent, claims/s over the window, elapsed, the ETA, the running count filed.
      expect(screen).toMatch(
        /sending .*\d+\/[\d,]+ claims \d+% {2}[\d.,]+ claims\/s {2}elapsed [\d.]+s {2}ETA [\d.ms]+ {2}filed [\d,]+/,
      );
      expect(screen).toMatch(new RegExp(`${humanLogLine.source} input staged {2}rows=600`));
      expect(screen).not.toContain('{"level"');
      expect(screen).toMatch(/took \S+: staging \S+, sending \S+(?: \(\S+ of it while staging\))?, results \S+/);
    },
  );

  it('on a pipe: JSON log lines only, no progress line, no human log line', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder();
    const result = await run(process.execPath, await importArgs(folder), {}, folder);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stderr).not.toMatch(humanLogLine);
    const records = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string });
    expect(records.map((record) => record.msg)).toEqual(expect.arrayContaining(['input staged', 'import finished']));
  });
});
