import { closeSync, fstatSync, readSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { finished, pipeline } from 'node:stream/promises';
import { namingFile, resourceFailure } from '../files/resource-failure.js';
import { createTemporaryStream, expectOwnPath, openOwnFile, temporaryBeside } from '../files/own-file.js';
import type { ClaimBody } from './claim/body.js';

/** `--payloads`: each body sent, one JSON line each; a failure to write stops the run, naming the file. */
export interface PayloadsFile {
  write: (body: ClaimBody) => Promise<void>;
  /** Ends the file and moves it into place, whether the run finished or stopped early. */
  close: () => Promise<void>;
}

/**
 * The payloads are written as results are (docs/data.md): to a file of their own beside `file`,
 * `<file>.partial` (0600, created exclusively, never through a link), renamed to `file` when the
 * run ends, finished or stopped, so a reader never sees half of it. A resumed job starts the new
 * file with the bodies written before (the lines whole: a run killed mid-line leaves half a last
 * one), read without following a link: from a `.partial` a killed run left (it holds those and
 * the ones that run wrote since), else from `file`. A run killed while copying leaves the file it
 * copied from as it was (and a `.tmp` beside it); the next run copies again.
 */
export async function openPayloads(file: string | undefined, resuming: boolean): Promise<PayloadsFile | undefined> {
  if (file === undefined) return undefined;
  const partial = `${file}.partial`;
  const leftover = resuming ? expectOwnPath(partial) : undefined;
  const source = resuming ? (leftover === undefined ? file : partial) : undefined;
  let sourceFd = source !== undefined && expectOwnPath(source) !== undefined ? openOwnFile(source, 'read') : undefined;
  const temporary = temporaryBeside(file);
  const stream = createTemporaryStream(temporary);
  let failed: Error | undefined;
  stream.on('error', (error) => {
    failed ??= resourceFailure(error, file, { resumes: true }) ?? error;
  });
  try {
    await once(stream, 'open');
    if (sourceFd !== undefined) {
      const fd = sourceFd;
      const end = wholeLinesEnd(fd);
      // The read stream closes the descriptor; without `end: false` it would end the stream the new bodies go to.
      sourceFd = undefined;
      if (end > 0) await pipeline(createReadStream('', { fd, start: 0, end: end - 1 }), stream, { end: false });
      else closeSync(fd);
    }
    // In place only now: a `.partial` left by a killed run is replaced by one that holds it.
    await rename(temporary, partial);
  } catch (error) {
    if (sourceFd !== undefined) closeSync(sourceFd);
    stream.destroy();
    await rm(temporary, { force: true });
    throw resourceFailure(error, file, { resumes: true }) ?? error;
  }
  return {
    write: async (body) => {
      if (failed !== undefined) throw failed;
      if (!stream.write(`${JSON.stringify(body)}\n`)) await once(stream, 'drain');
    },
    close: async () => {
      stream.end();
      await finished(stream).catch(namingFile(file, { resumes: true }));
      await rename(partial, file).catch(namingFile(file, { resumes: true }));
    },
  };
}

/** Where the file's last whole line ends (after its last newline): a half line after it is left out. */
function wholeLinesEnd(fd: number): number {
  const size = fstatSync(fd).size;
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; end -= chunk.length) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
  }
  return 0;
}
