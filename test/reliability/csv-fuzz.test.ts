import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genericMapping, runCli, type ResultRow } from '../import/e2e-fixtures.js';
import { genericHeader, rowCells } from '../import/generate.js';
import { full, seedFrom, sized } from './size.js';
import { readResultsStrict } from './strict-results.js';

/**
 * Property-based fuzzing of the import's CSV input, in dry-run mode, in-process.
 *
 * The property, for any bytes: no unhandled exception or rejection, and either
 * - exit 0 or 1 with every data record in the results CSV exactly once, in input order (the
 *   results contract: one line per input record, unreadable ones included; exit 0 only when every
 *   row is `valid`), or
 * - a run-level error: exit 2 and one clear `bulk-disputes: <code>: ...` line, no stack trace.
 *
 * Inputs come in two kinds. Built ones are assembled record by record from a valid generated
 * export (ragged rows, blank lines, quoted line breaks, CRLF/LF mixes, stray bytes, NUL, BOM,
 * huge cells, empty file, header only), so the test knows where each record starts and checks
 * the results' `line` column against exactly that. Chaotic ones (byte mutations of a valid file,
 * stray quotes, fully random bytes) have no independent reader to count their records; for them
 * the results must still be one line per record: `line` strictly increasing, from 2, each a line
 * of the input, never more rows than the input has lines after the header.
 */

const numRuns = sized(300, 50);
const seed = seedFrom(Math.floor(Math.random() * 0xffff_ffff));
const nowMs = Date.UTC(2026, 2, 1);
const maxRecordChars = 1024 * 1024;

let dir = '';
let runs = 0;
/** Exit codes and run-level error codes seen, per property: printed, and checked for variety. */
const seen = new Map<string, Map<string, number>>();
function tally(property: string, outcome: Outcome): void {
  const key =
    outcome.exitCode === 2
      ? `exit 2 ${/^bulk-disputes: (\w+)/m.exec(outcome.stderr)?.[1] ?? '?'}`
      : `exit ${outcome.exitCode}, ${(outcome.rows?.length ?? 0) > 0 ? 'rows' : 'no rows'}`;
  const counts = seen.get(property) ?? new Map<string, number>();
  counts.set(key, (counts.get(key) ?? 0) + 1);
  seen.set(property, counts);
}
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-fuzz-'));
  console.log(
    `csv-fuzz: fast-check seed ${seed}, ${numRuns} runs per property (replay with BULK_DISPUTES_SEED=${seed})`,
  );
});
afterAll(async () => {
  for (const [property, counts] of seen)
    console.log(`csv-fuzz ${property}: ${[...counts].map(([key, count]) => `${key}: ${count}`).join('; ')}`);
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

interface Outcome {
  exitCode: number;
  stderr: string;
  rows: ResultRow[] | undefined;
  unhandled: unknown[];
}

/**
 * What a dry run writes: a generated dispute may be valid yet past the filing rules
 * (would_not_file), and a record built or mutated into a copy of an earlier one is that dispute
 * again (duplicate, docs/import.md "Duplicates").
 */
const dryRunOutcomes: readonly string[] = ['valid', 'invalid', 'would_not_file', 'duplicate'];

/** Exit 0 exactly when every row is valid or set aside as another's duplicate (docs/exit-codes.md). */
const exitsOk = (rows: readonly { outcome: string }[]) =>
  rows.every((row) => row.outcome === 'valid' || row.outcome === 'duplicate');

/** A duplicate names an earlier line of the same results, never itself or a later one. */
function expectDuplicatesNameEarlierLines(rows: readonly { line: string; outcome: string; error_message: string }[]) {
  const lines = new Set<number>();
  for (const row of rows) {
    if (row.outcome === 'duplicate') {
      const first = Number(/the same dispute as line (\d+)/.exec(row.error_message)?.[1]);
      expect(lines.has(first), `line ${row.line}: ${row.error_message}`).toBe(true);
    }
    lines.add(Number(row.line));
  }
}

/** One dry run of `bytes`, in-process, catching whatever escapes it. */
async function dryRun(bytes: Uint8Array): Promise<Outcome> {
  const run = ++runs;
  const input = join(dir, `input-${run}.csv`);
  const results = join(dir, `input-${run}.results.csv`);
  await writeFile(input, bytes);
  const unhandled: unknown[] = [];
  const onUnhandled = (error: unknown) => unhandled.push(error);
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  try {
    // The failure as a person reads it (a pipe gets one JSON record unless asked for pretty lines).
    const cli = await runCli(
      [
        '--log-level',
        'silent',
        '--log-format',
        'pretty',
        'import',
        input,
        '--mapping',
        genericMapping,
        '--results',
        results,
        '--dry-run',
      ],
      {},
    );
    // Whatever a stray stream or timer would throw surfaces within a turn or two.
    await new Promise((resolve) => setImmediate(resolve));
    const rows = cli.exitCode === 2 || !existsSync(results) ? undefined : (await readResultsStrict(results)).rows;
    return { exitCode: cli.exitCode, stderr: cli.stderr, rows, unhandled };
  } finally {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    await rm(input, { force: true });
    await rm(results, { force: true });
  }
}

/** A run-level error: exit 2 with one readable line naming its code, and no stack. */
function expectRunLevelError(outcome: Outcome, code?: string): void {
  expect(outcome.exitCode, outcome.stderr).toBe(2);
  expect(outcome.stderr).toMatch(
    code === undefined
      ? /^bulk-disputes: [a-z_A-Z]+: .+$/m
      : new RegExp(`^bulk-disputes: ${code}: line \\d+: .+$`, 'm'),
  );
  expect(outcome.stderr).not.toMatch(/^\s+at /m);
}

// --- Built inputs: the test knows every record's first line. ---

type Cell = string;
/** One record of a built file, or a blank line. */
type Piece =
  { kind: 'row'; cells: Cell[]; ragged: boolean; eol: '\n' | '\r\n' } | { kind: 'blank'; eol: '\n' | '\r\n' };

/** Quoted when it must be; `"` doubled. */
const field = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Cell text that may need quoting: line breaks (LF, CRLF, a lone CR), quotes, commas, NUL, any Unicode. */
const wildCell: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom('a', ' ', '"', ',', '\n', '\r\n', '\r', '\0', '\t', '=', 'é', '😀', '\u2028'), {
        maxLength: 8,
      })
      .map((parts) => parts.join('')),
  },
);

