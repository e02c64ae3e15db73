import { chmodSync, lstatSync, mkdirSync, readlinkSync, unlinkSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SandboxDatabase } from './database.js';
import { blobStored } from './records.js';
import { contentBytes, type FileContent } from '../files/file-content.js';
import { NotOwnFileError, temporaryFlags } from '../../files/own-file.js';

/**
 * Where uploaded contents live, content-addressed by sha256 (one copy however many uploads).
 *
 * A sandbox on disk keeps them as files in a folder beside its database (`<db>.blobs/`): in
 * SQLite, each 1-4 MB content was written twice (the WAL, then the checkpoint) inside the commit
 * every reply waits for, half the evidence upload's time (measured: 62 MB/s with it, 124 MB/s
 * without). The `blobs` table keeps a row per content either way (file records refer to it); its
 * `bytes` are the content for an in-memory sandbox and empty for one on disk.
 */
export interface BlobStore {
  /**
   * Stores the content unless the database already has its `blobs` row; resolves, once it is
   * written, to the bytes for that row.
   */
  put(database: SandboxDatabase, sha256: string, content: FileContent): Promise<Buffer>;
  /** Forgets the contents no file record names (the reset control route); call in a transaction. */
  prune(database: SandboxDatabase): void;
}

/** The blob folder of a database file; none for `:memory:`. */
export function blobStoreFor(databasePath: string): BlobStore {
  return databasePath === ':memory:' ? inTable : inFolder(`${databasePath}.blobs`);
}

const orphansQuery = 'DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM files) RETURNING sha256';

const inTable: BlobStore = {
  put: async (_database, _sha256, content) => contentBytes(content),
  prune: (database) => {
    database.prepare(orphansQuery).run();
  },
};

function inFolder(folder: string): BlobStore {
  ownFolder(folder);
  const pathOf = (sha256: string) => join(folder, sha256);
  return {
    async put(database, sha256, content) {
      const path = pathOf(sha256);
      // Asked of the database, not the folder: a stat of a name not there waits for the folder's
      // lock while other uploads are created and renamed in it (180 µs of the main thread each
      // during a night, against 11 µs alone). A file left by a crash before its row is committed
      // is written again, whole, and renamed over itself.
      if (!blobStored(database, sha256)) {
        // Written whole under another name, then renamed: a crash never leaves half a content.
        const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writePieces(temporary, content.pieces);
          await rename(temporary, path);
        } catch (error) {
          await rm(temporary, { force: true });
          throw error;
        }
      }
      return Buffer.alloc(0);
    },
    prune(database) {
      for (const { sha256 } of database.prepare(orphansQuery).all() as { sha256: string }[]) unlinkSync(pathOf(sha256));
    },
  };
}

/**
 * The blob folder, owner-only (the evidence it keeps names cardholders): made 0700, or made so when
 * it exists with another mode; a link standing at its name is refused (docs/data.md), never followed.
 */
function ownFolder(folder: string): void {
  if (lstatSync(folder, { throwIfNoEntry: false }) === undefined) mkdirSync(folder, { recursive: true, mode: 0o700 });
  const found = lstatSync(folder);
  if (found.isSymbolicLink()) throw new NotOwnFileError(folder, { link: readlinkSync(folder) });
  if (!found.isDirectory()) throw new NotOwnFileError(folder, { kind: 'something that is not a folder' });
  if ((found.mode & 0o777) !== 0o700) chmodSync(folder, 0o700);
}

/** The pieces one after another into a new file, with one `writev` (no copy into one buffer first). */
async function writePieces(file: string, pieces: readonly Buffer[]): Promise<void> {
  const handle = await open(file, temporaryFlags, 0o600);
  try {
    await handle.writev([...pieces]);
  } finally {
    await handle.close();
  }
}
