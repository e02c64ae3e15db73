import { open } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { CsvFormatError } from '../../csv/errors.js';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { maskCardNumbers } from '../../card-numbers/mask.js';
import { createDecoder } from '../../csv/decode.js';
import { sliceRecord, type SlicedRecord } from '../../csv/fixed-width/slice.js';
import { exportRows } from '../../import/export-records.js';
import { isResultsHeader } from '../../job-files/import/columns.js';
import { columnReadings } from '../../mapping/column-readings.js';
import { isWorkbookFile, readWorkbookRows } from '../../workbook/read-rows.js';
import { countLineBreaks, type CsvRow } from '../../csv/records.js';
import { explainRow } from '../../mapping/explain.js';
import { loadMapping, MappingError } from '../../mapping/load.js';
import type { Mapping } from '../../mapping/schema.js';
import type { CliContext } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { guessCommand } from './mapping-guess.js';
import { checkCommand } from './mapping-check.js';
import {
  explanationJson,
  formatExplanation,
  formatRecordOnly,
  formatLintSummary,
  formatUnreadableRecord,
  unreadableRecordJson,
  type ExplainedRecord,
} from './mapping-output.js';
import { codeOf } from '../../errors/coded-error.js';
import { exportLayout } from '../../import/export-layout.js';

interface ExplainFlags {
  line: number;
  sheet?: string;
  json?: boolean;
}

const lintHelp = `
Example:
  $ bulk-disputes mapping lint mappings/generic.yaml
  mappings/generic.yaml: ok
    description  A generic issuer export: one row per disputed transaction; ...
    csv          delimiter ',', quote '"', utf-8, header line
    claim        key dispute_ref; id from template "CLM-{dispute_ref}"
    fields       14 shared, 9 case, 1 custom, 2 evidence columns
    file_mode    auto
    card numbers masked in every column

Each problem goes to stderr as FILE:LINE: FIELD: MESSAGE. Exit 0 when every file is valid,
2 when any is not.
`;

const explainHelp = `
Example:
  $ bulk-disputes mapping explain mappings/generic.yaml export.csv --line 2
  export.csv:2 through mappings/generic.yaml
  claim key: dispute_ref "D-100"

  shared.card.network from column "card_network"
    cell                  " VISA "
    trim                  "VISA"
    required              "VISA"
    case lower            "visa"
    = "visa"
  ...
  result: maps (claim key ["D-100"], claim id "CLM-D-100")

N is the physical line where the record starts, as an editor numbers it (the results CSV's
"line" column). Exit 0 when the row maps, 1 when it has field errors (all are listed), 2 when
the mapping or the file cannot be read, or no record starts at line N.
`;

/** `bulk-disputes mapping`: check a mapping file, or show what it does to one row (nothing is sent). */
export function mappingCommand(context: CliContext): Command {
  return new Command('mapping')
    .description(
      "check a mapping file and an export's header against it, show step by step how it maps one row of an export, " +
        'or draft one from a sample',
    )
    .addCommand(nested(context, lintCommand(context)))
    .addCommand(nested(context, checkCommand(context)))
    .addCommand(nested(context, explainCommand(context)))
    .addCommand(nested(context, guessCommand(context)));
}

/** Subcommands added with addCommand inherit nothing: they must not exit the process, and write to io. */
function nested(context: CliContext, command: Command): Command {
  return command.exitOverride().configureOutput({
    writeOut: (text) => context.io.stdout.write(text),
    writeErr: (text) => context.io.stderr.write(text),
  });
}

function lintCommand(context: CliContext): Command {
  return new Command('lint')
    .description('load and validate mapping files; print a summary of each valid one')
    .argument('<files...>', 'mapping files (.yaml or .json)')
    .addHelpText('after', lintHelp)
    .action(async (files: string[]) => {
      let allValid = true;
      for (const file of files) {
        try {
          context.io.stdout.write(formatLintSummary(file, await loadMapping(file)));
        } catch (error) {
          if (!(error instanceof MappingError)) throw error;
          allValid = false;
          // MappingError's message is already one FILE:LINE: FIELD: MESSAGE line per issue.
          context.io.stderr.write(`${error.message}\n`);
        }
      }
      context.setExitCode(allValid ? ExitCode.ok : ExitCode.usage);
    });
}

