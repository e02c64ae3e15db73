import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { pino } from 'pino';
import { expect, it, onTestFinished } from 'vitest';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { passesLuhn } from '../../src/card-numbers/networks.js';
import { runImport } from '../../src/import/run-import.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';

/**
 * An issuer's export with a full card number on every row (a column of its own, not mapped) and
 * one typed into a cardholder's statement (a mapped free-text field), imported into a sandbox on
 * a loopback port: no full card number in the results, the journal or what the service received;
 * the masked forms where the numbers were.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

function cardNumber(prefix: string, length: number, seed: number): string {
  const body = `${prefix}${String(seed).padStart(4, '0')}7359162840735916`.slice(0, length - 1);
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

async function exportWithCardNumbers(dir: string) {
  const rows: string[][] = parse(await readFile(join(root, 'samples/generic-export.csv'), 'utf8'));
  const [header = [], ...body] = rows;
  const prefixes: [string, number][] = [
    ['4970', 16],
    ['5105', 16],
    ['3782', 15],
    ['6011', 16],
  ];
  const numbers = body.map((_, index) => {
    const [prefix, length] = prefixes[index % prefixes.length] ?? ['4970', 16];
    return cardNumber(prefix, length, index);
  });
  const typed = cardNumber('4970', 16, 9999);
  const statement = header.indexOf('cardholder_statement');
  const key = header.indexOf('dispute_ref');
  const firstClaim = body[0]?.[key];
  const withNumbers = body.map((row, index) => {
    const cells = [...row, (numbers[index] ?? '').replace(/(\d{4})(?=\d)/g, '$1 ')];
    // The statement is the claim's: typed on every row of the first claim, as the rows must agree.
    if (row[key] === firstClaim)
      cells[statement] =
        `${cells[statement] ?? ''} Ma carte ${typed.replace(/(\d{4})(?=\d)/g, '$1-')} a été débitée deux fois.`;
    return cells;
  });
  const input = join(dir, 'export.csv');
  await writeFile(input, stringify([[...header, 'card_number'], ...withNumbers]));
  return { input, numbers: [...numbers, typed] };
}

function journalText(file: string): string {
  const database = new Database(file, { readonly: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables.map(({ name }) => JSON.stringify(database.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  } finally {
    database.close();
  }
}

it('an import keeps and sends no full card number: results, journal and the service hold the masked forms', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-card-numbers-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const { sandbox, client } = await startTestSandbox();
  const { input, numbers } = await exportWithCardNumbers(dir);
  const resultsFile = join(dir, 'results.csv');
  const journalFile = join(dir, 'journal.sqlite');
  const report = await runImport({
    input,
    mappingFile: join(root, 'mappings/generic.yaml'),
    resultsFile,
    journalFile,
    evidenceDir: join(root, 'samples/evidence'),
    concurrency: 4,
    dryRun: false,
    restart: false,
    service: { baseUrl: sandbox.url, apiKey: sandboxKey },
    logger: pino({ level: 'silent' }),
    progress: undefined,
  });
  expect(report.summary.rows).toBe(numbers.length - 1);

  const results = await readFile(resultsFile, 'utf8');
  const journal = journalText(journalFile);
  const claims = [];
  for await (const claim of client.claims.listAll())
    claims.push(JSON.stringify(await client.claims.retrieve(claim.claim_id)));
  const received = claims.join('\n');
  expect(claims.length).toBeGreaterThan(0);
  for (const digits of numbers) {
    for (const [where, text] of Object.entries({ results, journal, received })) {
      expect(text.replace(/[ -]/g, ''), `${where}: ${digits}`).not.toContain(digits);
    }
    expect(results).toContain(maskedForm(digits));
    expect(journal).toContain(maskedForm(digits));
  }
  // The one typed into a statement reached the service masked, in the same spot.
  const typed = numbers.at(-1) ?? '';
  expect(received).toContain(`Ma carte ${maskedForm(typed)} a été débitée deux fois.`);
  // Its rows' results lines say so, as a warning: the outcome is the one it would have been.
  const lines = parse<Record<string, string>>(results, { columns: true });
  const warned = lines.filter((line) => line.warnings !== '');
  expect(warned.length).toBeGreaterThan(0);
  for (const line of warned) {
    expect(line.warnings).toBe('card_number_masked: shared.issuer_evidence.cardholder_explanation');
    expect(line.outcome).toBe('filed');
  }
});

/** The card-number export's results in a dry run, through the generic mapping as `edit` changes it. */
async function dryRunResults(edit: (mapping: string) => string): Promise<Record<string, string>[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-card-numbers-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const { input } = await exportWithCardNumbers(dir);
  const mappingFile = join(dir, 'mapping.yaml');
  await writeFile(mappingFile, edit(await readFile(join(root, 'mappings/generic.yaml'), 'utf8')));
  const resultsFile = join(dir, 'results.csv');
  await runImport({
    input,
    mappingFile,
    resultsFile,
    journalFile: undefined,
    evidenceDir: join(root, 'samples/evidence'),
    concurrency: 4,
    dryRun: true,
    restart: false,
    service: undefined,
    logger: pino({ level: 'silent' }),
    progress: undefined,
  });
  return parse<Record<string, string>>(await readFile(resultsFile, 'utf8'), { columns: true });
}

it('a claim key made of a card number refuses its rows, naming the key', async () => {
  const lines = await dryRunResults((mapping) =>
    mapping.replace('key: [dispute_ref]', 'key: [card_number]').replace('id: { template: "CLM-{dispute_ref}" }', ''),
  );
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line.outcome).toBe('invalid');
    expect(line.error_code).toBe('card_number_in_key');
    expect(line.error_field).toBe('claim.key');
  }
});

it('a card number in an identifying field refuses its row, naming the field', async () => {
  const lines = await dryRunResults((mapping) =>
    mapping.replace(
      'case_id: { template: "{dispute_ref}-{transaction_ref}" }',
      'case_id: { template: "{dispute_ref}-{card_number}" }',
    ),
  );
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line.outcome).toBe('invalid');
    expect([line.error_code, line.error_field]).toEqual(['card_number_in_field', 'case.case_id']);
  }
});

it("a mapping's not_card_numbers column is kept as read; its other columns are masked as ever", async () => {
  const lines = await dryRunResults((mapping) => `${mapping}\nnot_card_numbers: [card_number]\n`);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line.card_number).toMatch(/^\d{4}( \d{3,4}){2,4}$/);
    expect(line.cardholder_statement).not.toMatch(/Ma carte \d{4}-/);
  }
});

it('a not_card_numbers name the header lacks stops the import before any row, naming the file, line and entry', async () => {
  await expect(dryRunResults((mapping) => `${mapping}\nnot_card_numbers: [card_number, "Card No"]\n`)).rejects.toThrow(
    /mapping\.yaml:\d+: not_card_numbers\[1\]: expected a column of the file, got "Card No"/,
  );
});
