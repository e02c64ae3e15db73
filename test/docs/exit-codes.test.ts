import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { exitCodeMeaning, exitCodeRows, jobCommands, type JobCommand } from '../../src/cli/exit-code-table.js';
import { runCli } from '../helpers/cli.js';

/**
 * docs/exit-codes.md and the code's one table of exit codes (src/cli/exit-code-table.ts, which
 * every `--help` prints) say the same, code by code, word for word: a change to one without the
 * other fails here. Markdown's backticks and links, and punctuation, are not words.
 */

const page = await readFile(new URL('../../docs/exit-codes.md', import.meta.url), 'utf8');

/** The words of a sentence, lower case: `csv_line_endings`, "service's", "--yes" as csv_line_endings, service's, yes. */
function wordsOf(text: string): string[] {
  const unlinked = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return (unlinked.toLowerCase().match(/[\p{L}\p{N}_]+(?:'[\p{L}]+)?/gu) ?? []).filter((word) => word.length > 0);
}

/** The cells of every row of the Markdown table that follows `heading` (the first table when heading is undefined). */
function tableAfter(heading: string | undefined): string[][] {
  const start = heading === undefined ? 0 : page.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/exit-codes.md: expected the heading ${heading}, got none`);
  const lines = page.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'));
  return lines.slice(first + 2, end < 0 ? undefined : end).map((line) =>
    line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((cell) => cell.trim()),
  );
}

const codesTable = tableAfter(undefined);
const commandTable = tableAfter('## Command by command');
/** The per-command table's code columns, as its header names them. */
const commandColumns = ((): number[] => {
  const headerLine = page
    .slice(page.indexOf('\n## Command by command\n'))
    .split('\n')
    .find((line) => line.startsWith('|'));
  return (headerLine ?? '')
    .split('|')
    .map((cell) => cell.trim())
    .filter((cell) => /^\d+$/.test(cell))
    .map(Number);
})();

describe('docs/exit-codes.md and the exit-code table', () => {
  it('the page lists the same codes as the table', () => {
    expect(codesTable.map(([code]) => Number(code))).toEqual(exitCodeRows.map((row) => row.code));
  });

  it.each(exitCodeRows.map((row) => [row.code, row.name, row] as const))(
    'code %i (%s) means the same words',
    (code, _name, row) => {
      const cells = codesTable.find(([number]) => number === String(code));
      expect(cells, `docs/exit-codes.md: a row for code ${code}`).toBeDefined();
      expect(wordsOf(cells?.[1] ?? '')).toEqual(wordsOf(row.meaning));
    },
  );

  it('"Command by command" has a row for every job command and a column for codes 0 to 3', () => {
    expect(commandColumns).toEqual([0, 1, 2, 3]);
    const named = commandTable.map(([command]) => /`([^`]+)`/.exec(command ?? '')?.[1]);
    for (const command of jobCommands) expect(named, `a row for ${command}`).toContain(command);
  });

  it.each(jobCommands)('%s: each code of "Command by command" says what its help says', (command) => {
    const cells = commandTable.find(([name]) => name?.startsWith(`\`${command}\``));
    for (const [column, code] of commandColumns.entries()) {
      const row = exitCodeRows.find((each) => each.code === code);
      expect(row, `a row for code ${code} in the table`).toBeDefined();
      const meaning = row === undefined ? undefined : exitCodeMeaning(row, command);
      const cell = cells?.[column + 1] ?? '';
      // An empty cell: the command never ends with that code, and its help leaves it out.
      expect(cell === '' ? undefined : wordsOf(cell), `${command}, code ${code}`).toEqual(
        meaning === undefined ? undefined : wordsOf(meaning),
      );
    }
  });

  it('the job commands that also exit 4, 5 or 6 are the ones the page names', () => {
    const sentence = /((?:`[^`]+`[, ]*(?:and )?)+)also exit 4, 5 or 6/.exec(page)?.[1] ?? '';
    const named = new Set([...sentence.matchAll(/`([^`]+)`/g)].map((match) => match[1]));
    for (const code of [4, 5, 6]) {
      const row = exitCodeRows.find((each) => each.code === code);
      const ending = jobCommands.filter((command) => row !== undefined && exitCodeMeaning(row, command) !== undefined);
      expect(ending, `code ${code}`).toEqual(jobCommands.filter((command) => named.has(command)));
    }
  });
});

describe('--help prints the exit codes from the table', () => {
  const helps: readonly (readonly [string, JobCommand | undefined])[] = [
    ['bulk-disputes', undefined],
    ...jobCommands.map((command) => [command, command] as const),
  ];

  it.each(helps)('%s --help: every code it can end with, in its words, within 100 columns', async (_name, command) => {
    const result = await runCli(command === undefined ? ['--help'] : [command, '--help']);
    expect(result.exitCode).toBe(0);
    const block = /\nExit codes \(docs\/exit-codes\.md\):\n((?: {2}\d {2}.*\n(?: {5}.*\n)*)+)/.exec(result.stdout)?.[1];
    expect(block, 'an "Exit codes" block').toBeDefined();
    const listed = (block ?? '').split(/\n(?= {2}\d)/).map((entry) => entry.trim());
    const expected = exitCodeRows.flatMap((row) => {
      const meaning = exitCodeMeaning(row, command);
      return meaning === undefined ? [] : [[row.code, wordsOf(meaning)] as const];
    });
    expect(listed.map((entry) => [Number(entry.slice(0, 1)), wordsOf(entry.slice(1))])).toEqual(expected);
    for (const line of (block ?? '').split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    // Said once: no sentence of its own beside the block.
    expect(result.stdout.match(/exit codes/gi)).toHaveLength(1);
  });

  it('track --help: 1 is something on the worklist, not rows not ok', async () => {
    const result = await runCli(['track', '--help']);
    expect(result.stdout).toContain('\n  1  something on the worklist\n');
    expect(result.stdout).not.toContain('some rows not ok');
  });

  it('no job command help says a refusal halves the claims in flight or pauses the whole job', async () => {
    for (const command of jobCommands) {
      const { stdout } = await runCli([command, '--help']);
      expect(stdout, command).not.toMatch(/halve|pauses the whole job/i);
    }
  });
});
