import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A new folder under the system's temporary directory, removed when the calling test ends (pass or fail). */
export async function temporaryFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return folder;
}
