import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { promisify } from 'node:util';
import { onTestFinished } from 'vitest';

/**
 * LibreOffice Calc, headless (Debian's libreoffice-calc-nogui; .ci/run installs it): opens a file
 * and saves it as another, as a person's spreadsheet would. CI must have it; elsewhere the tests
 * that need it are skipped.
 */
export const soffice = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((path) => existsSync(path));
export const sofficeRequired = process.env.CI === 'true';

/** Opens `file` and saves it as `format` (`csv`, `xlsx`) in `outDir`; returns the saved file. */
export async function saveAsWithSoffice(file: string, format: 'csv' | 'xlsx', outDir: string): Promise<string> {
  if (soffice === undefined) throw new Error('test: soffice is not installed (apt-get install libreoffice-calc-nogui)');
  // A profile of its own: two instances sharing one would wait for each other, or fail.
  const profile = await mkdtemp(join(tmpdir(), 'soffice-profile-'));
  onTestFinished(async () => rm(profile, { recursive: true, force: true }));
  const filter = format === 'xlsx' ? 'xlsx:Calc MS Excel 2007 XML' : 'csv';
  await promisify(execFile)(
    soffice,
    [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', filter, '--outdir', outDir, file],
    { timeout: 120_000 },
  );
  return join(outDir, `${basename(file, extname(file))}.${format}`);
}
