import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The HTML report is checked in headless Chromium (Debian's `chromium`). On CI, running as root
 * where apt-get exists, a missing Chromium is installed before the tests; anywhere else nothing is
 * installed and test/report/html-dom.test.ts skips with a message.
 */
export default function installChromium(): void {
  if (onPath('chromium') || onPath('chromium-browser')) return;
  if (process.env.CI !== 'true' || process.getuid?.() !== 0 || !onPath('apt-get')) return;
  console.warn('test setup: installing Debian chromium for the HTML report test (CI only)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { env, stdio: 'ignore', timeout: 600_000 });
    if (result.status !== 0) {
      console.warn(
        `test setup: apt-get ${args.join(' ')} failed (${String(result.status ?? result.signal)}); the HTML report test will be skipped`,
      );
      return;
    }
  }
}

function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
