import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { csvDialectSchema } from '../../src/csv/dialect.js';
import { readRows } from '../../src/csv/read-rows.js';
import { compileMapping, mapCells } from '../../src/mapping/compile/index.js';
import { fieldSpecSchema } from '../../src/mapping/field-spec.js';
import { loadMapping } from '../../src/mapping/load.js';
import { mapRow } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { genericHeader, oneToThreeRows, plannedRows, rowCells } from '../import/generate.js';

/**
 * The compiled mapping with the shipped mappings over their samples, each sample row also with
 * every cell in turn blanked or spoiled; the generated export the benchmarks stage; and a mapping
 * written to break out of generated code. The property test covers random mappings.
 */

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

async function sample(
  mappingFile: string,
  csvFile: string,
): Promise<{ mapping: Mapping; header: readonly string[]; rows: (readonly string[])[] }> {
  const mapping = await loadMapping(root(mappingFile));
  let header: readonly string[] = [];
  const rows: (readonly string[])[] = [];
  for await (const row of readRows(createReadStream(root(csvFile)), mapping.csv, {
    onHeader: (names) => (header = names),
  })) {
    if ('error' in row) throw new Error(`${csvFile}:${row.line}: expected a readable record, got ${row.error.message}`);
    rows.push(row.raw);
  }
  return { mapping, header, rows };
}

function cellsOf(header: readonly string[], raw: readonly string[]): Record<string, string> {
  return Object.fromEntries(header.map((column, position) => [column, raw[position] ?? '']));
}

/** Each row, and each row with one cell replaced by each spoiler in turn. */
function* withSpoiledCells(rows: readonly (readonly string[])[]): Generator<readonly string[]> {
  const spoilers = ['', '  ', 'junk', '=1+2', '1.5E+22', '46021', '-1', '07'];
  for (const raw of rows) {
    yield raw;
    for (let position = 0; position < raw.length; position++) {
      for (const spoiler of spoilers) yield raw.map((cell, other) => (other === position ? spoiler : cell));
    }
  }
}

describe('the compiled mapping over the shipped mappings', () => {
  it.each([
    ['generic', 'mappings/generic.yaml', 'samples/generic-export.csv'],
    ['v1-cases', 'mappings/v1-cases.yaml', 'samples/v1-cases.csv'],
  ])("gives mapRow's answer for every row of %s and every spoiled cell", async (_name, mappingFile, csvFile) => {
    const { mapping, header, rows } = await sample(mappingFile, csvFile);
    const compiled = compileMapping(mapping, header);
    let compared = 0;
    let failed = 0;
    for (const raw of withSpoiledCells(rows)) {
      const expected = mapRow(cellsOf(header, raw), mapping);
      const got = compiled.map(raw);
      expect(got).toStrictEqual(expected);
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
      compared++;
      if (!got.ok) failed++;
    }
    // The samples all map; the spoiled copies give many errors.
    expect(rows.every((raw) => compiled.map(raw).ok)).toBe(true);
    expect(failed).toBeGreaterThan(compared / 10);
  });

  it("gives mapRow's answer for the generated export the stage benchmark reads", async () => {
    const mapping = await loadMapping(root('mappings/generic.yaml'));
    const compiled = compileMapping(mapping, genericHeader);
    const nowMs = Date.parse('2026-11-20T12:00:00Z');
    for (const spec of plannedRows({ rows: 2000, sizeOf: oneToThreeRows, block: 50 })) {
      const raw = rowCells(spec, nowMs);
      expect(compiled.map(raw)).toStrictEqual(mapRow(cellsOf(genericHeader, raw), mapping));
    }
  });

  it("maps a header-keyed cells object (the review page's) as mapRow does", async () => {
    const { mapping, header, rows } = await sample('mappings/generic.yaml', 'samples/generic-export.csv');
    for (const raw of rows)
      expect(mapCells(cellsOf(header, raw), mapping)).toStrictEqual(mapRow(cellsOf(header, raw), mapping));
  });
});

describe('compileMapping', () => {
  const mapping: Mapping = {
    csv: csvDialectSchema.parse({}),
    claim: { key: ['"); throw 1; ("'], id: undefined, id_prefix: undefined },
    shared: {
      'card.last4': fieldSpecSchema.parse({
        template: '`${process.exit(9)}`{*/ ]) }; throw 2; //}',
        default: '"); throw 3; //',
      }),
    },
    case: { 'transaction.arn': fieldSpecSchema.parse({ column: '\\"; throw 4; "', enum: { "'); throw 5; //": 'x' } }) },
    custom_fields: { '"]; throw 6; x["': fieldSpecSchema.parse({ constant: '\u2028"); throw 7; //' }) },
    evidence: [{ column: '</script>`', category: 'other', separator: '"+"' }],
    file_mode: 'auto',
  };

  it("never runs mapping or cell text as code, and still gives mapRow's answer", () => {
    const header = ['"); throw 1; ("', '*/ ]) }; throw 2; //', '\\"; throw 4; "', '</script>`'];
    const compiled = compileMapping(mapping, header);
    for (const raw of [
      ['k', '1234', "'); throw 5; //", 'a"+"b'],
      ['${1}', '', '"', ''],
    ]) {
      expect(compiled.map(raw)).toStrictEqual(mapRow(cellsOf(header, raw), mapping));
    }
  });

  it('is made once per mapping and header', () => {
    const header = ['"); throw 1; ("'];
    expect(compileMapping(mapping, header)).toBe(compileMapping(mapping, [...header]));
    expect(compileMapping(mapping, header)).not.toBe(compileMapping(mapping, [...header, 'other']));
  });
});