/** A generated row (it maps and files), then cells replaced and columns dropped or added. */
const rowPiece: fc.Arbitrary<Piece> = fc
  .record({
    claim: fc.nat({ max: 50 }),
    transaction: fc.nat({ max: 2 }),
    edits: fc.array(fc.tuple(fc.nat({ max: genericHeader.length - 1 }), wildCell), { maxLength: 3 }),
    width: fc.oneof(
      { weight: 8, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 2 - genericHeader.length, max: -1 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
    ),
    eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  })
  .map(({ claim, transaction, edits, width, eol }) => {
    const cells = rowCells({ claim, transaction }, nowMs);
    for (const [column, value] of edits) cells[column] = value;
    if (width < 0) cells.length += width;
    for (let extra = 0; extra < width; extra++) cells.push(`extra${extra}`);
    return { kind: 'row', cells, ragged: width !== 0, eol };
  });

const blankPiece: fc.Arbitrary<Piece> = fc
  .constantFrom<'\n' | '\r\n'>('\n', '\r\n')
  .map((eol) => ({ kind: 'blank', eol }));

interface Built {
  /** The file's text (written as UTF-8): readable when fast-check reports a counterexample. */
  text: string;
  /** Run-level error code expected, or the results expected: line and (for unreadable records) error code. */
  expected: { error: string } | { lines: { line: number; error?: string }[] };
  describe: string;
}

const builtFile: fc.Arbitrary<Built> = fc
  .record({
    bom: fc.boolean(),
    headerEol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
    pieces: fc.array(fc.oneof({ weight: 6, arbitrary: rowPiece }, { weight: 1, arbitrary: blankPiece }), {
      maxLength: 25,
    }),
    lastEol: fc.boolean(),
    trailingBlank: fc.nat({ max: 2 }),
    // One file in nine has a huge cell.
    huge: fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.record({ at: fc.nat(), chars: fc.constantFrom(200_000, 1_000_000, 1_100_000) }) },
    ),
  })
  .map(({ bom, headerEol, pieces, lastEol, trailingBlank, huge }) => {
    // A huge cell in one row (a 1 MB cell goes with the rest of its record over the 1 MiB limit).
    const rows = pieces.flatMap((piece, index) => (piece.kind === 'row' ? [index] : []));
    if (huge !== null && rows.length > 0) {
      const piece = pieces[rows[huge.at % rows.length] ?? 0];
      if (piece?.kind === 'row') piece.cells[piece.cells.length - 1] = `big${'x'.repeat(huge.chars)}`;
    }
    let text = `${bom ? '\uFEFF' : ''}${genericHeader.join(',')}${headerEol}`;
    let line = 2;
    const lines: { line: number; error?: string }[] = [];
    let pendingBlanks: { line: number; error?: string }[] = [];
    let tooLarge: number | undefined;
    pieces.forEach((piece, index) => {
      const last = index === pieces.length - 1;
      const eol = last && !lastEol && trailingBlank === 0 ? '' : piece.eol;
      if (piece.kind === 'blank') {
        // Reported only when a record follows (trailing blank lines are no rows).
        pendingBlanks.push({ line, error: 'csv_blank_line' });
        text += eol;
        line++;
        return;
      }
      lines.push(...pendingBlanks);
      pendingBlanks = [];
      const record = piece.cells.map(field).join(',');
      if (record.length > maxRecordChars) tooLarge ??= line;
      lines.push(piece.ragged ? { line, error: 'csv_column_count' } : { line });
      text += record + eol;
      // Line breaks inside quoted cells count (LF; CRLF counts once, a lone CR not at all).
      line += (record.match(/\n/g)?.length ?? 0) + 1;
    });
    text += '\n'.repeat(trailingBlank);
    const describe = `${pieces.length} pieces, bom ${bom}, header eol ${JSON.stringify(headerEol)}, huge ${huge === null ? 'none' : huge.chars}`;
    // A lone blank line with nothing else in the file after the header is not a row either.
    const expected = tooLarge === undefined ? { lines } : { error: 'csv_record_too_large' };
    return { text, expected, describe };
  });

