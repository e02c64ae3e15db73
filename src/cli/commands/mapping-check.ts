import { Command } from 'commander';
import { checkInputHeader, type InputHeaderFit } from '../../import/input-header.js';
import { checkInputControls, ControlMismatchError } from '../../import/check-controls.js';
import { HeaderMismatchError } from '../../mapping/header-fit.js';
import { loadMapping, MappingError } from '../../mapping/load.js';
import { isWorkbookFile } from '../../workbook/read-rows.js';
import type { CliContext } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';
import { requireFile } from './required-paths.js';
import { formatLintSummary } from './mapping-output.js';
import { fileSource, type ByteSource } from '../../files/byte-source.js';
import { isObjectAddress, parseObjectAddress } from '../../storage/object-address.js';
import { objectSource } from '../../storage/object-source.js';
import { ObjectStore } from '../../storage/object-store.js';
import { storeSettingsOf } from '../../storage/store-settings.js';

interface CheckFlags {
  input?: string;
  sheet?: string;
}

const checkHelp = `
Examples:
  $ bulk-disputes mapping check mappings/generic.yaml --input samples/generic-export.csv
  samples/generic-export.csv: the export's header has every column mappings/generic.yaml reads (22)

  $ bulk-disputes mapping check mappings/generic.yaml --input renamed.csv
  HEADER_MISMATCH: renamed.csv: the export's header lacks 1 column of the 22 that mappings/generic.yaml reads; ...
    the mapping's column "reason_code" (shared.dispute.reason) is not in the export's header; did you mean "Reason Code"?
    the header's columns the mapping does not name: "Reason Code"
    ...

The import runs the same check before it stages a row (docs/mappings.md, "When the header does not
fit"). Without --input, the mapping alone is checked, as mapping lint does. Exit 0 when the mapping
is valid and the header fits, 2 when not (nothing is read past the header, nothing is sent).
`;

/** `bulk-disputes mapping check MAPPING --input EXPORT`: whether an export's header fits the mapping, without importing. */
export function checkCommand(context: CliContext): Command {
  return new Command('check')
    .description("check a mapping file, and that an export's header has every column it reads, without importing")
    .argument('<mapping>', 'mapping file (.yaml or .json)')
    .option(
      '--input <file>',
      "the export (CSV, read in the mapping's dialect, or .xlsx) or a results file fed back; a local file or s3://bucket/key",
    )
    .option('--sheet <name>', 'a workbook input: the sheet to read (default: its first)')
    .addHelpText('after', checkHelp)
    .action(async (file: string, flags: CheckFlags) => {
      const mapping = await loadMappingOrSay(file, context);
      if (mapping === undefined) return;
      if (flags.input === undefined) {
        context.io.stdout.write(formatLintSummary(file, mapping));
        context.setExitCode(ExitCode.ok);
        return;
      }
      if (flags.sheet !== undefined && !isWorkbookFile(flags.input))
        throw new UsageError(`--sheet ${flags.sheet}: expected a workbook input (.xlsx), got ${flags.input}`);
      const store = isObjectAddress(flags.input)
        ? new ObjectStore(storeSettingsOf(context.io.env), { network: { env: context.io.env } })
        : undefined;
      try {
        const input = await inputOf(flags.input, store);
        const fit = await checkInputHeader({ input, sheet: flags.sheet, mapping, mappingFile: file });
        context.io.stdout.write(formatFit(flags.input, file, fit));
        // The trailers too, as the import checks them before anything is staged.
        if (mapping.controls !== undefined || mapping.fixed_width !== undefined) {
          await checkInputControls({ input, sheet: flags.sheet, mapping });
          if (mapping.controls !== undefined)
            context.io.stdout.write(`  its trailers' control figures agree with what each block holds\n`);
        }
        context.setExitCode(ExitCode.ok);
      } catch (error) {
        if (error instanceof HeaderMismatchError || error instanceof ControlMismatchError)
          context.io.stderr.write(`${error.code}: ${error.message}\n`);
        // A not_card_numbers name the header lacks: FILE:LINE: FIELD: MESSAGE, as mapping lint says it.
        else if (error instanceof MappingError) context.io.stderr.write(`${error.message}\n`);
        else throw error;
        context.setExitCode(ExitCode.usage);
      } finally {
        store?.close();
      }
    });
}

/** A local file, checked to be one; an object, identified once (its header and trailers are then read with ranged and streamed GETs). */
async function inputOf(input: string, store: ObjectStore | undefined): Promise<ByteSource> {
  if (store === undefined) {
    await requireFile(input, '--input', 'a readable CSV or .xlsx file');
    return fileSource(input);
  }
  return objectSource(store, await store.identify(parseObjectAddress(input, '--input')));
}

async function loadMappingOrSay(file: string, context: CliContext) {
  try {
    return await loadMapping(file);
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    context.io.stderr.write(`${error.message}\n`);
    context.setExitCode(ExitCode.usage);
    return undefined;
  }
}

/** A header that fits, in a sentence; then what the mapping leaves aside, when anything. */
function formatFit(input: string, mappingFile: string, fit: InputHeaderFit): string {
  const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');
  const lines = [`${input}: the ${fit.kind}'s header has every column ${mappingFile} reads (${fit.mapped})`];
  if (fit.absentOptional.length > 0)
    lines.push(`  absent, which optional_columns allows (read as blank cells): ${quoted(fit.absentOptional)}`);
  if (fit.unnamed.length > 0)
    lines.push(`  columns the mapping does not name (carried to the results unchanged): ${quoted(fit.unnamed)}`);
  return `${lines.join('\n')}\n`;
}
