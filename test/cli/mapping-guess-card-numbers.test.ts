import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { pino } from 'pino';
import { expect, it, onTestFinished } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { passesLuhn } from '../../src/card-numbers/networks.js';
import { runImport } from '../../src/import/run-import.js';
import { parseMapping } from '../../src/mapping/load.js';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

/**
 * An export with the full card number in place of its last four digits ("Numéro de carte", no
 * last-four column): `mapping guess` maps card.last4 from it with `last4: true` and no TODO, guess
 * and explain print no full card number, and the drafted mapping imports into a sandbox on a
 * loopback port, sending each card's last four digits and nothing more of it.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

function cardNumber(prefix: string, length: number, seed: number): string {
  const body = `${prefix}${String(seed).padStart(4, '0')}7359162840735916`.slice(0, length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

/** The generic sample with card_last4 replaced by the card's full number, in groups, one card per dispute. */
async function exportWithCardNumberColumn(dir: string): Promise<{ input: string; numbers: Map<string, string> }> {
  const rows: string[][] = parse(await readFile(join(root, 'samples/generic-export.csv'), 'utf8'));
  const [header = [], ...body] = rows;
  const last4 = header.indexOf('card_last4');
  const key = header.indexOf('dispute_ref');
  const reason = header.indexOf('reason_code');
  const numbers = new Map<string, string>();
  const prefixes: [string, number][] = [
    ['4970', 16],
    ['5105', 16],
    ['3782', 15],
    ['6011', 16],
  ];
  const withNumbers = body.map((row) => {
    const dispute = row[key] ?? '';
    if (!numbers.has(dispute)) {
      const [prefix, length] = prefixes[numbers.size % prefixes.length] ?? ['4970', 16];
      numbers.set(dispute, cardNumber(prefix, length, numbers.size));
    }
    const cells = [...row];
    cells[last4] = (numbers.get(dispute) ?? '').replace(/(\d{4})(?=\d)/g, '$1 ');
    // A reason code the draft maps without a person (the sample's "CNP" is one it leaves to a TODO).
    if (cells[reason] === 'CNP') cells[reason] = 'DUP';
    return cells;
  });
  header[last4] = 'Numéro de carte';
  const input = join(dir, 'export.csv');
  await writeFile(input, stringify([header, ...withNumbers]));
  return { input, numbers };
}

it('guess maps card.last4 from a card-number column; guess, explain and an import of its draft hold no full card number', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-guess-card-numbers-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const { input, numbers } = await exportWithCardNumberColumn(dir);
  const draftFile = join(dir, 'draft.yaml');

  const guessed = await runCli(['mapping', 'guess', input, '--out', draftFile]);
  expect(guessed.exitCode).toBe(0);
  const draft = await readFile(draftFile, 'utf8');
  expect(draft).toContain('card.last4: { column: "Numéro de carte", required: true, last4: true }');
  expect(draft).toContain('"Numéro de carte" holds card numbers (cardholder data)');
  expect(guessed.stderr).toContain('needs a person: nothing (no TODO)');
  expect(draft).not.toContain('# TODO:');
  expect(parseMapping(draft, draftFile).shared['card.last4']).toMatchObject({ column: 'Numéro de carte', last4: true });

  const explained = await runCli(['mapping', 'explain', draftFile, input, '--line', '2']);
  expect(explained.exitCode).toBe(0);
  expect(explained.stdout).toContain(`last4                 "${[...numbers.values()][0]?.slice(-4) ?? ''}"`);
  for (const [what, text] of Object.entries({ draft, guessed: guessed.stderr, explained: explained.stdout }))
    expect(findCardNumbers(text), what).toEqual([]);

  const { sandbox, client } = await startTestSandbox();
  const resultsFile = join(dir, 'results.csv');
  await runImport({
    input,
    mappingFile: draftFile,
    resultsFile,
    journalFile: join(dir, 'journal.sqlite'),
    evidenceDir: join(root, 'samples/evidence'),
    concurrency: 4,
    dryRun: false,
    restart: false,
    service: { baseUrl: sandbox.url, apiKey: sandboxKey },
    logger: pino({ level: 'silent' }),
    progress: undefined,
  });
  const results = parse<Record<string, string>>(await readFile(resultsFile, 'utf8'), { columns: true });
  expect(results.map((line) => line.outcome)).not.toContain('invalid');
  const received = [];
  for await (const claim of client.claims.listAll()) received.push(await client.claims.retrieve(claim.claim_id));
  expect(received).toHaveLength(numbers.size);
  // The service keeps the claim's card on each of its cases' transactions.
  const sentLastFour = received
    .map((claim) => (claim as unknown as { data: { cases: { transaction: { card: { last4: string } } }[] } }).data)
    .map((claim) => claim.cases[0]?.transaction.card.last4)
    .sort();
  expect(sentLastFour).toEqual([...numbers.values()].map((digits) => digits.slice(-4)).sort());
  const texts = { results: await readFile(resultsFile, 'utf8'), received: JSON.stringify(received) };
  for (const digits of numbers.values()) {
    for (const [where, text] of Object.entries(texts))
      expect(text.replace(/[ -]/g, ''), `${where}: ${digits}`).not.toContain(digits);
    expect(texts.results).toContain(maskedForm(digits));
  }
});
