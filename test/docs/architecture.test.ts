import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md holds the house's plan: the folders of src/ by floor. The plan and the code
 * must agree: every folder it names exists, every folder of src/ is on a floor, no import runs up
 * a floor (a folder imports from its own floor's folders only when it is that folder), no job
 * imports another job, and the block has as many floors as the code needs.
 */

/** The jobs: each stands on the rooms below it, never on another job ("How to add a job"). */
const jobs = new Set(['import', 'report', 'withdraw', 'track', 'review', 'migrate', 'export']);

/** Imports from one job into another that the plan allows: none (the CLI gives the review the import it feeds fixes to). */
const allowedAcrossJobs: readonly { from: string; to: string }[] = [];

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = await readFile(join(root, 'docs', 'architecture.md'), 'utf8');

/** The floors block: `floor N: a b c`, lowest first. */
function floorsOf(text: string): Map<string, number> {
  const block = /<!-- floors:[^>]*-->\s*```text\n([\s\S]*?)```/.exec(text)?.[1];
  if (block === undefined)
    throw new Error('docs/architecture.md: expected the floors block (<!-- floors … --> then ```text), got none');
  const floors = new Map<string, number>();
  for (const line of block.trim().split('\n')) {
    const match = /^floor (\d+): (.+)$/.exec(line.trim());
    if (match === null) throw new Error(`docs/architecture.md floors: expected "floor N: folder …", got "${line}"`);
    for (const folder of (match[2] ?? '').split(/\s+/)) floors.set(folder, Number(match[1]));
  }
  return floors;
}

/** The src/ folder a source file belongs to ('' for a file directly in src/). */
function folderOf(file: string): string {
  const [first, ...rest] = relative(join(root, 'src'), file).split('/');
  return rest.length === 0 ? '' : (first ?? '');
}

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(root, 'src'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every import from one folder of src/ into another: the importing file, its folder, the file and folder imported. */
async function folderImports(): Promise<
  { file: string; from: string; target: string; to: string; specifier: string }[]
> {
  const found = [];
  for (const file of await sourceFiles()) {
    const from = folderOf(file);
    // The library's entry point exports from every floor.
    if (from === '') continue;
    const text = await readFile(file, 'utf8');
    for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = normalize(join(dirname(file), specifier));
      const to = folderOf(target);
      if (to === from || to === '') continue;
      found.push({ file, from, target: relative(root, target).replace(/\.js$/, '.ts'), to, specifier });
    }
  }
  return found;
}

function allowedAcross(from: string, target: string): boolean {
  return allowedAcrossJobs.some((allowed) => allowed.from === from && allowed.to === target);
}

/** The most folders one chain of imports passes through (a chain of n imports passes through n + 1). */
function longestChain(edges: ReadonlyMap<string, ReadonlySet<string>>): number {
  const depth = new Map<string, number>();
  const visit = (folder: string, path: readonly string[]): number => {
    if (path.includes(folder)) throw new Error(`imports in a circle: ${[...path, folder].join(' -> ')}`);
    const known = depth.get(folder);
    if (known !== undefined) return known;
    let deepest = 0;
    for (const next of edges.get(folder) ?? []) deepest = Math.max(deepest, visit(next, [...path, folder]));
    depth.set(folder, deepest + 1);
    return deepest + 1;
  };
  return Math.max(...[...edges.keys()].map((folder) => visit(folder, [])));
}

describe('docs/architecture.md', () => {
  const floors = floorsOf(page);

  it('names only folders and files that exist', () => {
    for (const folder of floors.keys()) expect(existsSync(join(root, 'src', folder)), `src/${folder}`).toBe(true);
    const paths = [...page.matchAll(/\b(src\/[\w./-]*[\w-])/g)].map((match) => match[1] ?? '');
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths)
      expect(existsSync(join(root, path)) || existsSync(join(root, `${path}.ts`)), path).toBe(true);
  });

  it('puts every folder of src/ on a floor', async () => {
    const folders = (await readdir(join(root, 'src'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !floors.has(folder))).toEqual([]);
  });

  it('has no import that runs up a floor, or across one to another folder', async () => {
    const upward: string[] = [];
    for (const { file, from, target, to, specifier } of await folderImports()) {
      if (allowedAcross(from, target)) continue;
      const fromFloor = floors.get(from) ?? Number.NaN;
      const toFloor = floors.get(to) ?? Number.NaN;
      if (!(toFloor < fromFloor))
        upward.push(`${relative(root, file)} (floor ${fromFloor}) imports ${specifier} (src/${to}, floor ${toFloor})`);
    }
    expect(upward).toEqual([]);
  });

  it('has no job importing another job', async () => {
    const across = (await folderImports())
      .filter(({ from, to, target }) => jobs.has(from) && jobs.has(to) && !allowedAcross(from, target))
      .map(({ file, specifier }) => `${relative(root, file)} imports ${specifier}`);
    expect(across).toEqual([]);
    for (const job of jobs) expect(floors.has(job), `src/${job} on a floor`).toBe(true);
  });

  it('has as many floors as the longest chain of folder imports needs', async () => {
    const edges = new Map<string, Set<string>>();
    for (const folder of floors.keys()) edges.set(folder, new Set());
    for (const { from, to, target } of await folderImports())
      if (!allowedAcrossJobs.some((allowed) => allowed.to === target && allowed.to !== 'src/import/index.ts'))
        edges.get(from)?.add(to);
    expect(new Set(floors.values()).size).toBe(longestChain(edges));
  });
});
