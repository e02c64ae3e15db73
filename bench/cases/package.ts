import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { repoRoot } from '../support/paths.js';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';

/**
 * The installed package (docs/development.md, "What the package carries"): the tarball `npm pack`
 * writes, installed as docs/nightly-job.md's offline way does it (unpacked, `npm ci --omit=dev
 * --offline` from its npm-shrinkwrap.json), against the same tarball installed by
 * `npm install -g ./tarball`, which resolves the dependency ranges again from the registry.
 * Sizes are disk usage (`du`), as a host's disk counts them, in MiB.
 */

const run = promisify(execFile);
/**
 * The installed size before the package was looked at (`npm install -g` of its tarball,
 * swagger-ui-dist and its Scarf dependency carried, no shrinkwrap), measured with the same `du`
 * on 2026-11-28: 159 MiB.
 */
const sizeBefore = 159 * 1024 * 1024;

async function diskBytes(folder: string): Promise<number> {
  const { stdout } = await run('du', ['-sk', folder]);
  return Number(stdout.split('\t')[0]) * 1024;
}

/** Packages installed under a node_modules folder (scoped and nested ones included). */
async function packagesUnder(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter(
    (entry) =>
      entry.isFile() && entry.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/@.][^/]*$/.test(entry.parentPath),
  ).length;
}

/** The largest runtime dependencies of an installation, for the note. */
async function largest(folder: string, count: number): Promise<string> {
  const names = (await readdir(folder)).filter((name) => !name.startsWith('.'));
  const sized = await Promise.all(names.map(async (name) => [name, await diskBytes(join(folder, name))] as const));
  return sized
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${mb(bytes)}`)
    .join(', ');
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

export const benchCase: BenchCase = {
  name: 'package',
  async run(context: BenchContext): Promise<BenchRow[]> {
    const folder = join(context.workDir, 'package');
    await mkdir(folder, { recursive: true });
    // `npm run bench` has just built dist/: packed as it is.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
      cwd: repoRoot,
    });
    const [{ filename, size, unpackedSize, entryCount }] = JSON.parse(packed.stdout) as [
      { filename: string; size: number; unpackedSize: number; entryCount: number },
    ];
    const tarball = join(folder, filename);
    const cache = (await run('npm', ['config', 'get', 'cache'], { cwd: repoRoot })).stdout.trim();
    const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];

    context.log('package: installing the tarball offline from its shrinkwrap');
    const pinned = join(folder, 'opt', 'bulk-disputes');
    await mkdir(pinned, { recursive: true });
    const offline = await timed(async () => {
      await run('tar', ['xzf', tarball, '-C', pinned, '--strip-components', '1']);
      await run('npm', ['ci', '--omit=dev', '--offline', '--cache', cache, ...quiet], { cwd: pinned });
    });
    const pinnedBytes = await diskBytes(pinned);
    const pinnedPackages = await packagesUnder(join(pinned, 'node_modules'));
    const manifest = JSON.parse(await readFile(join(pinned, 'package.json'), 'utf8')) as { version: string };

    context.log('package: installing the tarball with npm install -g (ranges resolved again, online)');
    const global = join(folder, 'global');
    let baseline: { bytes: number; packages: number; seconds: number } | undefined;
    let baselineError = '';
    try {
      const installed = await timed(async () => run('npm', ['install', '-g', '--prefix', global, ...quiet, tarball]));
      const at = join(global, 'lib', 'node_modules', 'bulk-disputes');
      baseline = {
        bytes: await diskBytes(at),
        packages: await packagesUnder(join(at, 'node_modules')),
        seconds: installed.seconds,
      };
    } catch (error) {
      baselineError = (error as Error).message.split('\n')[0] ?? '';
    }

    const note = [
      `bulk-disputes ${manifest.version}: tarball ${mb(size)} (${entryCount} files, ${mb(unpackedSize)} unpacked)`,
      `shrinkwrap install: ${pinnedPackages} packages in ${offline.seconds.toFixed(1)} s from the npm cache, no network; the package's own files ${mb(unpackedSize)}`,
      `largest: ${await largest(join(pinned, 'node_modules'), 5)}`,
      baseline === undefined
        ? `npm install -g not measured: ${baselineError}`
        : `npm install -g: ${baseline.packages} packages in ${baseline.seconds.toFixed(1)} s`,
      `before: ${mb(sizeBefore)} installed (swagger-ui-dist and @scarf/scarf carried, no shrinkwrap)`,
    ].join('; ');
    return [
      {
        benchmark: 'Installed package: disk usage',
        figure: `${mb(pinnedBytes)} (shrinkwrap, offline)`,
        baseline:
          baseline === undefined
            ? 'npm install -g ./tarball: not measured'
            : `npm install -g ./tarball: ${mb(baseline.bytes)}`,
        ratio: baseline === undefined ? Number.NaN : pinnedBytes / baseline.bytes,
        goal: `smaller than before (${mb(sizeBefore)}); the ratio, shrinkwrap ÷ ranges resolved again, has no goal`,
        met: pinnedBytes < sizeBefore,
        note,
      },
    ];
  },
};
