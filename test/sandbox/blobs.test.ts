import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    const kept = await blobs.put(database, 'aa', fileContent([Buffer.from('o'), Buffer.from('n'), Buffer.from('e')]));
    expect(kept.length).toBe(0);
    insertFile(database, file('aa', 'file_1'), kept);
    insertFile(database, file('bb', 'file_2'), await blobs.put(database, 'bb', fileContent([Buffer.from('two')])));
    expect(readFileSync(join(`${db}.blobs`, 'aa'), 'utf8')).toBe('one');
    database.prepare("DELETE FROM files WHERE file_id = 'file_2'").run();
    blobs.prune(database);
    expect([existsSync(join(`${db}.blobs`, 'aa')), existsSync(join(`${db}.blobs`, 'bb'))]).toEqual([true, false]);
    expect(database.prepare('SELECT sha256 FROM blobs').all()).toEqual([{ sha256: 'aa' }]);
    database.close();
  });

  it('writes a content whose row is committed once, and writes again whole one a crash left without its row', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'blobs-'));
    onTestFinished(async () => rm(directory, { recursive: true, force: true }));
    const db = join(directory, 'sandbox.db');
    const database = openDatabase(db);
    onTestFinished(() => {
      database.close();
    });
    const blobs = blobStoreFor(db);
    const path = join(`${db}.blobs`, 'aa');
    // Left by a crash after its rename, before its row was committed (other bytes here, to tell).
    writeFileSync(path, 'o');
    insertFile(database, file('aa', 'file_1'), await blobs.put(database, 'aa', fileContent([Buffer.from('one')])));
    expect(readFileSync(path, 'utf8')).toBe('one');
    // Its row there, the same hash again is not written: these bytes would show if it were.
    await blobs.put(database, 'aa', fileContent([Buffer.from('other')]));
    expect(readFileSync(path, 'utf8')).toBe('one');
    expect(readdirSync(`${db}.blobs`)).toEqual(['aa']);
  });

  it("keeps an in-memory database's contents in its blobs table", async () => {
    const database = openDatabase(':memory:');
    const blobs = blobStoreFor(':memory:');
    insertFile(
      database,
      file('aa', 'file_1'),
      await blobs.put(database, 'aa', fileContent([Buffer.from('o'), Buffer.from('n'), Buffer.from('e')])),
    );
    expect((database.prepare('SELECT bytes FROM blobs').get() as { bytes: Buffer }).bytes.toString()).toBe('one');
    database.close();
  });
});
