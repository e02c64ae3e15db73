import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { expect, it, onTestFinished } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { passesLuhn } from '../../src/card-numbers/networks.js';
import { parseMapping } from '../../src/mapping/load.js';
import { runCli } from '../helpers/cli.js';

/**
 * A bank's dispute report whose card column ("Account Number", a header no vocabulary knows) holds
 * card numbers as the bank masked them, in every form banks write: `mapping guess` drafts
 * card.last4 from it with `last4: true` and, with no network column, card.network from the first
 * digits; `import --dry-run` of the draft reads every form, every row once in the results, and
 * neither the journal nor the results hold more of a card than its first six and last four digits.
 */

/** A Luhn-valid card number; the seed in its last digits, so that each one's last four differ. */
function cardNumber(prefix: string, length: number, seed: number): string {
  const body = `${`${prefix}7359162840735916`.slice(0, length - 5)}${String(seed).padStart(4, '0')}`;
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

const bankMasked = (digits: string, mask: string) =>
  `${digits.slice(0, 6)}${mask.repeat(digits.length - 10)}${digits.slice(-4)}`;

/** The card forms of the report, one a dispute: what the cell holds, and the card behind it. */
const forms: readonly ((digits: string) => string)[] = [
  (digits) => bankMasked(digits, 'X'),
  (digits) => bankMasked(digits, 'x'),
  (digits) => bankMasked(digits, '#'),
  (digits) => bankMasked(digits, '•'),
  (digits) => bankMasked(digits, 'X').replace(/(.{4})(?=.)/g, '$1 '),
  (digits) => `XXX${digits.slice(-4)}`,
  (digits) => `•••• ${digits.slice(-4)}`,
  (digits) => `XXXX-XXXX-XXXX-${digits.slice(-4)}`,
  (digits) => `${'*'.repeat(12)}${digits.slice(-4)}`,
  // A whole number among them: the import masks it before anything is kept.
  (digits) => digits.replace(/(\d{4})(?=\d)/g, '$1 '),
];

interface Report {
  readonly input: string;
  /** Each dispute's card number, whole. */
  readonly cards: readonly string[];
  readonly rows: number;
}

/** Disputes of one to three identical rows, as banks' reports repeat them; `cell` writes each dispute's card. */
async function writeReport(
  dir: string,
  cell: (digits: string, dispute: number) => string,
  card: (dispute: number) => string,
  networkColumn: boolean,
): Promise<Report> {
  const header = [
    'Account Number',
    'Case Number',
    'Reason Code',
    ...(networkColumn ? ['Card Brand'] : []),
    'Currency',
    'Amount',
    'Transaction Date',
    'Acquirer Reference Number',
  ];
  const cards: string[] = [];
  const rows: string[][] = [];
  for (let dispute = 0; dispute < 20; dispute++) {
    const digits = card(dispute);
    cards.push(digits);
    const line = [
      cell(digits, dispute),
      `CB-2026-${String(dispute).padStart(5, '0')}`,
      'FR',
      ...(networkColumn ? [digits.startsWith('37') ? 'American Express' : 'MasterCard'] : []),
      'USD',
      `${dispute + 1}.50`,
      '2026-03-15',
      `55432863263204442${String(dispute).padStart(6, '0')}`,
    ];
    for (let copy = 0; copy <= dispute % 3; copy++) rows.push(line);
  }
  const input = join(dir, 'report.csv');
  await writeFile(input, stringify([header, ...rows], { record_delimiter: '\r\n' }));
  return { input, cards, rows: rows.length };
}

function tablesText(file: string): string {
  const database = new Database(file, { readonly: true });
  try {
    const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    return tables.map(({ name }) => JSON.stringify(database.prepare(`SELECT * FROM "${name}"`).all())).join('\n');
  } finally {
    database.close();
  }
}

function sharedOfClaims(file: string): { card: { last4: string; network: string } }[] {
  const database = new Database(file, { readonly: true });
  try {
    const rows = database.prepare('SELECT shared_json FROM claims ORDER BY first_idx').all() as {
      shared_json: string;
    }[];
    return rows.map((row) => JSON.parse(row.shared_json) as { card: { last4: string; network: string } });
  } finally {
    database.close();
  }
}

/** Guess the report, dry-run its draft; the draft, the results' lines, the journal's text and its claims' shared fields. */
async function guessAndDryRun(dir: string, report: Report) {
  const draftFile = join(dir, 'draft.yaml');
  const guessed = await runCli(['mapping', 'guess', report.input, '--out', draftFile]);
  expect(guessed.exitCode, guessed.stderr).toBe(0);
  expect(guessed.stderr).toContain('needs a person: nothing (no TODO)');
  const draft = await readFile(draftFile, 'utf8');
  const resultsFile = join(dir, 'results.csv');
  const journalFile = join(dir, 'journal.sqlite');
  const imported = await runCli([
    'import',
    report.input,
    '--mapping',
    draftFile,
    '--dry-run',
    // Created only: filing a fraud case asks for evidence this report does not carry.
    '--file-mode',
    'none',
    '--results',
    resultsFile,
    '--journal',
    journalFile,
  ]);
  expect(imported.exitCode, imported.stderr).toBe(0);
  const resultsText = await readFile(resultsFile, 'utf8');
  return {
    draft,
    guessed,
    imported,
    resultsText,
    results: parse<Record<string, string>>(resultsText, { columns: true, bom: true }),
    journal: tablesText(journalFile),
    claims: sharedOfClaims(journalFile),
  };
}

function holdsNoFullCardNumber(cards: readonly string[], texts: Readonly<Record<string, string>>): void {
  for (const [where, text] of Object.entries(texts)) {
    expect(findCardNumbers(text), where).toEqual([]);
    // Nothing between the first six and the last four, in any grouping.
    for (const digits of cards)
      expect(text.replace(/[ -]/g, ''), `${where}: ${digits}`).not.toContain(digits.slice(5, -3));
  }
}

it('every masked form in one column: guessed as the card, read by last4 in a dry run, nothing more kept', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-bank-masked-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const report = await writeReport(
    dir,
    (digits, dispute) => (forms[dispute % forms.length] ?? String)(digits),
    (dispute) => (dispute % 4 === 3 ? cardNumber('371511', 15, dispute) : cardNumber('546604', 16, dispute)),
    true,
  );
  const run = await guessAndDryRun(dir, report);
  expect(run.draft).toContain('card.last4: { column: "Account Number", required: true, last4: true }');
  const mapping = parseMapping(run.draft, 'draft.yaml');
  expect(mapping.claim.key).toEqual(['Case Number']);
  expect(mapping.shared['card.network']).toMatchObject({ column: 'Card Brand' });

  // Every input line once, none refused: every form read.
  expect(run.results).toHaveLength(report.rows);
  expect(run.results.map((line) => line.outcome)).not.toContain('invalid');
  expect(run.results.map((line) => line.warnings).filter((warning) => warning !== '')).toEqual([]);
  expect(run.claims.map((shared) => shared.card.last4)).toEqual(report.cards.map((digits) => digits.slice(-4)));
  expect(run.claims.map((shared) => shared.card.network)).toEqual(
    report.cards.map((digits) => (digits.startsWith('37') ? 'amex' : 'mastercard')),
  );
  holdsNoFullCardNumber(report.cards, {
    draft: run.draft,
    guess: run.guessed.stderr,
    results: run.resultsText,
    journal: run.journal,
  });
  // The bank's masked cells are kept as written; the whole one as the import masks it.
  const bankCells = report.cards.map((digits, dispute) => (forms[dispute % forms.length] ?? String)(digits));
  for (const [dispute, cell] of bankCells.entries()) {
    const kept = dispute % forms.length === forms.length - 1 ? maskedForm(report.cards[dispute] ?? '') : cell;
    expect(run.results.map((line) => line['Account Number'])).toContain(kept);
    expect(run.journal).toContain(JSON.stringify(kept).slice(1, -1));
  }
});

