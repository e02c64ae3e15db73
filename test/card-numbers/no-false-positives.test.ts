import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { findCardNumbers } from '../../src/card-numbers/find.js';
import { oneToThreeRows, plannedRows, rowCells } from '../import/generate.js';
import { exponents, frenchLayout, germanLayout, spanishLayout, usLayout } from '../mapping/guess/layouts.js';
import { generateDisputes, renderExport, rowsOf } from '../mapping/guess/exports.js';

/**
 * No false positives: the project's samples, mappings and fixtures, and the exports the tests and
 * benchmarks generate (ARNs, amounts, dates, phone numbers, references and ids of every kind), hold
 * nothing the detector takes for a card number, so the import masks none of their cells.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

function* textFiles(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* textFiles(path);
    else if (/\.(csv|tsv|txt|json|ya?ml)$/i.test(name)) yield path;
  }
}

it("finds no card number in the project's samples, mappings and fixtures", () => {
  const files = ['samples', 'mappings', 'test/fixtures'].flatMap((folder) => [...textFiles(join(root, folder))]);
  expect(files.length).toBeGreaterThan(10);
  for (const file of files) expect(findCardNumbers(readFileSync(file, 'latin1')), file).toEqual([]);
});

it('finds no card number in 20,000 rows of the generated generic export', () => {
  let rows = 0;
  for (const spec of plannedRows({ rows: 20_000, sizeOf: oneToThreeRows, block: 50 })) {
    for (const cell of rowCells(spec, Date.UTC(2026, 10, 28))) expect(findCardNumbers(cell), cell).toEqual([]);
    rows++;
  }
  expect(rows).toBe(20_000);
});

it.each([
  ['German', germanLayout],
  ['US', usLayout],
  ['French', frenchLayout],
  ['Spanish', spanishLayout],
])('finds no card number in a generated %s export of 2,000 disputes', (_name, layout) => {
  const disputes = generateDisputes(2_000, ['EUR', 'USD', 'JPY', 'KWD'], (currency) => exponents[currency] ?? 2);
  const text = renderExport({ ...layout, encoding: 'utf-8', bom: false }, rowsOf(disputes)).toString('utf8');
  expect(text.split(layout.lineEnding).length).toBeGreaterThan(2_000);
  expect(findCardNumbers(text)).toEqual([]);
});
