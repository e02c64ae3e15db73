import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CsvFormatError } from '../../src/csv/errors.js';
import { readWorkbookRows } from '../../src/workbook/read-rows.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { cliBin } from '../helpers/sandbox-process.js';
import {
  countIn,
  fraudRow,
  genericColumns,
  importArgs,
  makeWorkspace,
  type Workspace,
} from '../import/e2e-fixtures.js';
import {
  deflatedEntry,
  repeatedEntry,
  sharedStringSheet,
  sharedStringsEnd,
  sharedStringsStart,
  workbookFrame,
  writeZip,
  type ZipEntry,
} from './workbook-zip.js';

/**
 * Workbooks made to hurt the reader (decompression bombs, a zip directory that lies), fed to
 * `bulk-disputes import` as a child process against a sandbox on loopback, behind a proxy that
 * counts what reaches it: each is refused with exit 2 and `xlsx_too_large` naming the part and the
 * limit, no stack trace, within a second of reading and under 300 MB for the whole process, with
 * nothing sent, no row staged and no temporary file written.
 */

const mib = 1024 * 1024;
const gib = 1024 * mib;
/** The goal for the whole process: a bomb never costs more. */
const peakLimitBytes = 300_000_000;
/** A refusal within a second; generous for a child process on a slow, shared machine (its start is 0.5 s). */
const refusedWithinMs = 10_000;

const header = [...genericColumns];
const rowCells = (disputeRef: string) => {
  const row = fraudRow(disputeRef, 'T1');
  return header.map((column) => row[column] ?? '');
};

/** The sheet of two claims and the parts around it, with the shared-strings table given. */
function workbookWith(strings: (table: string[]) => ZipEntry, sheet?: (xml: string) => ZipEntry): ZipEntry[] {
  const { sheet: sheetXml, strings: table } = sharedStringSheet([header, rowCells('D-1'), rowCells('D-2')]);
  // Excel's order: the sheet before its strings (exceljs parks such a sheet in a temporary file).
  return [...workbookFrame(), sheet?.(sheetXml) ?? deflatedEntry('xl/worksheets/sheet1.xml', sheetXml), strings(table)];
}

const honestStrings = (table: string[]) =>
  deflatedEntry('xl/sharedStrings.xml', sharedStringsStart(table) + sharedStringsEnd);

/** 3 GiB of shared strings from about 3 MB: the table most spreadsheets write, a million times over. */
const stringsBomb = (table: string[]) =>
  repeatedEntry('xl/sharedStrings.xml', {
    prefix: sharedStringsStart(table),
    unit: '<si><t>bomb</t></si>',
    repeatedBytes: 3 * gib,
    suffix: sharedStringsEnd,
  });

/** One shared string of 1 GiB, from about 1 MB. */
const cellBomb = (table: string[]) =>
  repeatedEntry('xl/sharedStrings.xml', {
    prefix: `${sharedStringsStart(table)}<si><t>`,
    unit: 'A',
    repeatedBytes: gib,
    suffix: `</t></si>${sharedStringsEnd}`,
  });

/** A part whose directory (and local header) says it inflates to 64 KiB. */
const lyingAbout = (entry: ZipEntry): ZipEntry => ({ ...entry, declaredInflatedBytes: 64 * 1024 });

interface Refusal {
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly stdout: string;
  readonly ms: number;
  readonly peakBytes: number;
  readonly requests: readonly string[];
  readonly temporaryFiles: readonly string[];
  readonly stagedRows: number;
  readonly claims: number;
}

/**
 * `import FILE` as the CLI runs it, in a child process whose peak RSS it reports as it exits
 * (`process.resourceUsage().maxRSS`, from a module loaded before the CLI); TMPDIR its own empty
 * folder, to see what it leaves there.
 */
