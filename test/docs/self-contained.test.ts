import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The repository stands on its own (docs/decisions/0001-record-decisions.md): no comment and no
 * doc points at something its reader cannot open, an issue of the tracker or a design note kept
 * outside the repository. Comments are read from the syntax tree, so a string (an error message,
 * a contract) is never taken for one; Markdown is read whole.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));

/** What a reader of the repository cannot open, with how to say it instead. */
const outside: readonly { pattern: RegExp; what: string; besideIt?: string }[] = [
  { pattern: /\b[Ii]ssues?[ \t]+#?\d+/, what: 'an issue number: say the reason in words, or name a page of docs/' },
  { pattern: /\b[Ii]ssue-\d+/, what: 'an issue number: say the reason in words, or name a page of docs/' },
  // In docs/, `architecture.md` is the page beside it.
  {
    pattern: /(?<![\w/])architecture\.md/,
    what: 'a design note outside the repository: docs/architecture.md is the one inside',
    besideIt: 'docs/',
  },
  { pattern: /\barchitecture, "/, what: 'a section of a design note outside the repository: say the rule in words' },
  { pattern: /\bstyle\.md\b/, what: 'a design note outside the repository: say the habit in words' },
  {
    pattern: /\bservice-notes\b/,
    what: 'a design note outside the repository: docs/interface.md holds what we read of the service',
  },
  {
    pattern: /claims-service-interface\.md/,
    what: "the interface document's file outside the repository: docs/interface.md",
  },
  { pattern: /\.\.\/shared\/|\/work\/(?:shared|\.library)\b/, what: 'a path outside the repository' },
];

const sourceFolders = ['src', 'test', 'bench', 'scripts'];
const docFiles = ['README.md', 'BENCHMARKS.md', 'mappings/README.md', 'samples/README.md'];

async function filesUnder(folder: string, ending: RegExp): Promise<string[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && ending.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every comment of a TypeScript or JavaScript file, with the line it starts on. */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const seen = new Set<number>();
  const found: { line: number; text: string }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      found.push({
        line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
        text: text.slice(range.pos, range.end),
      });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.getFullStart()));
  return found;
}

function problemsIn(file: string, pieces: readonly { line: number; text: string }[]): string[] {
  const problems: string[] = [];
  for (const piece of pieces) {
    for (const { pattern, what, besideIt } of outside) {
      if (besideIt !== undefined && file.startsWith(besideIt)) continue;
      const match = pattern.exec(piece.text);
      if (match === null) continue;
      const line = piece.line + piece.text.slice(0, match.index).split('\n').length - 1;
      problems.push(`${file}:${line}: "${match[0]}": ${what}`);
    }
  }
  return problems;
}

describe('the repository stands on its own', () => {
  it('has no issue number and no path outside the repository in a comment of src/, test/, bench/ or scripts/', async () => {
    const files = (await Promise.all(sourceFolders.map(async (folder) => filesUnder(folder, /\.(ts|js|mjs)$/))))
      .flat()
      .filter((file) => file !== self);
    expect(files.length).toBeGreaterThan(500);
    const problems: string[] = [];
    for (const file of files) {
      const text = await readFile(join(root, file), 'utf8');
      problems.push(...problemsIn(file, commentsOf(file, text)));
    }
    expect(problems.join('\n')).toBe('');
  });

  it('names only pages of docs/ that exist, in the comments that send their reader there', async () => {
    const files = (await Promise.all(sourceFolders.map(async (folder) => filesUnder(folder, /\.(ts|js|mjs)$/)))).flat();
    const dead: string[] = [];
    let named = 0;
    for (const file of files) {
      for (const comment of commentsOf(file, await readFile(join(root, file), 'utf8'))) {
        for (const [page = ''] of comment.text.matchAll(/\bdocs\/[\w/.-]*\.md\b/g)) {
          named += 1;
          if (!existsSync(join(root, page))) dead.push(`${file}:${comment.line}: ${page}`);
        }
      }
    }
    expect(named).toBeGreaterThan(50);
    expect(dead.join('\n')).toBe('');
  });

  it("has none in docs/, the README, BENCHMARKS.md or the folders' READMEs", async () => {
    const files = [...docFiles, ...(await filesUnder('docs', /\.md$/))];
    const problems: string[] = [];
    for (const file of files)
      problems.push(...problemsIn(file, [{ line: 1, text: await readFile(join(root, file), 'utf8') }]));
    expect(problems.join('\n')).toBe('');
  });

  it('finds what it looks for (the check is not blind)', () => {
    const comments = commentsOf(
      'probe.ts',
      "const message = 'issue 12 in a string is code';\n// see issue 12\n/* architecture.md, style.md */\nexport {};\n",
    );
    expect(problemsIn('probe.ts', comments)).toEqual([
      'probe.ts:2: "issue 12": an issue number: say the reason in words, or name a page of docs/',
      'probe.ts:3: "architecture.md": a design note outside the repository: docs/architecture.md is the one inside',
      'probe.ts:3: "style.md": a design note outside the repository: say the habit in words',
    ]);
  });
});
