import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Journal } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';
import { passesLuhn } from '../../src/card-numbers/networks.js';
import { genericHeader, rowCells, type ExtraColumn } from '../../test/import/generate.js';
import { genericMappingFile } from './paths.js';

/**
 * The stage benchmark's "detection off": mappings/generic.yaml with every column of the export in
 * `not_card_numbers`, so that the import reads no cell for card numbers. A switch no user has (a
 * mapping names only the columns whose numbers merely look like card numbers, docs/mappings.md),
 * made here for the bench alone, on the same build as "on".
 */
export async function writeDetectionOffMapping(file: string): Promise<void> {
  const generic = await readFile(genericMappingFile, 'utf8');
  const everyColumn = [...genericHeader, cardNumberColumn.name].map((column) => JSON.stringify(column)).join(', ');
  await writeFile(
    file,
    `${generic.trimEnd()}\n\n# The stage benchmark's "detection off": no column is read for card numbers.\n` +
      `not_card_numbers: [${everyColumn}]\n`,
  );
}

/**
 * The column the detection row's export adds, as an issuer's export carries it (the French
 * `Numéro de carte`): a full card number on every row, in groups, in a column no field reads.
 * A Visa number unique to the row (its claim and transaction), with its Luhn check digit.
 */
export const cardNumberColumn: ExtraColumn = {
  name: 'card_number',
  cellOf: ({ claim, transaction }) => {
    const body = `497010${String(claim).padStart(7, '0')}${String(transaction % 100).padStart(2, '0')}`;
    const digits = `${body}${checkDigit(body)}`;
    return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  },
};

function checkDigit(body: string): number {
  for (let digit = 0; digit <= 9; digit++) if (passesLuhn(`${body}${digit}`)) return digit;
  throw new Error(`no Luhn check digit for ${body}`);
}

/** A Visa test number in a cardholder's statement: what "on" masks and "off" must keep. */
const cardNumber = '4970 1010 0000 0012';

/**
 * Proves "off" is off before it is timed: one generated row whose statement holds a card number,
 * staged with each mapping, keeps the number with "off" and masks it with "on". Without this, a
 * build that accepted the key but still read every cell would show a ratio of 1 and pass.
 */
export async function expectDetectionOff(workDir: string, offMapping: string): Promise<void> {
  const csvFile = join(workDir, 'detection-check.csv');
  const spec = { claim: 1, transaction: 0 };
  const cells = rowCells(spec, Date.now());
  cells[genericHeader.indexOf('cardholder_statement')] = `card ${cardNumber} charged twice`;
  await writeFile(
    csvFile,
    `${[...genericHeader, cardNumberColumn.name].join(',')}\n${[...cells, cardNumberColumn.cellOf(spec)].join(',')}\n`,
  );
  const kept = async (mappingFile: string): Promise<boolean> => {
    const journalFile = join(workDir, 'detection-check.journal.sqlite');
    const journal = new Journal(journalFile);
    try {
      const mapping = parseMapping(await readFile(mappingFile, 'utf8'), mappingFile);
      await stageRows({ input: createReadStream(csvFile), mapping, journal });
      const source = journal.database.prepare('SELECT source FROM rows').pluck().get();
      return typeof source === 'string' && source.includes(cardNumber);
    } finally {
      journal.close();
      for (const suffix of ['', '-wal', '-shm']) await rm(`${journalFile}${suffix}`, { force: true });
    }
  };
  if (await kept(genericMappingFile))
    throw new Error(`stage, detection on: expected the card number in the statement masked, got it kept`);
  if (!(await kept(offMapping)))
    throw new Error(
      `stage, detection off (${offMapping}): expected the card number in the statement kept, got it masked ` +
        '(is not_card_numbers taken by the import?)',
    );
}
