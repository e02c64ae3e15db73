import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a bank installs it (docs/development.md, "What the package carries"): packed,
 * installed offline (unpacked, its exact runtime tree from the npm cache, the command linked into
 * a fresh prefix), in a network namespace with nothing beyond loopback when this machine can make
 * one; then the installed tool run as a user runs it:
 * its version, its help, the packaged sample imported into the embedded sandbox, and the sandbox
 * serving its OpenAPI document and its /docs page.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const driver = fileURLToPath(new URL('install-and-run.js', import.meta.url));
const run = promisify(execFile);

interface Report {
  installed: string;
  install: { code: number; stderr: string; ms: number };
  version?: string;
  help?: string;
  import?: { code: number; stdout: string; stderr: string };
  served?: Record<string, number>;
  openapiTitle?: string;
}

/** A namespace of our own with only loopback, when the kernel lets an unprivileged user make one. */
const isolated = spawnSync('unshare', ['-rn', 'ip', 'link', 'set', 'lo', 'up']).status === 0;

let folder = '';
let prefix = '';
let installed = '';
let report: Report;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-package-'));
  prefix = join(folder, 'prefix');
  // `npm test` built dist/ just before: packed as it is (the pack of a release builds first).
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], { cwd: root });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  // The cache `npm ci` filled: every dependency is there, nothing else may be fetched.
  const cache = (await run('npm', ['config', 'get', 'cache'], { cwd: root })).stdout.trim();
  const args = [driver, join(folder, filename), prefix, folder, cache];
  const child = isolated
    ? spawn('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...args], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  await new Promise((done) => child.on('close', done));
  report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Report;
  installed = report.installed;
}, 300_000);

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true });
});

describe(`the packed tarball, installed offline${isolated ? ' in a namespace with no network' : ' (no namespace on this machine: npm --offline)'}`, () => {
  it('installs from the cache alone and runs no install script', () => {
    expect(report.install.code, report.install.stderr).toBe(0);
    expect(report.install.stderr).not.toMatch(/install-scripts|scarf/i);
  });

  it('carries no package that has an install script, no Scarf, and no source map', async () => {
    const withScripts: string[] = [];
    for (const manifest of await manifestsUnder(join(installed, 'node_modules'))) {
      const {
        name,
        scripts = {},
        gypfile,
      } = JSON.parse(await readFile(manifest, 'utf8')) as {
        name: string;
        scripts?: Record<string, string>;
        gypfile?: boolean;
      };
      const implicitBuild =
        gypfile !== false &&
        existsSync(join(dirname(manifest), 'binding.gyp')) &&
        scripts.install === undefined &&
        scripts.preinstall === undefined;
      if (['preinstall', 'install', 'postinstall'].some((hook) => scripts[hook] !== undefined) || implicitBuild)
        withScripts.push(name);
    }
    expect(withScripts).toEqual([]);
    expect(existsSync(join(installed, 'node_modules', '@scarf'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'swagger-ui-dist'))).toBe(false);
    expect((await filesUnder(join(installed, 'dist'))).filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  it('says its version, and its help names where the sample mappings, samples and docs are', async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(report.version).toBe(version);
    expect(report.help).toContain(`Shipped with it (${installed})`);
    expect(report.help).toContain(`--mapping ${join(installed, 'mappings', 'generic.yaml')}`);
    expect(existsSync(join(installed, 'mappings', 'generic.yaml'))).toBe(true);
  });

  it('carries the alert rules a Prometheus loads from it (docs/monitoring.md)', () => {
    expect(existsSync(join(installed, 'monitoring', 'bulk-disputes-rules.yml'))).toBe(true);
  });

  it('imports the packaged sample into the embedded sandbox: 10 of 10 filed', async () => {
    expect(report.import?.code, report.import?.stderr).toBe(0);
    expect(report.import?.stderr).toContain('"outcomes":{"filed":10}');
    const results = parse<Record<string, string>>(
      await readFile(join(folder, 'generic-export.sandbox.results.csv'), 'utf8'),
      { columns: true },
    );
    expect(results.map((line) => line.outcome)).toEqual(Array.from({ length: 10 }, () => 'filed'));
  });

  it('serves /openapi.json and /docs with every file the page loads', () => {
    expect(report.openapiTitle).toMatch(/Claims Service/);
    expect(Object.keys(report.served ?? {}).length).toBeGreaterThan(3);
    for (const [path, status] of Object.entries(report.served ?? {})) expect(status, path).toBe(200);
  });

  it('holds every page the README and docs/ link to', async () => {
    const pages = [
      'README.md',
      ...(await readdir(join(installed, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
    ];
    const dead: string[] = [];
    for (const page of pages) {
      const text = await readFile(join(installed, page), 'utf8');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
        const path = decodeURIComponent(target.split('#')[0] ?? '');
        if (!existsSync(resolve(installed, dirname(page), path))) dead.push(`${page} → ${target}`);
      }
    }
    expect(dead.join('\n')).toBe('');
  });
});

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Every installed package's manifest (scoped ones included; nested node_modules too). */
async function manifestsUnder(folder: string): Promise<string[]> {
  const files = await filesUnder(folder);
  return files.filter(
    (file) => file.endsWith('/package.json') && /node_modules\/(@[^/]+\/)?[^/@][^/]*\/package\.json$/.test(file),
  );
}
