import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest directory above this module with a package.json. Found, not
 * counted in `../`, because the benchmarks run compiled from out/bench/bench/ (npm run bench).
 */
function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`repository root: expected a package.json above ${fileURLToPath(import.meta.url)}, got none`);
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRepoRoot();
/** The mapping every benchmark imports with. */
export const genericMappingFile = join(repoRoot, 'mappings/generic.yaml');
/** The built CLI (`npm run build`, which `npm run bench` runs first). */
export const builtCli = join(repoRoot, 'dist/cli/bin.js');