async function importInChild(workspace: Workspace, input: string): Promise<Refusal> {
  const { sandbox } = await startTestSandbox();
  const proxy = await startCountingProxy(sandbox.url);
  const temporary = join(workspace.dir, 'tmp');
  await mkdir(temporary);
  const peakFile = join(workspace.dir, 'peak.txt');
  const reportPeak =
    "import { writeFileSync } from 'node:fs';" +
    'process.on("exit", () => writeFileSync(process.env.PEAK_FILE, String(process.resourceUsage().maxRSS * 1024)));';
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(reportPeak)}`,
      cliBin,
      ...importArgs(workspace, input, ['--base-url', proxy.url, '--log-level', 'warn']),
    ],
    { env: { PATH: process.env.PATH, CLAIMS_API_KEY: sandboxKey, TMPDIR: temporary, PEAK_FILE: peakFile } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const ms = performance.now() - started;
  const stagedRows = existsSync(workspace.journal) ? rowsIn(workspace.journal) : 0;
  return {
    exitCode,
    stdout,
    stderr,
    ms,
    peakBytes: Number(await readFile(peakFile, 'utf8')),
    requests: proxy.requests(),
    temporaryFiles: await readdir(temporary),
    stagedRows,
    claims: countIn(sandbox, 'claims'),
  };
}

function rowsIn(journal: string): number {
  const database = new Database(journal, { readonly: true });
  try {
    const table = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rows'").get();
    if (table === undefined) return 0;
    return (database.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n;
  } finally {
    database.close();
  }
}

function expectRefused(refusal: Refusal, part: string, limit: RegExp): void {
  const said = `${refusal.stderr}\n${refusal.stdout}`;
  expect(refusal.exitCode, said).toBe(2);
  expect(said).toContain('xlsx_too_large');
  expect(said).toContain(`workbook ${part}: expected`);
  expect(said).toMatch(limit);
  expect(said).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(said).not.toContain('Invalid string length');
  expect(refusal.peakBytes, `peak RSS ${(refusal.peakBytes / mib).toFixed(1)} MiB`).toBeLessThan(peakLimitBytes);
  expect(refusal.ms).toBeLessThan(refusedWithinMs);
  expect(refusal.requests.filter((request) => !request.startsWith('GET '))).toEqual([]);
  expect(refusal.claims).toBe(0);
  expect(refusal.stagedRows).toBe(0);
  expect(refusal.temporaryFiles).toEqual([]);
}

/** The refusal as the library gives it, timed in this process: the reading alone, without a process's start. */
async function refusalOf(file: string): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    for await (const _row of readWorkbookRows(file));
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  return { error: undefined, ms: performance.now() - started };
}

describe('workbook bombs', () => {
  it('a workbook written the same way by hand imports: the refusals below are the bombs, not the writer', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'sane.xlsx');
    await writeZip(input, workbookWith(honestStrings));
    const run = await importInChild(workspace, input);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.claims).toBe(2);
    expect(run.stagedRows).toBe(2);
    expect(run.temporaryFiles).toEqual([]);
  });

  it('3 GiB of shared strings in a 3 MB file: refused from the zip directory, before anything inflates', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'strings-bomb.xlsx');
    await writeZip(input, workbookWith(stringsBomb));
    const refusal = await importInChild(workspace, input);
    expectRefused(refusal, 'xl/sharedStrings.xml', /at most 67,108,864 bytes inflated, got 3,221,2\d\d,\d{3}/);
    const inProcess = await refusalOf(input);
    expect(inProcess.error).toBeInstanceOf(CsvFormatError);
    // A second is the goal (it takes about 0.15 s); five leaves room for a loaded, shared CI machine.
    expect(inProcess.ms).toBeLessThan(5_000);
  });

  it('one 1 GiB cell in a 1 MB file: xlsx_too_large naming the shared strings, never "Invalid string length"', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'cell-bomb.xlsx');
    await writeZip(input, workbookWith(cellBomb));
    const refusal = await importInChild(workspace, input);
    expectRefused(refusal, 'xl/sharedStrings.xml', /at most 67,108,864 bytes inflated, got 1,07\d,\d{3},\d{3}/);
  });

  it('the 1 GiB cell whose zip directory says 64 KiB: stopped as it inflates past what was declared', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'lying-cell-bomb.xlsx');
    await writeZip(
      input,
      workbookWith((table) => lyingAbout(cellBomb(table))),
    );
    const refusal = await importInChild(workspace, input);
    expectRefused(refusal, 'xl/sharedStrings.xml', /the 65,536 bytes inflated its zip directory declares, got more/);
  });

  it('3 GiB of shared strings whose zip directory says 64 KiB: stopped as it inflates', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'lying-strings-bomb.xlsx');
    await writeZip(
      input,
      workbookWith((table) => lyingAbout(stringsBomb(table))),
    );
    const refusal = await importInChild(workspace, input);
    expectRefused(refusal, 'xl/sharedStrings.xml', /the 65,536 bytes inflated its zip directory declares, got more/);
  });

  it('a sheet of 2 GiB of empty rows from 2 MB: refused by its ratio, from the directory', async () => {
    const workspace = await makeWorkspace();
    const input = join(workspace.dir, 'sheet-bomb.xlsx');
    const sheetBomb = (xml: string) =>
      repeatedEntry('xl/worksheets/sheet1.xml', {
        prefix: xml.replace('</sheetData></worksheet>', ''),
        unit: '<row r="9"><c r="A9"/></row>',
        repeatedBytes: 2 * gib - mib,
        suffix: '</sheetData></worksheet>',
      });
    await writeZip(input, workbookWith(honestStrings, sheetBomb));
    const refusal = await importInChild(workspace, input);
    expectRefused(refusal, 'xl/worksheets/sheet1.xml', /at most 100 inflated bytes per compressed byte/);
  });
});

describe('zips that show the reader one thing and the directory another', () => {
  it('a local header naming another part than the directory does is not read', async () => {
    const folder = await makeWorkspace();
    const input = join(folder.dir, 'two-names.xlsx');
    await writeZip(
      input,
      workbookWith((table) => ({ ...honestStrings(table), localName: 'xl/sharedStrings.xmm' })),
    );
    const { error } = await refusalOf(input);
    expect(error).toBeInstanceOf(CsvFormatError);
    expect(error).toMatchObject({ code: 'workbook_unreadable' });
    expect((error as Error).message).toContain(
      'workbook xl/sharedStrings.xml: expected its local file header to name it as its zip directory does, got "xl/sharedStrings.xmm"',
    );
  });

  it('a part declared larger than it inflates is not read', async () => {
    const folder = await makeWorkspace();
    const input = join(folder.dir, 'short.xlsx');
    await writeZip(
      input,
      workbookWith((table) => ({ ...honestStrings(table), declaredInflatedBytes: 70_000 })),
    );
    const { error } = await refusalOf(input);
    expect(error).toMatchObject({ code: 'workbook_unreadable' });
    expect((error as Error).message).toMatch(/expected 70,000 bytes inflated, as its zip directory says, got \d+/);
  });
});

describe('cells past what a spreadsheet holds', () => {
  it("a shared string of 40,000 characters: refused at its cell, Excel's limit named", async () => {
    const folder = await makeWorkspace();
    const input = join(folder.dir, 'long-cell.xlsx');
    await writeZip(
      input,
      workbookWith((table) => {
        table[header.length] = 'x'.repeat(40_000);
        return honestStrings(table);
      }),
    );
    const { error } = await refusalOf(input);
    expect(error).toMatchObject({ code: 'xlsx_too_large', line: 2 });
    expect((error as Error).message).toBe(
      `line 2: workbook sheet "Disputes" cell A2: expected at most 32,767 characters (Excel's limit), got 40,000`,
    );
  });

  it('a 2 MiB cell written inline in the sheet: refused as it streams, before the XML parser holds it', async () => {
    const folder = await makeWorkspace();
    const input = join(folder.dir, 'inline-cell.xlsx');
    // Random text, which deflate cannot shorten much: the ratio passes, the cell's bound does not.
    const digits = randomBytes((3 * mib) / 2).toString('base64');
    const inlineCell = (xml: string) =>
      deflatedEntry(
        'xl/worksheets/sheet1.xml',
        xml.replace('<c r="A2" t="s"><v>', `<c r="A2" t="inlineStr"><is><t>${digits}</t></is></c><c r="Z2" t="s"><v>`),
      );
    await writeZip(input, workbookWith(honestStrings, inlineCell));
    const { error, ms } = await refusalOf(input);
    expect(error).toMatchObject({ code: 'xlsx_too_large' });
    expect((error as Error).message).toContain(
      'workbook xl/worksheets/sheet1.xml: expected at most 1,048,576 bytes of text or markup between two tags',
    );
    expect(ms).toBeLessThan(5_000);
  });
});
