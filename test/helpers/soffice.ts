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

/**
 * How often a conversion is tried. LibreOffice now and then aborts while it starts on a loaded
 * machine ("terminate called after throwing an instance of 'com::sun::star::uno::RuntimeException'",
 * "Unspecified Application Error"), and the same command then succeeds: only that abort is tried
 * again, with a fresh profile; any other failure counts at once.
 */
const attempts = 3;
const startupAbort = /Unspecified Application Error|terminate called after throwing/;

/** Opens `file` and saves it as `format` (`csv`, `xlsx`) in `outDir`; returns the saved file. */
export async function saveAsWithSoffice(file: string, format: 'csv' | 'xlsx', outDir: string): Promise<string> {
  if (soffice === undefined) throw new Error('test: soffice is not installed (apt-get install libreoffice-calc-nogui)');
  const filter = format === 'xlsx' ? 'xlsx:Calc MS Excel 2007 XML' : 'csv';
  for (let attempt = 1; ; attempt++) {
    // A profile of its own, fresh for each attempt: two instances sharing one would wait for each
    // other, or fail, and an aborted start may leave its profile half made.
    const profile = await mkdtemp(join(tmpdir(), 'soffice-profile-'));
    onTestFinished(async () => rm(profile, { recursive: true, force: true }));
    try {
      await promisify(execFile)(
        soffice,
        [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', filter, '--outdir', outDir, file],
        { timeout: 120_000 },
      );
      return join(outDir, `${basename(file, extname(file))}.${format}`);
    } catch (error) {
      const stderr = (error as { stderr?: unknown }).stderr;
      if (attempt >= attempts || typeof stderr !== 'string' || !startupAbort.test(stderr)) throw error;
      console.warn(`test: soffice aborted while starting (attempt ${attempt} of ${attempts}); trying again`);
    }
  }
}
