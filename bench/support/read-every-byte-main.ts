import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The prune case's baseline, run as a child process like the prune it is compared with: every
 * regular file under DIRECTORY read once to its end, in 1 MiB reads into one buffer (touching the
 * data once, and nothing more). Prints `{"files":N,"bytes":N}`.
 *
 *   node read-every-byte-main.js DIRECTORY
 */

const directory = process.argv[2] ?? '';
if (directory === '') throw new Error('read every byte: expected "DIRECTORY", got no argument');

const buffer = Buffer.alloc(1 << 20);
let files = 0;
let bytes = 0;
const entries = await readdir(directory, { recursive: true, withFileTypes: true });
for (const entry of entries) {
  if (!entry.isFile()) continue;
  const handle = await open(join(entry.parentPath, entry.name), 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      bytes += bytesRead;
    }
  } finally {
    await handle.close();
  }
  files++;
}
process.stdout.write(`${JSON.stringify({ files, bytes })}\n`);