it('no network column: card.network from the masked numbers first digits, checked; the dry run sends each its network', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-bank-masked-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const report = await writeReport(
    dir,
    (digits) => bankMasked(digits, 'X'),
    (dispute) => (dispute % 4 === 3 ? cardNumber('371511', 15, dispute) : cardNumber('546604', 16, dispute)),
    false,
  );
  const run = await guessAndDryRun(dir, report);
  expect(run.draft).toContain(
    'card.network: { column: "Account Number", required: true, split: { separator: X, index: 0 }, enum: { "371511": amex, "546604": mastercard } }',
  );
  expect(run.guessed.stderr).toContain(
    'shared.card.network: card.network from the first digits of "Account Number": 20 sampled cards start ' +
      '546604 (15, 16 digits): mastercard; 371511 (5, 15 digits): amex',
  );
  expect(run.results).toHaveLength(report.rows);
  expect(run.results.map((line) => line.outcome)).not.toContain('invalid');
  expect(run.claims.map((shared) => shared.card)).toEqual(
    report.cards.map((digits) => ({
      last4: digits.slice(-4),
      network: digits.startsWith('37') ? 'amex' : 'mastercard',
    })),
  );
  holdsNoFullCardNumber(report.cards, { results: run.resultsText, journal: run.journal });
});
