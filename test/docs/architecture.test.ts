import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md holds the house's plan: the folders of src/ by floor. The plan and the code
 * must agree: every folder it names exists, every folder of src/ is on a floor, and no import
 * runs up a floor (a folder imports from its own floor's folders only when it is that folder).
 */

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
    for (const file of await sourceFiles()) {
      const from = folderOf(file);
      // The library's entry point exports from every floor.
      if (from === '') continue;
      const text = await readFile(file, 'utf8');
      for (const [, specifier = ''] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = normalize(join(dirname(file), specifier));
        const to = folderOf(target);
        if (to === from || to === '') continue;
        const fromFloor = floors.get(from) ?? Number.NaN;
        const toFloor = floors.get(to) ?? Number.NaN;
        if (!(toFloor < fromFloor))
          upward.push(
            `${relative(root, file)} (floor ${fromFloor}) imports ${specifier} (src/${to}, floor ${toFloor})`,
          );
      }
    }
    expect(upward).toEqual([]);
  });
});
