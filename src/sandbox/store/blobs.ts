import { mkdirSync, unlinkSync } from 'node:fs';
import { access, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { SandboxDatabase } from './database.js';

/**
 * Where uploaded contents live, content-addressed by sha256 (one copy however many uploads).
 *
 * A sandbox on disk keeps them as files in a folder beside its database (`<db>.blobs/`): in
 * SQLite, each 1-4 MB content was written twice (the WAL, then the checkpoint) inside the commit
 * every reply waits for, half the evidence upload's time (issue 12: 62 MB/s, 124 MB/s without).
 * The `blobs` table keeps a row per content either way (file records refer to it); its `bytes`
 * are the content for an in-memory sandbox and empty for one on disk.
 */
export interface BlobStore {
  /** Stores the content once; resolves, once it is written, to the bytes for its `blobs` row. */
  put(sha256: string, bytes: Buffer): Promise<Buffer>;
  /** Forgets the contents no file record names (the reset control route); call in a transaction. */
  prune(database: SandboxDatabase): void;
}

/** The blob folder of a database file; none for `:memory:`. */
export function blobStoreFor(databasePath: string): BlobStore {
  return databasePath === ':memory:' ? inTable : inFolder(`${databasePath}.blobs`);
}

const orphansQuery = 'DELETE FROM blobs WHERE sha256 NOT IN (SELECT sha256 FROM files) RETURNING sha256';

const inTable: BlobStore = {
  put: async (_sha256, bytes) => bytes,
  prune: (database) => {
    database.prepare(orphansQuery).run();
  },
};

function inFolder(folder: string): BlobStore {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const pathOf = (sha256: string) => join(folder, sha256);
  return {
    async put(sha256, bytes) {
      const path = pathOf(sha256);
      const stored = await access(path).then(
        () => true,
        () => false,
      );
      if (!stored) {
        // Written whole under another name, then renamed: a crash never leaves half a content.
        const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(temporary, bytes, { mode: 0o600 });
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
