import { lstat, open, writeFile, type FileHandle } from 'node:fs/promises';
import { ownMode, temporaryFlags } from '../../files/own-file.js';
import { binaryControlCharacters } from '../../files/sniff.js';
import { writeFileAtomic } from '../../files/write-file.js';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { csvDialectSchema, type CsvEncoding } from '../../csv/dialect.js';
import { CsvFormatError } from '../../csv/errors.js';
import { readRows } from '../../csv/read-rows.js';
import type { CsvRow } from '../../csv/records.js';
import { isWorkbookFile, readWorkbookRows } from '../../workbook/read-rows.js';
import {
  guessMapping,
  sniffDialect,
  sniffEncoding,
  UnsupportedEncodingError,
  type DialectGuess,
  type EncodingGuess,
  type Sample,
} from '../../mapping/guess/index.js';
import type { CliContext } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { formatGuessSummary } from './mapping-guess-output.js';
import { findReportLayout, type ReportLayoutGuess } from '../../mapping/guess/report-layout.js';
import { evidenceDirNext } from './mapping-guess-evidence.js';
import { codeOf } from '../../errors/coded-error.js';
import {
  fixedWidthDialect,
  recogniseFixedWidth,
  type FixedWidthGuess,
} from '../../mapping/guess/fixed-width/recognise.js';

interface GuessFlags {
  out?: string;
  rows: number;
  force?: boolean;
  sheet?: string;
}

/** Bytes the encoding and dialect are sniffed from; the rows themselves are streamed. */
const headBytes = 1024 * 1024;
const schemaFile = fileURLToPath(new URL('../../../mappings/mapping.schema.json', import.meta.url));

const guessHelp = `
Example:
  $ bulk-disputes mapping guess export.csv --out mappings/acme.yaml
  mapping guess: 10000 rows of export.csv, windows-1252, ";" delimited, a header line
  decided:
    encoding                      windows-1252                  medium
    shared.card.last4             column "Kartennummer (letzte 4)"  high
    ...
  needs a person (2 TODOs in mappings/acme.yaml):
    line 41  shared.dispute.reason: column "Grund": write the dispute.reason value of "FR", "NR" in its enum
    ...
  next:
    bulk-disputes mapping explain mappings/acme.yaml export.csv --line 2
    bulk-disputes import export.csv --mapping mappings/acme.yaml --dry-run

The draft (YAML) goes to --out, or to stdout; the summary to stderr. Lines marked TODO need a
person: until each is done, a dry run reports the rows it affects as invalid. CHECK marks a
guess worth a look. When the export names evidence files, the import line carries
--evidence-dir: the folder they are found in, or EVIDENCE_DIR for you to replace.
Exit 0 when a draft was written, 2 when SAMPLE cannot be read or --out exists (without --force).
`;

