import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../src/withdraw/sources.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';
import { editedMapping, readResults as readResultsFile } from '../import/e2e-fixtures.js';
import { exportIn, germanUtf8 } from '../import/dialects.js';
import { claimsOf, created, importNight, night, nightSetup, refusal } from './source-fixtures.js';

/**
 * What `withdraw` reads from a results file of ours (CSV in the dialect it was written
 * in, or a workbook), from a plain list of ids, and what it refuses. Told apart by content.
 */

describe('withdraw sources: results files of ours', () => {
  it(
    'a results CSV names the claims and cases of its lines; lines of claims never created are told, not taken',
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { results } = await importNight(setup, 'night');

      const read = await readSources([results], {});
      expect(claimsOf(read)).toEqual(created);
      expect(read.targets.every((target) => target.proof === undefined)).toBe(true);
      expect(read.kinds).toEqual(['results']);
      expect(read.services).toEqual([]);
      expect(read.csvDialect).toEqual({
        delimiter: ',',
        quote: '"',
        encoding: 'utf-8',
        lineEnding: '\n',
        byteOrderMark: false,
      });
      expect(read.skipped.map((item) => [item.line, item.reason.split(':')[0]])).toEqual([
        [6, 'outcome invalid'],
        [7, 'outcome rejected'],
      ]);
      expect(read.skipped[1]?.reason).toContain('claim_key_taken');

      const narrowed = await readSources([results], { outcomes: ['not_filed'], claimKeys: ['WIN', 'DUP', 'GOOD'] });
      expect(claimsOf(narrowed)).toEqual([
        ['CLM-DUP', 'DUP', ['DUP-T1']],
        ['CLM-WIN', 'WIN', ['WIN-T2']],
      ]);
      // Lines the filters left out are not "skipped": only lines asked for that name nothing are told.
      expect(narrowed).toMatchObject({ skipped: [], unmatchedClaimKeys: [] });
      const taken = await readSources([results], { claimKeys: ['TAKEN'] });
      expect(taken).toMatchObject({ targets: [], unmatchedClaimKeys: ['TAKEN'] });
      expect(taken.skipped.map((item) => item.line)).toEqual([7]);

      // Filtered by a person: every line kept is meant, the header kept too.
      const text = await readFile(results, 'utf8');
      const lines = text.split('\n');
      const kept = join(setup.workspace.dir, 'kept.csv');
      await writeFile(kept, [lines[0], lines[4]].join('\n'));
      expect(claimsOf(await readSources([kept], {}))).toEqual([['CLM-WIN', 'WIN', ['WIN-T2']]]);
    },
  );

  it(
    "a results file cut down in a spreadsheet (columns dropped and moved) still skips the claims never created; with its journal, the journal's proof",
    { timeout: 60_000 },
    async () => {
      const setup = await nightSetup();
      const { journal, results } = await importNight(setup, 'night');
      const { rows } = await readResultsFile(results);
      const cut = join(setup.workspace.dir, 'cut.csv');
      await writeFile(
        cut,
        stringify(
          rows.map((row) => [row.outcome, row.case_id, row.claim_id, row.claim_key]),
          { header: true, columns: ['Outcome', 'Case ID', 'Claim ID', 'Claim Key'] },
        ),
      );

      const read = await readSources([cut], {});
      expect(read.kinds).toEqual(['list']);
      expect(claimsOf(read)).toEqual(created);
      expect(read.skipped.map((item) => [item.line, item.reason.split(':')[0]])).toEqual([
        [6, 'outcome invalid'],
        [7, 'outcome rejected'],
      ]);
      expect(claimsOf(await readSources([cut], { outcomes: ['filed'], claimKeys: ['WIN'] }))).toEqual([
        ['CLM-WIN', 'WIN', ['WIN-T1']],
      ]);

      const both = await readSources([cut, journal], {});
      expect(claimsOf(both)).toEqual(created);
      expect(both.targets.map((target) => target.proof?.kind)).toEqual(['import', 'import', 'import', 'import']);
      expect(both.kinds).toEqual(['list', 'import-journal']);
    },
  );

  it(
    'a results CSV in the input\'s own dialect (";", CRLF, UTF-8 with BOM) reads, and its dialect is the one to write in',
    { timeout: 90_000 },
    async () => {
      const setup = await nightSetup();
      const input = await setup.workspace.write('night-de.csv', exportIn(germanUtf8, night));
      const mapping = await editedMapping(setup.workspace, (edited) => {
        (edited.csv as unknown as Record<string, unknown>).delimiter = ';';
      });
      const { results } = await importNight(setup, 'night-de', { input, mapping });
      expect((await readFile(results)).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));

      const read = await readSources([results], {});
      expect(claimsOf(read)).toEqual(created);
      expect(read.csvDialect).toEqual({
        delimiter: ';',
        quote: '"',
        encoding: 'utf-8',
        lineEnding: '\r\n',
        byteOrderMark: true,
      });
      expect(read.skipped).toHaveLength(2);
    },
  );

  it('the results as a workbook (import --results x.xlsx) read as the CSV does', { timeout: 60_000 }, async () => {
    const setup = await nightSetup();
    const { results } = await importNight(setup, 'night', { results: 'night.results.xlsx' });

    const read = await readSources([results], {});
    expect(claimsOf(read)).toEqual(created);
    expect(read).toMatchObject({ kinds: ['results'], workbook: true });
    expect(read.csvDialect).toBeUndefined();
    expect(read.skipped.map((item) => [item.line, item.reason.split(':')[0]])).toEqual([
      [6, 'outcome invalid'],
      [7, 'outcome rejected'],
    ]);
    expect(claimsOf(await readSources([results], { outcomes: ['filed'], claimKeys: ['WIN'] }))).toEqual([
      ['CLM-WIN', 'WIN', ['WIN-T1']],
    ]);
  });
});