/** A record that can never be a header's data: the results must say exactly what the test built. */
async function checkBuilt(built: Built): Promise<void> {
  const outcome = await dryRun(Buffer.from(built.text, 'utf8'));
  tally('built', outcome);
  expect(outcome.unhandled).toEqual([]);
  if ('error' in built.expected) {
    expectRunLevelError(outcome, built.expected.error);
    return;
  }
  expect([0, 1], outcome.stderr).toContain(outcome.exitCode);
  const rows = outcome.rows ?? [];
  expect(rows.map((row) => Number(row.line))).toEqual(built.expected.lines.map((item) => item.line));
  built.expected.lines.forEach((item, index) => {
    const row = rows[index];
    if (item.error !== undefined)
      expect(row, `line ${item.line}`).toMatchObject({ outcome: 'invalid', error_code: item.error });
    else expect(dryRunOutcomes, `line ${item.line}`).toContain(row?.outcome);
  });
  expectDuplicatesNameEarlierLines(rows);
  expect(outcome.exitCode === 0, outcome.stderr).toBe(exitsOk(rows));
}

// --- Chaotic inputs: mutations of a valid file, and random bytes. ---

/** A valid generated export: the start of every mutation. */
const validFile: fc.Arbitrary<string> = fc
  .record({ rows: fc.integer({ min: 1, max: 12 }), crlf: fc.boolean() })
  .map(({ rows, crlf }) => {
    const eol = crlf ? '\r\n' : '\n';
    const body = Array.from({ length: rows }, (_, index) =>
      rowCells({ claim: index >> 1, transaction: index & 1 }, nowMs)
        .map(field)
        .join(','),
    );
    return [genericHeader.join(','), ...body].join(eol) + eol;
  });

type Mutation =
  | { op: 'insert'; at: number; bytes: Uint8Array }
  | { op: 'delete'; at: number; length: number }
  | { op: 'duplicate'; at: number; length: number }
  | { op: 'truncate'; at: number };

const strayBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .constantFrom('"', '""', '"\n', '\n"', '\r', '\n', '\r\n', '\0', ',', '\uFEFF', ',"x",')
    .map((text) => Buffer.from(text)),
  fc.uint8Array({ minLength: 1, maxLength: 4 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).map((text) => Buffer.from(text)),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: strayBytes }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('duplicate' as const),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 200 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }) },
);

function mutate(text: string, mutations: Mutation[]): Uint8Array {
  let bytes = Buffer.from(text);
  for (const change of mutations) {
    const at = bytes.length === 0 ? 0 : change.at % (bytes.length + 1);
    if (change.op === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), change.bytes, bytes.subarray(at)]);
    else if (change.op === 'delete') bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + change.length)]);
    else if (change.op === 'duplicate')
      bytes = Buffer.concat([
        bytes.subarray(0, at + change.length),
        bytes.subarray(at, at + change.length),
        bytes.subarray(at + change.length),
      ]);
    else bytes = bytes.subarray(0, at);
  }
  return bytes;
}

