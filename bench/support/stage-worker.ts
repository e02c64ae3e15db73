import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { createDecoder } from '../../src/csv/decode.js';
import { checkInputControls } from '../../src/import/check-controls.js';
import { checkInputHeader } from '../../src/import/input-header.js';
import { Journal } from '../../src/import/journal/journal.js';
import { stageRows } from '../../src/import/stage/index.js';
import { parseMapping } from '../../src/mapping/load.js';
import type { Mapping } from '../../src/mapping/schema.js';

/**
 * One timed pass over a CSV in a fresh process, so that neither side of the stage benchmark
 * inherits the other's JIT warm-up, heap or page cache advantage (the file is read once before
 * the clock starts, by both). Prints one JSON line on stdout: `{ "rows": n, "seconds": s }`.
 *
 *   node stage-worker.js stage <csv> <mapping> <journal>   the import's stage step, into a new journal
 *   node stage-worker.js csv-parse <csv> <mapping>         csv-parse alone with the mapping's dialect
 *   node stage-worker.js pre-send <file> <mapping> <journal> what `import` runs before the journal (the header
 *                                                            and control checks, src/import/run-import.ts), then the stage step
 */

export interface StageWorkerResult {
  rows: number;
  seconds: number;
}

/** parse → map → validate → journal: exactly what `import` (and `import --dry-run`) runs first. */
async function timeStage(csvFile: string, mapping: Mapping, journalFile: string): Promise<StageWorkerResult> {
  const journal = new Journal(journalFile);
  try {
    const started = performance.now();
    const staged = await stageRows({ input: createReadStream(csvFile), mapping, journal });
    return { rows: staged.rowsRead, seconds: (performance.now() - started) / 1000 };
  } finally {
    journal.close();
  }
}

/**
 * Everything a dry run does before its claims are checked: the input's header against the mapping,
 * its trailers' control figures (a fixed-width file read once to its end), then the stage step.
 */
async function timePreSend(
  inputFile: string,
  mapping: Mapping,
  mappingFile: string,
  journalFile: string,
): Promise<StageWorkerResult> {
  const started = performance.now();
  await checkInputHeader({ input: inputFile, mapping, mappingFile });
  await checkInputControls({ input: inputFile, mapping });
  const journal = new Journal(journalFile);
  try {
    const staged = await stageRows({ input: createReadStream(inputFile), mapping, journal });
    return { rows: staged.rowsRead, seconds: (performance.now() - started) / 1000 };
  } finally {
    journal.close();
  }
}

/**
 * The baseline: the same bytes through the same decoder into csv-parse, with the mapping's dialect
 * (delimiter, quote, trim, header as `columns`), records only counted.
 */
async function timeCsvParse(csvFile: string, mapping: Mapping): Promise<StageWorkerResult> {
  const { delimiter, quote, trim, header, encoding } = mapping.csv;
  const started = performance.now();
  let rows = 0;
  const parser = parse({ delimiter, quote, trim, columns: header, record_delimiter: ['\r\n', '\n'] });
  parser.on('data', () => {
    rows++;
  });
  await pipeline(createReadStream(csvFile), createDecoder(encoding), parser);
  return { rows, seconds: (performance.now() - started) / 1000 };
}

async function main(argv: readonly string[]): Promise<void> {
  const [mode, csvFile, mappingFile, journalFile] = argv;
  if (csvFile === undefined || mappingFile === undefined)
    throw new Error('usage: stage-worker.js stage|pre-send|csv-parse <file> <mapping> [journal]');
  const mapping = parseMapping(await readFile(mappingFile, 'utf8'), mappingFile);
  // Both sides start with the file in the page cache: the first read is not timed.
  let warmBytes = 0;
  for await (const chunk of createReadStream(csvFile)) warmBytes += (chunk as Buffer).length;
  if (warmBytes === 0) throw new Error(`stage-worker.js: expected a CSV in ${csvFile}, got an empty file`);
  let result: StageWorkerResult;
  if (mode === 'stage' && journalFile !== undefined) result = await timeStage(csvFile, mapping, journalFile);
  else if (mode === 'pre-send' && journalFile !== undefined)
    result = await timePreSend(csvFile, mapping, mappingFile, journalFile);
  else if (mode === 'csv-parse') result = await timeCsvParse(csvFile, mapping);
  else
    throw new Error(
      `stage-worker.js: expected "stage <csv> <mapping> <journal>" or "csv-parse <csv> <mapping>", got ${argv.join(' ')}`,
    );
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main(process.argv.slice(2));