describe('withdraw sources: plain lists', () => {
  it('a case_id column names cases alone (the run finds their claims); a claim_id column, claims; blanks are told', async () => {
    const folder = await temporaryFolder('bulk-disputes-withdraw-');
    const cases = join(folder, 'cases.csv');
    await writeFile(
      cases,
      'merchant;Case ID\r\nVoltmart;WIN-T2\r\nVoltmart;\r\nBookshop;GOOD-T1\r\nBookshop;WIN-T2\r\n',
    );
    const read = await readSources([cases], {});
    expect(read.targets).toEqual([
      { claimId: '', claimKey: '', caseIds: ['WIN-T2'] },
      { claimId: '', claimKey: '', caseIds: ['GOOD-T1'] },
    ]);
    expect(read.kinds).toEqual(['list']);
    expect(read.csvDialect).toEqual({
      delimiter: ';',
      quote: '"',
      encoding: 'utf-8',
      lineEnding: '\r\n',
      byteOrderMark: false,
    });
    expect(read.skipped).toEqual([{ file: cases, line: 3, reason: 'expected a case id, got a blank cell' }]);

    const claims = join(folder, 'claims.csv');
    await writeFile(claims, 'claim_id\nCLM-1\n1.23457E+11\nCLM-2\nCLM-1\n');
    const both = await readSources([claims, cases], {});
    expect(claimsOf(both)).toEqual([
      ['CLM-1', '', []],
      ['CLM-2', '', []],
      ['', '', ['WIN-T2']],
      ['', '', ['GOOD-T1']],
    ]);
    expect(both.skipped[0]).toMatchObject({ file: claims, line: 3 });
    expect(both.skipped[0]?.reason).toContain('scientific notation');
  });

  it('--column names another header: claim ids, or case ids when its name says case', async () => {
    const folder = await temporaryFolder('bulk-disputes-withdraw-');
    const list = join(folder, 'from-ledger.csv');
    await writeFile(list, 'Ledger Ref,Dispute Case,amount\nCLM-7,C-70,1.00\nCLM-8,C-80,2.00\n');
    expect(claimsOf(await readSources([list], { column: 'ledger ref' }))).toEqual([
      ['CLM-7', '', []],
      ['CLM-8', '', []],
    ]);
    expect(claimsOf(await readSources([list], { column: 'Dispute Case' }))).toEqual([
      ['', '', ['C-70']],
      ['', '', ['C-80']],
    ]);
    expect(await refusal([list], {})).toBe(
      `source ${list}: expected a column claim_id or case_id, got the columns "Ledger Ref", "Dispute Case", "amount"; name the column holding the ids with --column`,
    );
    expect(await refusal([list], { column: 'ref' })).toContain(
      'expected the column "ref" that --column names, got the columns "Ledger Ref"',
    );
    // A list cannot say which of its claims were filed: the filter is refused rather than ignored.
    expect(await refusal([list], { column: 'Ledger Ref', outcomes: ['filed'] })).toContain(
      'expected an outcome column for --outcome, got none',
    );
  });
});

