import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fieldSpecSchema } from '../../src/mapping/field-spec.js';
import { fieldSteps } from '../../src/mapping/steps/index.js';
import { compareStep, neverFails, stepCases, type Seen } from '../mapping/steps/step-cases.js';

/**
 * docs/architecture.md holds the house's plan: the folders of src/ by floor. The plan and the code
 * must agree: every folder it names exists, every folder of src/ is on a floor, no import runs up
 * a floor (a folder imports from its own floor's folders only when it is that folder), no job
 * imports another job, and the block has as many floors as the code needs.
 */

/** The jobs: each stands on the rooms below it, never on another job ("How to add a job"). */
const jobs = new Set(['import', 'report', 'withdraw', 'track', 'review', 'migrate', 'export']);

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

/** Every import from one source file of src/ to another (within a folder too), by file. */
async function fileImports(): Promise<Map<string, Set<string>>> {
  const edges = new Map<string, Set<string>>();
  for (const file of await sourceFiles()) {
    const text = await readFile(file, 'utf8');
    const targets = new Set<string>();
    for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
      targets.add(normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts'));
    edges.set(file, targets);
  }
  return edges;
}

/** The circles of a graph: its strongly connected parts of more than one node (Tarjan's). */
function circlesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      part.push(top);
      if (top === node) break;
    }
    if (part.length > 1) circles.push(part);
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return circles;
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
    for (const { file, from, to, specifier } of await folderImports()) {
      const fromFloor = floors.get(from) ?? Number.NaN;
      const toFloor = floors.get(to) ?? Number.NaN;
      if (!(toFloor < fromFloor))
        upward.push(`${relative(root, file)} (floor ${fromFloor}) imports ${specifier} (src/${to}, floor ${toFloor})`);
    }
    expect(upward).toEqual([]);
  });

  it('has no job importing another job', async () => {
    const across = (await folderImports())
      .filter(({ from, to }) => jobs.has(from) && jobs.has(to))
      .map(({ file, specifier }) => `${relative(root, file)} imports ${specifier}`);
    expect(across).toEqual([]);
    for (const job of jobs) expect(floors.has(job), `src/${job} on a floor`).toBe(true);
  });

  it('has as many floors as the longest chain of folder imports needs', async () => {
    const edges = new Map<string, Set<string>>();
    for (const folder of floors.keys()) edges.set(folder, new Set());
    for (const { from, to } of await folderImports()) edges.get(from)?.add(to);
    expect(new Set(floors.values()).size).toBe(longestChain(edges));
  });

  it('has no circle of imports among its files, within a folder or across', async () => {
    const circles = circlesOf(await fileImports()).map((part) => part.map((file) => relative(root, file)).join(' -> '));
    expect(circles).toEqual([]);
  });
});

describe("the step table's interpreter and generator agree on every step", () => {
  it('has a case for every step of the table, and no case for a step it lacks', () => {
    expect(Object.keys(stepCases).sort()).toStrictEqual(fieldSteps.map((step) => step.name).sort());
  });

  it.each(fieldSteps.map((step) => [step.name, step] as const))('%s', (name, step) => {
    const total: Seen = { ok: 0, failed: 0 };
    for (const stepCase of stepCases[name]) {
      // Each case is about its step: the step applies to its spec.
      expect(step.applies(fieldSpecSchema.parse(stepCase.spec)), JSON.stringify(stepCase.spec)).toBe(true);
      const seen = compareStep(name, stepCase);
      total.ok += seen.ok;
      total.failed += seen.failed;
    }
    // Seen running (mapping explain's trace): giving a value, and failing where the step can.
    expect(total.ok).toBeGreaterThan(0);
    if (!neverFails.has(name)) expect(total.failed).toBeGreaterThan(0);
  });
});