/** `mapping guess SAMPLE`: a draft mapping for a new export layout, from its first rows. */
export function guessCommand(context: CliContext): Command {
  return new Command('guess')
    .description(
      'read the first rows of an export and write a draft mapping for it, with what needs a person marked TODO',
    )
    .argument('<sample>', 'CSV export (or a workbook, .xlsx) to learn the layout from')
    .option('--sheet <name>', 'a workbook sample: the sheet to read (default: its first)')
    .option('--out <file>', 'write the draft here (default: stdout)')
    .option('--rows <n>', 'rows to read from the start of SAMPLE', positiveInteger, 10_000)
    .option('--force', 'overwrite --out when it exists')
    .addHelpText('after', guessHelp)
    .action(async (samplePath: string, flags: GuessFlags) => {
      const out = flags.out;
      if (out !== undefined && !flags.force && (await exists(out)))
        throw new UsageError(`--out ${out}: expected a new file, got an existing one (use --force to overwrite it)`);
      const { encoding, dialect, sample, unreadableRows, firstLine, report, fixedWidth } = isWorkbookFile(samplePath)
        ? await readWorkbookSample(samplePath, flags)
        : await readSample(samplePath, flags.rows);
      const schemaPath = relative(out === undefined ? process.cwd() : dirname(resolve(out)), schemaFile)
        .split(sep)
        .join('/');
      const draft = guessMapping({
        sample,
        encoding,
        dialect,
        report,
        source: samplePath,
        unreadableRows,
        schemaPath,
        firstLine,
        fixedWidth,
      });
      if (out === undefined) context.io.stdout.write(draft.yaml);
      // Owner-only and never through a link (own-file.ts): --force replaces what stands at --out
      // (a link too) by a rename; without it, a new file only (O_EXCL refuses a link as it refuses a file).
      else if (flags.force) await writeFileAtomic(out, draft.yaml);
      else await writeFile(out, draft.yaml, { flag: temporaryFlags, mode: ownMode });
      const evidenceDir = await evidenceDirNext(samplePath, draft, sample.rows);
      context.io.stderr.write(
        formatGuessSummary({
          samplePath,
          out,
          encoding,
          dialect,
          rows: sample.rows.length,
          draft,
          firstLine,
          evidenceDir,
          report,
          fixedWidth,
        }),
      );
      context.setExitCode(ExitCode.ok);
    });
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a whole number from 1, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Whether anything stands at `path`: a link too, even one to nothing. */
async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

/**
 * Any bytes decode as windows-1252, so a binary file would otherwise be guessed at as a strange
 * report. An export is text: a NUL, or control characters in more than 1 of 100 characters of
 * the head (a stray one is tolerated: some old systems end a file with Ctrl-Z), means it is not.
 */
function refuseBinary(path: string, headText: string): void {
  const controls = headText.match(binaryControlCharacters)?.length ?? 0;
  if (headText.includes('\0') || controls > headText.length / 100)
    throw new UsageError(
      `${path}: expected a CSV export (text), got binary content (${controls} control characters in its first ${headText.length})`,
    );
}

interface ReadSample {
  encoding: EncodingGuess;
  dialect: DialectGuess;
  sample: Sample;
  unreadableRows: number;
  /** The line of the first data record, for the `mapping explain` to try next. */
  firstLine: number;
  /** Where the table sits when the file is a report (title lines, a trailer); undefined for a workbook. */
  report?: ReportLayoutGuess | undefined;
  /** A fixed-width record file: its records, the detail ones the sample's rows (read from the head). */
  fixedWidth?: FixedWidthGuess | undefined;
}

/** Sniffs the head, then streams the first `maxRows` records with what was sniffed. */
async function readSample(path: string, maxRows: number): Promise<ReadSample> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw new UsageError(`${path}: expected a readable CSV file, got ${codeOf(error) ?? String(error)}`, {
      cause: error,
    });
  });
  try {
    const head = new Uint8Array(headBytes);
    const { bytesRead } = await handle.read(head, 0, headBytes, 0);
    if (bytesRead === 0)
      throw new UsageError(`${path}: expected a CSV export with a header line and rows, got an empty file`);
    let encoding: EncodingGuess;
    try {
      encoding = sniffEncoding(head.subarray(0, bytesRead), bytesRead < headBytes);
    } catch (error) {
      if (error instanceof UnsupportedEncodingError)
        throw new UsageError(`${path}: ${error.message}`, { cause: error });
      throw error;
    }
    const headText = new TextDecoder(encoding.encoding).decode(head.subarray(0, bytesRead), { stream: true });
    refuseBinary(path, headText);
    const sniffed = sniffDialect(headText, bytesRead < headBytes);
    const fixedWidth = recogniseFixedWidth({
      head: headText,
      complete: bytesRead < headBytes,
      dialect: sniffed,
      maxRows,
    });
    if (fixedWidth !== undefined)
      return {
        encoding,
        dialect: fixedWidthDialect(sniffed),
        sample: fixedWidth.sample,
        unreadableRows: 0,
        firstLine: fixedWidth.firstLine,
        fixedWidth,
      };
    const report = findReportLayout({
      head: headText,
      complete: bytesRead < headBytes,
      tail: bytesRead < headBytes ? undefined : await tailText(handle, encoding.encoding),
      delimiter: sniffed.delimiter,
      quote: sniffed.quote,
    });
    const dialect = report === undefined ? sniffed : sniffTable(headText, bytesRead < headBytes, sniffed, report);
    try {
      return { encoding, dialect, report, ...(await readRecords(path, dialect, encoding.encoding, maxRows, report)) };
    } catch (error) {
      // Not UTF-8 after all, past the sniffed head: what Excel on Windows writes is the likely reading.
      if (
        error instanceof CsvFormatError &&
        error.code === 'csv_encoding' &&
        encoding.encoding === 'utf-8' &&
        encoding.confidence !== 'high'
      ) {
        const fallback: EncodingGuess = {
          encoding: 'windows-1252',
          confidence: 'medium',
          evidence: `valid UTF-8 until line ${error.line}, then bytes that are not: windows-1252`,
        };
        return {
          encoding: fallback,
          dialect,
          report,
          ...(await readRecords(path, dialect, fallback.encoding, maxRows, report)),
        };
      }
      throw error;
    }
  } catch (error) {
    if (error instanceof CsvFormatError)
      throw new UsageError(`${path}: ${error.message} (${error.code})`, { cause: error });
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * A workbook's first rows: cells, not bytes, so there is no encoding or delimiter to
 * sniff; typed dates read as ISO dates, the format the draft then names. The draft's csv section
 * is the default one, which a workbook input does not use.
 */
async function readWorkbookSample(path: string, { rows: maxRows, sheet }: GuessFlags): Promise<ReadSample> {
  if (!(await exists(path))) throw new UsageError(`${path}: expected a readable workbook, got nothing there`);
  const encoding: EncodingGuess = {
    encoding: 'utf-8',
    confidence: 'high',
    evidence: 'a workbook (.xlsx): cells, not bytes; the csv section does not apply to it',
  };
  const dialect: DialectGuess = {
    delimiter: ',',
    quote: '"',
    lineEnding: 'LF',
    header: true,
    confidence: 'high',
    evidence: 'a workbook: its first row is the header',
  };
  let columns: readonly string[] = [];
  try {
    return {
      encoding,
      dialect,
      ...(await collectSample(
        path,
        readWorkbookRows(path, { sheet, onHeader: (header) => (columns = header) }),
        () => columns,
        maxRows,
      )),
    };
  } catch (error) {
    if (error instanceof CsvFormatError)
      throw new UsageError(`${path}: ${error.message} (${error.code})`, { cause: error });
    throw error;
  }
}

async function readRecords(
  path: string,
  dialect: DialectGuess,
  encoding: CsvEncoding,
  maxRows: number,
  report: ReportLayoutGuess | undefined,
): Promise<Omit<ReadSample, 'encoding' | 'dialect' | 'report'>> {
  const csv = csvDialectSchema.parse({
    delimiter: dialect.delimiter,
    quote: dialect.quote,
    encoding,
    header: dialect.header,
  });
  const handle = await open(path, 'r');
  let columns: readonly string[] = [];
  return collectSample(
    path,
    readRows(handle.createReadStream(), csv, {
      onHeader: (header) => (columns = header),
      report: report?.layout,
    }),
    () => columns,
    maxRows,
  );
}

/**
 * The dialect as the table below a report's title lines shows it: title lines of other widths
 * made the first sniff less sure than the table is. Kept as first sniffed if the table reads
 * otherwise (then the layout was found with the first sniff's delimiter).
 */
function sniffTable(text: string, complete: boolean, sniffed: DialectGuess, report: ReportLayoutGuess): DialectGuess {
  const offsetOf = (line: number) => {
    let offset = 0;
    for (let at = 1; at < line && offset !== -1; at++) offset = text.indexOf('\n', offset) + 1 || -1;
    return offset;
  };
  const start = offsetOf(report.headerLine);
  if (start <= 0) return sniffed;
  const trailerLine = report.trailer?.line;
  const end = trailerLine === undefined ? -1 : offsetOf(trailerLine);
  const table = sniffDialect(text.slice(start, end === -1 ? undefined : end), complete || end !== -1);
  if (table.delimiter !== sniffed.delimiter || table.quote !== sniffed.quote) return sniffed;
  return { ...table, lineEnding: sniffed.lineEnding, evidence: `${table.evidence} of the table below the title lines` };
}

/** Bytes of the file's end a trailer is looked for in, past any blank lines, and how far back those may go. */
const tailBytes = 64 * 1024;
const mostTrailingBlankBytes = 16 * 1024 * 1024;

/**
 * The file's last bytes with text in them, decoded: where a report's trailer is. Blank lines after
 * the trailer (one published report ends with thousands) are stepped over.
 */
async function tailText(handle: FileHandle, encoding: CsvEncoding): Promise<string> {
  const { size } = await handle.stat();
  const buffer = Buffer.alloc(tailBytes + 2);
  // The end of the text: the last byte that is not a line break, a space or (UTF-16) a zero byte.
  let textEnd = 0;
  for (let end = size; end > 0 && size - end < mostTrailingBlankBytes && textEnd === 0;) {
    const start = Math.max(0, end - tailBytes);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    for (let at = bytesRead - 1; at >= 0; at--)
      if (![0x0a, 0x0d, 0x20, 0x00].includes(buffer[at] ?? 0)) {
        textEnd = start + at + 1;
        break;
      }
    end = start;
  }
  if (textEnd === 0) return '';
  // From an even offset, so that a UTF-16 file's bytes stay in pairs; one more byte for its last pair.
  const end = Math.min(size, textEnd + 1);
  const from = Math.max(0, end - tailBytes) & ~1;
  const { bytesRead } = await handle.read(buffer, 0, end - from, from);
  return new TextDecoder(encoding).decode(buffer.subarray(0, bytesRead));
}

/** The first `maxRows` records of a reader; leaving the loop ends it, which stops the parser and closes the file. */
async function collectSample(
  path: string,
  records: AsyncIterable<CsvRow>,
  header: () => readonly string[],
  maxRows: number,
): Promise<Omit<ReadSample, 'encoding' | 'dialect' | 'report'>> {
  const rows: Record<string, string>[] = [];
  let unreadableRows = 0;
  let firstLine: number | undefined;
  for await (const row of records) {
    if ('error' in row) unreadableRows++;
    else {
      firstLine ??= row.line;
      rows.push({ ...row.cells });
    }
    if (rows.length + unreadableRows >= maxRows) break;
  }
  if (rows.length === 0)
    throw new UsageError(`${path}: expected rows below the header line, got none that can be read`);
  return { sample: { columns: header(), rows }, unreadableRows, firstLine: firstLine ?? 2 };
}
