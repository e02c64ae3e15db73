import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * `mapping check MAPPING --input EXPORT`: the import's header check, without importing
 * (docs/mappings.md, "When the header does not fit"). Exit 0 and a sentence when the header fits,
 * 2 with the import's lines when not; nothing else is read or written.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const genericMapping = join(root, 'mappings/generic.yaml');
const sample = join(root, 'samples/generic-export.csv');

/** The sample with its header edited by `edit`, its rows unchanged. */
async function sampleWithHeader(folder: string, edit: (header: string) => string): Promise<string> {
  const text = await readFile(sample, 'utf8');
  const end = text.indexOf('\n');
  const file = join(folder, 'export.csv');
  await writeFile(file, `${edit(text.slice(0, end))}${text.slice(end)}`);
  return file;
}

describe('bulk-disputes mapping check --input', () => {
  it('the sample fits its mapping: exit 0 and one sentence on stdout', async () => {
    const run = await runCli(['mapping', 'check', genericMapping, '--input', sample]);
    expect(run).toEqual({
      exitCode: 0,
      stdout: `${sample}: the export's header has every column ${genericMapping} reads (22)\n`,
      stderr: '',
    });
  });

  it("a renamed column: exit 2 with the import's lines, its nearest header named", async () => {
    const folder = await temporaryFolder('mapping-check-');
    const input = await sampleWithHeader(folder, (header) =>
      header.replace('reason_code', 'Reason Code').concat(',branch'),
    );
    const run = await runCli(['mapping', 'check', genericMapping, '--input', input]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      `HEADER_MISMATCH: ${input}: the export's header lacks 1 column of the 22 that ${genericMapping} reads; ` +
        'nothing was staged or sent',
      `  the mapping's column "reason_code" (shared.dispute.reason) is not in the export's header; did you mean "Reason Code"?`,
      `  the header's columns the mapping does not name: "Reason Code", "branch"`,
      "  rename the column in the mapping or in the file; a column that may be absent goes in the mapping's " +
        'optional_columns (docs/mappings.md)',
      '',
    ]);
  });

  it('a renamed column nothing is near: no guess', async () => {
    const folder = await temporaryFolder('mapping-check-');
    const input = await sampleWithHeader(folder, (header) => header.replace('cardholder_email', 'Courriel'));
    const run = await runCli(['mapping', 'check', genericMapping, '--input', input]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `  the mapping's column "cardholder_email" (shared.cardholder.email) is not in the export's header\n`,
    );
  });

  it('a tab-delimited export: names tab and the csv.delimiter to set', async () => {
    const folder = await temporaryFolder('mapping-check-');
    const text = await readFile(sample, 'utf8');
    const input = join(folder, 'export.tsv');
    // The sample's first lines, whose cells hold no comma, with tabs between them.
    await writeFile(input, `${text.split('\n').slice(0, 1).join('\n').replaceAll(',', '\t')}\n`);
    const run = await runCli(['mapping', 'check', genericMapping, '--input', input]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `HEADER_MISMATCH: ${input} looks tab-delimited: its header splits into 22 of the 22 columns the mapping ` +
        `reads with tab, but reads as 1 column with the mapping's ","; set csv.delimiter: "\\t" in ` +
        `${genericMapping}; nothing was staged or sent\n`,
    );
  });

  it('an optional column the export lacks fits, and says so', async () => {
    const folder = await temporaryFolder('mapping-check-');
    const mapping = join(folder, 'mapping.yaml');
    await writeFile(mapping, `${await readFile(genericMapping, 'utf8')}optional_columns: [cardholder_email]\n`);
    const input = await sampleWithHeader(folder, (header) => header.replace(',cardholder_email', ''));
    // The rows keep their cell: only the header matters here.
    const run = await runCli(['mapping', 'check', mapping, '--input', input]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      `${input}: the export's header has every column ${mapping} reads (22)`,
      '  absent, which optional_columns allows (read as blank cells): "cardholder_email"',
      '',
    ]);
  });

  it('without --input: the mapping alone, as lint checks it', async () => {
    const run = await runCli(['mapping', 'check', genericMapping]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`${genericMapping}: ok\n`);
  });

  it('an input that is not there: exit 2 naming it; nothing written beside it', async () => {
    const folder = await temporaryFolder('mapping-check-');
    const run = await runCli(['mapping', 'check', genericMapping, '--input', join(folder, 'none.csv')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`--input ${join(folder, 'none.csv')}: expected a readable CSV or .xlsx file`);
    expect(existsSync(join(folder, 'none.results.csv'))).toBe(false);
  });

  it('--help shows an example and says what the import does with the same check', async () => {
    const run = await runCli(['mapping', 'check', '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      '$ bulk-disputes mapping check mappings/generic.yaml --input samples/generic-export.csv',
    );
    expect(run.stdout).toContain('The import runs the same check before it stages a row');
  });
});
