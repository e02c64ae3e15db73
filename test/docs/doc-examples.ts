/**
 * The shell examples of the README and docs/, read as docs/README.md ("Examples that run") says:
 * every ```sh block is marked on the line before it, `<!-- example: run -->`,
 * `<!-- example: serve -->` or `<!-- example: not run: REASON -->`. A pure reading of the
 * Markdown; running them is examples.test.ts's.
 */

export type Marker = { kind: 'run' } | { kind: 'serve' } | { kind: 'not run'; reason: string };

export interface ExampleCommand {
  /** The line the command starts on, 1-based. */
  line: number;
  /** The command as the shell gets it: continuation lines joined. */
  text: string;
  /** From a trailing `# exit N` comment; 0 otherwise. */
  expectedExit: number;
  /** The `# ` lines right under the command: output it must print. */
  output: string[];
}

export interface Example {
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** Undefined: the block is not marked (a test failure). */
  marker: Marker | undefined;
  commands: ExampleCommand[];
}

const fenceOpen = /^(\s*)```sh\s*$/;
const fenceClose = /^\s*```\s*$/;
const markerLine = /^\s*<!-- example: (run|serve|not run: (.*\S)) -->\s*$/;
const exitComment = /#\s*exit (\d+)\b/;

function markerOf(line: string | undefined): Marker | undefined {
  const match = markerLine.exec(line ?? '');
  if (!match) return undefined;
  if (match[1] === 'run') return { kind: 'run' };
  if (match[1] === 'serve') return { kind: 'serve' };
  return { kind: 'not run', reason: match[2] ?? '' };
}

/** `#`, `# ...` and `# …` alone stand for output left out. */
function isElision(output: string): boolean {
  return ['', '...', '…'].includes(output.trim());
}

/** A block's lines (indentation removed) into commands, each with the output shown under it. */
export function commandsOf(lines: readonly string[], firstLine: number): ExampleCommand[] {
  const commands: ExampleCommand[] = [];
  let current: ExampleCommand | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index] ?? '';
    if (text.trim() === '') {
      // A blank line ends a command's output: a comment after it is only a comment.
      current = undefined;
      continue;
    }
    if (text.trimStart().startsWith('#')) {
      const output = text.trimStart().replace(/^#\s?/, '');
      if (current && !isElision(output)) current.output.push(output);
      continue;
    }
    const line = firstLine + index;
    let command = text;
    while (command.endsWith('\\') && index + 1 < lines.length) {
      index++;
      command = `${command.slice(0, -1)} ${(lines[index] ?? '').trim()}`;
    }
    const exit = exitComment.exec(command);
    current = { line, text: command.trim(), expectedExit: exit ? Number(exit[1]) : 0, output: [] };
    commands.push(current);
  }
  return commands;
}

/** Every ```sh block of one Markdown file, with its marker and commands. */
export function examplesOf(file: string, markdown: string): Example[] {
  const lines = markdown.split(/\r?\n/);
  const examples: Example[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = fenceOpen.exec(lines[index] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !fenceClose.test(lines[index] ?? ''); index++)
      body.push((lines[index] ?? '').slice(indent));
    examples.push({ file, line: start + 1, marker: markerOf(lines[start - 1]), commands: commandsOf(body, start + 2) });
  }
  return examples;
}

/** Whitespace runs as one space: the docs align columns by hand. */
export function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A shown output line as a whole-line pattern, `…` standing for anything. */
function patternOf(expected: string): RegExp {
  const parts = normalise(expected)
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/** The shown lines that no line of the output matches. */
export function missingLines(expected: readonly string[], output: string): string[] {
  const actual = output.split(/\r?\n/).map(normalise);
  return expected.filter((line) => {
    const pattern = patternOf(line);
    return !actual.some((candidate) => pattern.test(candidate));
  });
}
