import { exitCodeMeaning, exitCodeRows, type JobCommand } from './exit-code-table.js';

/** The help is read in a terminal of 100 columns; a longer meaning goes on under itself. */
const helpColumns = 100;
const indent = '  ';
/** The number, then two spaces, as the help's other lists line up. */
const meaningIndent = `${indent}0  `.length;

/**
 * The "Exit codes:" block of a help, from the one table (exit-code-table.ts): the program's help
 * gives every code's shared meaning; a job command's, the codes it can end with, in its own words.
 */
export function exitCodeHelp(command?: JobCommand): string {
  const lines = exitCodeRows.flatMap((row) => {
    const meaning = exitCodeMeaning(row, command);
    return meaning === undefined ? [] : wrap(`${indent}${row.code}  `, meaning);
  });
  return ['Exit codes (docs/exit-codes.md):', ...lines].join('\n');
}

/** Words onto lines of at most helpColumns, the first after the number, the rest under the first word. */
function wrap(first: string, text: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > helpColumns) {
      lines.push(line);
      line = ' '.repeat(meaningIndent);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}