describe('withdraw sources: what is none of these is refused in one line, before any request', () => {
  it('a missing file, a folder, an empty file, a picture, an old .xls, a damaged database or workbook, a database of other tables', async () => {
    const folder = await temporaryFolder('bulk-disputes-withdraw-');
    const write = async (name: string, content: string | Uint8Array) => {
      const file = join(folder, name);
      await writeFile(file, content);
      return file;
    };
    const expected =
      'expected an import or migrate-v1 journal, a results file of ours (CSV or .xlsx), or a CSV or workbook with a claim_id or case_id column';
    const missing = join(folder, 'missing.csv');
    expect(await refusal([missing])).toBe(`source ${missing}: ${expected}, got nothing there`);
    expect(await refusal([folder])).toBe(`source ${folder}: ${expected}, got a folder`);
    const empty = await write('empty.csv', '');
    expect(await refusal([empty])).toBe(`source ${empty}: ${expected}, got an empty file`);
    const picture = await write(
      'claims.csv',
      await readFile(new URL('../../samples/evidence/correspondence/northwind-support-reply.png', import.meta.url)),
    );
    expect(await refusal([picture])).toBe(
      `source ${picture}: ${expected}, got binary bytes starting 89 50 4e 47 0d 0a 1a 0a`,
    );
    const xls = await write('claims.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    expect(await refusal([xls])).toContain('got an old Excel .xls workbook (save it as .xlsx or CSV)');
    const damagedDatabase = await write(
      'job.journal.sqlite',
      Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(200, 7)]),
    );
    expect(await refusal([damagedDatabase])).toMatch(
      /^source .*job\.journal\.sqlite: expected an import or migrate-v1 journal, .*, got a damaged SQLite file \(SQLITE_/,
    );
    const damagedWorkbook = await write(
      'results.xlsx',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]),
    );
    expect(await refusal([damagedWorkbook])).toMatch(
      /^source .*results\.xlsx: expected a workbook this tool can read, got line 1: workbook: expected an \.xlsx file/,
    );
    const other = join(folder, 'other.sqlite');
    const database = new Database(other);
    database.exec('CREATE TABLE things (id TEXT)');
    database.close();
    expect(await refusal([other])).toBe(`source ${other}: ${expected}, got a SQLite database with the tables things`);
    const unclosed = await write('unclosed.csv', 'claim_id\n"CLM-1\n');
    expect(await refusal([unclosed])).toContain(
      'expected CSV this tool can read, got line 2: record: expected a closing quote',
    );
    // The first bad source stops the read, whatever came before it.
    const good = await write('good.csv', 'claim_id\nCLM-1\n');
    expect(await refusal([good, missing])).toContain('got nothing there');
  });
});
