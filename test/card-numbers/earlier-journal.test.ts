import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { expect, it, onTestFinished } from 'vitest';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { runImport, type ImportRequest } from '../../src/import/run-import.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

/**
 * A journal staged by a version that kept card numbers as read, resumed by this one: the run masks
 * its rows in place before it sends anything, so neither the service nor the results get them.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const pan = '4970101000000012';

class StopAfterStaging extends Error {}

it('a journal staged before card numbers were masked is masked in place when a run resumes it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-earlier-journal-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const { sandbox, client } = await startTestSandbox();
  const logged: string[] = [];
  const logs = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const options: ImportRequest = {
    input: join(root, 'samples/generic-export.csv'),
    mappingFile: join(root, 'mappings/generic.yaml'),
    resultsFile: join(dir, 'results.csv'),
    journalFile: join(dir, 'journal.sqlite'),
    evidenceDir: join(root, 'samples/evidence'),
    concurrency: 4,
    dryRun: false,
    restart: false,
    service: { baseUrl: sandbox.url, apiKey: sandboxKey },
    logger: pino({ level: 'warn' }, logs),
    progress: undefined,
  };
  await expect(
    runImport({
      ...options,
      onStaged: () => {
        throw new StopAfterStaging();
      },
    }),
  ).rejects.toThrow(StopAfterStaging);

  // What an earlier version staged: the card number typed into the first claim's statement, as read.
  const database = new Database(options.journalFile ?? '');
  const claim = database.prepare('SELECT claim_key, shared_json FROM claims ORDER BY first_idx LIMIT 1').get() as {
    claim_key: string;
    shared_json: string;
  };
  const shared = JSON.parse(claim.shared_json) as { issuer_evidence: { cardholder_explanation?: string } };
  shared.issuer_evidence.cardholder_explanation = `Ma carte ${pan} a été débitée deux fois.`;
  database
    .prepare('UPDATE claims SET shared_json = ? WHERE claim_key = ?')
    .run(JSON.stringify(shared), claim.claim_key);
  database.prepare('UPDATE rows SET source = ? WHERE claim_key = ?').run(JSON.stringify([pan]), claim.claim_key);
  database.prepare("DELETE FROM meta WHERE key = 'card_numbers_masked'").run();
  database.close();

  await runImport(options);

  const received = [];
  for await (const listed of client.claims.listAll())
    received.push(JSON.stringify(await client.claims.retrieve(listed.claim_id)));
  const journal = new Database(options.journalFile ?? '', { readonly: true });
  const journalRows = JSON.stringify(journal.prepare('SELECT source FROM rows').all());
  const journalClaims = JSON.stringify(journal.prepare('SELECT shared_json FROM claims').all());
  journal.close();
  const results = await readFile(options.resultsFile, 'utf8');
  for (const [where, text] of Object.entries({ received: received.join('\n'), journalRows, journalClaims, results })) {
    expect(text, where).not.toContain(pan);
    expect(text, where).toContain(maskedForm(pan));
  }
  expect(logged.join('')).toContain('rows masked in place before sending');
  // Nor is the text it replaced left in the file's free pages or its write-ahead log.
  for (const file of await readdir(dir))
    if (file.startsWith('journal.sqlite')) expect((await readFile(join(dir, file))).includes(pan), file).toBe(false);
});
