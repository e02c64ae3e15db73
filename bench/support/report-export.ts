import { readFile, writeFile } from 'node:fs/promises';
import { genericMappingFile } from './paths.js';

/**
 * The stage benchmark's report: the same export with what a processor's report wraps its table
 * in (docs/mappings.md, "Reports with title lines, trailers and sections"): two title lines, a
 * trailer repeating the first, and the blank lines its generator pads the file with. Read through
 * mappings/generic.yaml with the `report` section that finds the table.
 */
const titleLines = ['EntityId=9100231,Frequency=daily', 'EntityId=9100231,ReportTypeName=DisputeDetails,Month=2026-11'];
const paddingLines = 5_000;

export async function writeReportExport(plainCsv: string, file: string): Promise<void> {
  const table = await readFile(plainCsv);
  await writeFile(
    file,
    Buffer.concat([
      Buffer.from(`${titleLines.join('\n')}\n`),
      table,
      Buffer.from(`${titleLines[0] ?? ''}\n${'\n'.repeat(paddingLines)}`),
    ]),
  );
}

export async function writeReportMapping(file: string): Promise<void> {
  const generic = await readFile(genericMappingFile, 'utf8');
  await writeFile(
    file,
    `${generic.trimEnd()}\n\n# The stage benchmark's report: its table under two title lines, above a trailer.\n` +
      `report:\n  header: { starts_with: "dispute_ref" }\n  trailer: { starts_with: "EntityId=" }\n`,
  );
}
