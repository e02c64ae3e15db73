import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFailure, exitCodeFor } from '../../src/cli/exit-codes.js';
import { resourceFailure } from '../../src/files/resource-failure.js';

/** The words for each failure of the machine (the real failures: resource-failures.e2e.test.ts). */
const systemError = (code: string, fields: Record<string, string> = {}) =>
  Object.assign(new Error(`${code}: something, ${fields.syscall ?? 'write'}`), { code, ...fields });

describe('resource failures in words', () => {
  it('a full disk: the file, nothing lost, what to do; the code once, exit 3', () => {
    const failure = resourceFailure(
      systemError('ENOSPC', { syscall: 'write' }),
      join(process.cwd(), 'out', 'disputes.results.csv'),
      { resumes: true },
    );
    expect(failure?.message).toBe(
      'disk full writing out/disputes.results.csv: nothing was lost; free some space and run the same command again (it continues where it stopped)',
    );
    expect(describeFailure(failure)).toBe(`ENOSPC: ${failure?.message ?? ''}`);
    expect(exitCodeFor(failure)).toBe(3);
  });

  it('a raw error reaching the funnel is told by its own path; one naming no file says so', () => {
    expect(describeFailure(systemError('EROFS', { syscall: 'open', path: '/mnt/ro/x.csv' }))).toBe(
      'EROFS: read-only file system opening /mnt/ro/x.csv: nothing was lost; choose a path on a writable disk (or remount it writable) and run the same command again',
    );
    expect(describeFailure(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(
      'SQLITE_FULL: disk full writing a file (its name was not recorded): nothing was lost; free some space and run the same command again',
    );
  });

  it('permission denied: reading asks to let this user read it, writing to let it write to the folder', () => {
    expect(resourceFailure(systemError('EACCES', { syscall: 'read' }), '/data/in.csv')?.message).toContain(
      'permission denied reading /data/in.csv: nothing was lost; let this user read it and run',
    );
    expect(resourceFailure(systemError('EPERM', { syscall: 'open' }), '/data/out/x.csv')?.message).toContain(
      'let this user write to /data/out (or choose another path)',
    );
  });

  it('anything else is left as it is', () => {
    expect(resourceFailure(systemError('ECONNRESET'))).toBeUndefined();
    expect(resourceFailure(new Error('no code'))).toBeUndefined();
    expect(describeFailure(Object.assign(new Error('expected x, got y'), { code: 'USAGE' }))).toBe(
      'USAGE: expected x, got y',
    );
  });
});