const chaoticFile: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(validFile, fc.array(mutation, { minLength: 1, maxLength: 6 }))
      .map(([text, mutations]) => mutate(text, mutations)),
  },
  // Every cell's quotes stray: `a"b` inside unquoted cells, or a quote opened and never closed.
  {
    weight: 1,
    arbitrary: fc
      .tuple(validFile, fc.nat(), fc.constantFrom('a"b', '"open', 'x"', '"a"b"'))
      .map(([text, at, stray]) => {
        const lines = text.split('\n');
        const index = 1 + (at % Math.max(1, lines.length - 1));
        lines[index] = `${stray},${lines[index] ?? ''}`;
        return Buffer.from(lines.join('\n'));
      }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 600 }) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: 'binary', maxLength: 400 })
      .map((text) => Buffer.from(`${genericHeader.join(',')}\n${text}`)),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom('"', ',', '\n', '\r', '\0', 'a', '\uFEFF'), { maxLength: 60 })
      .map((parts) => Buffer.from(`${genericHeader.join(',')}\n${parts.join('')}`)),
  },
);

async function checkChaotic(bytes: Uint8Array): Promise<void> {
  const outcome = await dryRun(bytes);
  tally('chaotic', outcome);
  expect(outcome.unhandled).toEqual([]);
  if (outcome.exitCode === 2) {
    expectRunLevelError(outcome);
    return;
  }
  expect([0, 1], outcome.stderr).toContain(outcome.exitCode);
  const rows = outcome.rows ?? [];
  // Lines of the input, as the results count them (each LF ends one).
  const text = Buffer.from(bytes).toString('utf8');
  const physicalLines = (text.match(/\n/g)?.length ?? 0) + 1;
  const lines = rows.map((row) => Number(row.line));
  expect(
    lines.every((line) => Number.isInteger(line) && line >= 2 && line <= physicalLines),
    `lines ${lines.join(',')} of ${physicalLines}`,
  ).toBe(true);
  // Each record once, in input order: a record starts after the previous one.
  lines.forEach((line, index) => {
    if (index > 0) expect(line, `lines ${lines.join(',')}`).toBeGreaterThan(lines[index - 1] ?? 0);
  });
  expect(
    rows.every((row) => dryRunOutcomes.includes(row.outcome)),
    rows.map((row) => row.outcome).join(','),
  ).toBe(true);
  expectDuplicatesNameEarlierLines(rows);
  expect(outcome.exitCode === 0).toBe(exitsOk(rows));
}

const timeout = sized(360_000, 60_000);

describe(`CSV input fuzzing, import --dry-run in-process (${numRuns} runs each${full ? '' : ', reduced'})`, () => {
  it(
    '│ built files: ragged rows, blank lines, quoted LF/CRLF/CR, NUL, BOM, huge cells, empty, header only │ each record once, at its line',
    { timeout },
    async () => {
      await fc.assert(
        fc.asyncProperty(builtFile, async (built) => checkBuilt(built)),
        { numRuns, seed },
      );
    },
  );

  it(
    '│ chaotic files: byte mutations of a valid export, stray quotes, random bytes │ exit 0/1 with one ordered line per record, or exit 2 with a clear message',
    { timeout },
    async () => {
      await fc.assert(
        fc.asyncProperty(chaoticFile, async (bytes) => checkChaotic(bytes)),
        { numRuns, seed },
      );
    },
  );

  it.each([
    ['empty file', { error: 'csv_empty' }, ''],
    ['a BOM only', { error: 'csv_empty' }, '\uFEFF'],
    ['header only, no line break', { lines: [] }, genericHeader.join(',')],
    ['header only, CRLF', { lines: [] }, `${genericHeader.join(',')}\r\n`],
    ['header and blank lines only', { lines: [] }, `${genericHeader.join(',')}\n\n\r\n`],
    ['an unclosed quote', { error: 'csv_quote_not_closed' }, `${genericHeader.join(',')}\n"D1,T1\nmore\n`],
    ['a 1 MB cell', { error: 'csv_record_too_large' }, `${genericHeader.join(',')}\n${'x'.repeat(1_100_000)}\n`],
  ] as const)('│ %s │ %j', async (name, expected, text) => {
    await checkBuilt({
      text,
      expected: 'error' in expected ? expected : { lines: [...expected.lines] },
      describe: name,
    });
  });
});
