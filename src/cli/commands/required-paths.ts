import { stat } from 'node:fs/promises';
import { UsageError } from '../exit-codes.js';

/** The paths a command reads, checked before anything else happens: a usage error (exit 2) names the one missing. */

export async function requireFile(path: string, what: string, expected: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isFile() !== true)
    throw new UsageError(
      `${what} ${path}: expected ${expected}, got ${found === undefined ? 'nothing there' : 'something else'}`,
    );
}

export async function requireDirectory(path: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory() !== true)
    throw new UsageError(
      `--evidence-dir ${path}: expected a directory, got ${found === undefined ? 'nothing there' : 'a file'}`,
    );
}
