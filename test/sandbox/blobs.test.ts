import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fileContent } from '../../src/sandbox/files/file-content.js';
import { blobStoreFor } from '../../src/sandbox/store/blobs.js';
import { openDatabase } from '../../src/sandbox/store/database.js';
import { insertFile } from '../../src/sandbox/store/records.js';

/** Uploaded contents: files beside a database on disk, the blobs table for an in-memory one. */

const file = (sha256: string, fileId: string) => ({
  environment: 'sandbox' as const,
  file_id: fileId,
  category: 'transaction_receipt',
  type: 'image/png',
  sha256,
  size: 3,
  page_count: null,
  created: '2026-11-20T00:00:00.000Z',
});

describe('blob stores', () => {
  it("keeps a database file's contents in a folder beside it, once per hash, and prunes the ones no file names", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'blobs-'));
    onTestFinished(async () => rm(directory, { recursive: true, force: true }));
    const db = join(directory, 'sandbox.db');
    const database = openDatabase(db);
    const blobs = blobStoreFor(db);
    const kept = await blobs.put('aa', fileContent([Buffer.from('o'), Buffer.from('n'), Buffer.from('e')]));
    expect(kept.length).toBe(0);
    insertFile(database, file('aa', 'file_1'), kept);
    insertFile(database, file('bb', 'file_2'), await blobs.put('bb', fileContent([Buffer.from('two')])));
    expect(readFileSync(join(`${db}.blobs`, 'aa'), 'utf8')).toBe('one');
    database.prepare("DELETE FROM files WHERE file_id = 'file_2'").run();
    blobs.prune(database);
    expect([existsSync(join(`${db}.blobs`, 'aa')), existsSync(join(`${db}.blobs`, 'bb'))]).toEqual([true, false]);
    expect(database.prepare('SELECT sha256 FROM blobs').all()).toEqual([{ sha256: 'aa' }]);
    database.close();
  });

  it("keeps an in-memory database's contents in its blobs table", async () => {
    const database = openDatabase(':memory:');
    const blobs = blobStoreFor(':memory:');
    insertFile(
      database,
      file('aa', 'file_1'),
      await blobs.put('aa', fileContent([Buffer.from('o'), Buffer.from('n'), Buffer.from('e')])),
    );
    expect((database.prepare('SELECT bytes FROM blobs').get() as { bytes: Buffer }).bytes.toString()).toBe('one');
    database.close();
  });
});