function explainCommand(context: CliContext): Command {
  return new Command('explain')
    .description('show how the mapping turns one record of INPUT into claim fields, step by step')
    .argument('<file>', 'mapping file (.yaml or .json)')
    .argument('<input>', "CSV export, read with the mapping's csv dialect, or a workbook (.xlsx)")
    .requiredOption(
      '--line <N>',
      "the line where the record starts (1 is the first line of the file; a workbook's row number)",
      lineNumber,
    )
    .option('--sheet <name>', 'a workbook input: the sheet to read (default: its first)')
    .option('--json', 'print one JSON document instead of text')
    .addHelpText('after', explainHelp)
    .action(async (file: string, input: string, flags: ExplainFlags) => {
      const mapping = await loadMapping(file);
      if (flags.sheet !== undefined && !isWorkbookFile(input))
        throw new UsageError(`--sheet ${flags.sheet}: expected a workbook input (.xlsx), got ${input}`);
      const sliced = isWorkbookFile(input) ? undefined : await slicedLine(input, mapping, flags.line);
      const record: ExplainedRecord = {
        mapping: file,
        input,
        line: flags.line,
        workbook: isWorkbookFile(input) ? { sheet: flags.sheet } : undefined,
        fixedWidth: sliced,
      };
      // A header, trailer or ignored record is read for its fields, never a row: its slices are all there is.
      if (sliced !== undefined && sliced.role !== 'detail') {
        context.io.stdout.write(flags.json ? explanationJson(record, undefined) : formatRecordOnly(record, sliced));
        context.setExitCode(sliced.role === undefined ? ExitCode.someRowsNotOk : ExitCode.ok);
        return;
      }
      const row = await findRecord(input, mapping, flags);
      if ('error' in row) {
        context.io.stdout.write(
          flags.json ? unreadableRecordJson(record, row.error) : formatUnreadableRecord(record, row.error),
        );
        context.setExitCode(ExitCode.someRowsNotOk);
        return;
      }
      const explanation = explainRow(row.cells, mapping);
      context.io.stdout.write(
        flags.json ? explanationJson(record, explanation) : formatExplanation(record, explanation),
      );
      context.setExitCode(explanation.ok ? ExitCode.ok : ExitCode.someRowsNotOk);
    });
}

function lineNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a line number from 1, got ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * Line `line` of a fixed-width file cut by the mapping's layout (docs/mappings.md, "Fixed-width
 * files and control records"); undefined for a CSV, and for one of our results files fed back.
 */
async function slicedLine(input: string, mapping: Mapping, line: number): Promise<SlicedRecord | undefined> {
  const layout = mapping.fixed_width;
  if (layout === undefined) return undefined;
  const decoded = createReadStream(input).pipe(createDecoder(layout.encoding));
  const lines = createInterface({ input: decoded, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number++;
      if (number === 1 && isResultsHeader(text.split(mapping.csv.delimiter))) return undefined;
      if (number === line) return maskedSlices(sliceRecord(layout, text), mapping);
    }
  } finally {
    lines.close();
    decoded.destroy();
  }
  return undefined;
}

/** A record's fields as explain shows them: card numbers masked, as in its cells (but in `not_card_numbers`). */
function maskedSlices(sliced: SlicedRecord, mapping: Mapping): SlicedRecord {
  const kept = new Set(mapping.not_card_numbers ?? []);
  return {
    ...sliced,
    fields: sliced.fields.map((field) =>
      kept.has(field.name) ? field : { ...field, text: maskCardNumbers(field.text) },
    ),
  };
}

/** The record that starts at `line`, read with the mapping's dialect; any other line is a usage error naming what it is. */
async function findRecord(input: string, mapping: Mapping, { line, sheet }: ExplainFlags): Promise<CsvRow> {
  const handle = await open(input, 'r').catch((error: unknown) => {
    throw new UsageError(`${input}: expected a readable CSV or .xlsx file, got ${codeOf(error) ?? String(error)}`, {
      cause: error,
    });
  });
  let previous: CsvRow | undefined;
  // A workbook is read by name (exceljs opens it); the handle only proved it readable.
  if (isWorkbookFile(input)) await handle.close();
  const rows = isWorkbookFile(input)
    ? readWorkbookRows(input, { sheet, readings: columnReadings(mapping), ...exportLayout(mapping) })
    : exportRows(handle.createReadStream(), mapping);
  try {
    // Returning from the loop ends the reader, which stops the parser and closes the file.
    for await (const row of rows) {
      if (row.line === line) return row;
      if (row.line > line) throw notARecordStart(input, line, previous, row);
      previous = row;
    }
  } catch (error) {
    if (error instanceof CsvFormatError)
      throw new UsageError(`${input}: ${error.message} (${error.code})`, { cause: error });
    throw error;
  }
  throw notARecordStart(input, line, previous, undefined);
}

/** Line `line` lies before `next` (or past the last record) and after `previous`, if any. */
function notARecordStart(
  input: string,
  line: number,
  previous: CsvRow | undefined,
  next: CsvRow | undefined,
): UsageError {
  const expected = `${input}:${line}: expected the first line of a record`;
  if (previous === undefined && next !== undefined)
    return new UsageError(`${expected}, got the header (the first record starts at line ${next.line})`);
  if (previous === undefined)
    return new UsageError(
      line === 1
        ? `${expected}, got the header (the file has no records)`
        : `${expected}, got a line past the end (the file has no records)`,
    );
  // The last record may span lines (a quoted value with line breaks): its end is its start plus those.
  const previousEnd =
    next === undefined ? previous.line + ('error' in previous ? 0 : countLineBreaks(previous.raw)) : next.line - 1;
  if (line <= previousEnd)
    return new UsageError(`${expected}, got a line inside the record that starts at line ${previous.line}`);
  return new UsageError(`${expected}, got a line past the end (the last record starts at line ${previous.line})`);
}
