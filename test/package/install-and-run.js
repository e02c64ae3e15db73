// Runs inside a network namespace of its own when the test can make one (installed.test.ts). The
// packed tarball installed as docs/nightly-job.md's offline way does it: unpacked into its
// folder, its runtime dependencies installed by `npm ci --omit=dev --offline` from the exact tree
// its npm-shrinkwrap.json names (their tarballs from the npm cache `npm ci` filled, nothing from
// the network), the command linked into a fresh prefix; then the installed tool run as a user
// runs it. Prints one JSON report on stdout; the test judges it.
//   node install-and-run.js <tarball> <prefix> <work folder> <npm cache>
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

const [tarball, prefix, work, cache] = process.argv.slice(2);
const bin = join(prefix, 'bin', 'bulk-disputes');
const installed = join(work, 'opt', 'bulk-disputes');
const offline = ['--offline', '--cache', cache, '--no-audit', '--no-fund'];

/** A command's exit code and output, in a bare environment that names no proxy. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? work,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        npm_config_update_notifier: 'false',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    if (options.until !== undefined) {
      child.stdout.on('data', () => {
        if (options.until.test(stdout)) resolve({ child, stdout, stderr });
      });
    }
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

const report = { installed };
await mkdir(installed, { recursive: true });
const steps = [
  ['tar', ['xzf', tarball, '-C', installed, '--strip-components', '1']],
  ['npm', ['ci', '--omit=dev', ...offline], { cwd: installed }],
  ['npm', ['install', '-g', '--prefix', prefix, ...offline, installed]],
];
report.install = { code: 0, stderr: '', ms: 0 };
for (const [command, args, options] of steps) {
  const step = await run(command, args, options);
  report.install = {
    code: step.code,
    stderr: `${report.install.stderr}${step.stderr}`,
    ms: report.install.ms + step.ms,
  };
  if (step.code !== 0) break;
}
if (report.install.code === 0) {
  const version = await run(bin, ['--version']);
  report.version = version.stdout.trim();
  report.help = (await run(bin, ['--help'])).stdout;
  const imported = await run(bin, [
    'import',
    join(installed, 'samples', 'generic-export.csv'),
    '--mapping',
    join(installed, 'mappings', 'generic.yaml'),
    '--evidence-dir',
    join(installed, 'samples', 'evidence'),
  ]);
  report.import = { code: imported.code, stdout: imported.stdout, stderr: imported.stderr };
  const sandbox = await run(bin, ['sandbox', '--port', '0', '--db', join(work, 'served.db'), '--log-format', 'json'], {
    until: /API reference: (\S+)/,
  });
  const docs = /API reference: (\S+)/.exec(sandbox.stdout)?.[1];
  report.served = {};
  if (docs !== undefined) {
    const origin = new URL(docs).origin;
    const page = await fetch(docs);
    const html = await page.text();
    report.served['/docs'] = page.status;
    // Every file the page loads, as a browser would ask for it.
    for (const [, asset] of html.matchAll(/(?:href|src)="([^"]+)"/g))
      report.served[asset] = (await fetch(new URL(asset, origin))).status;
    const document = await fetch(`${origin}/openapi.json`);
    report.served['/openapi.json'] = document.status;
    report.openapiTitle = (await document.json()).info?.title;
  }
  sandbox.child?.kill('SIGTERM');
}
process.stdout.write(`${JSON.stringify(report)}\n`);
