import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeWorkspace } from '../import/e2e-fixtures.js';

/**
 * A file given as the mapping that is no mapping (the export, an empty file, a list, a workbook,
 * random bytes) is told in one sentence on the terminal, exit 2, before anything is read or sent
 * (docs/mappings.md, "Checking a mapping").
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const sampleExport = join(repoRoot, 'samples/generic-export.csv');
const genericMapping = join(repoRoot, 'mappings/generic.yaml');
const onTerminal = ['--log-format', 'pretty'];
const expected =
  'not a mapping file: expected a YAML mapping of keys such as csv, claim and shared (mappings/README.md), got';
const swapped = 'was the export given as the mapping (the input comes first, the mapping after --mapping)?';

async function importWithMapping(mapping: string, input = sampleExport) {
  return runCli([...onTerminal, 'import', input, '--mapping', mapping, '--dry-run'], {
    CLAIMS_API_KEY: 'test_key_0001',
  });
}

describe('a file that is not a mapping says so in one sentence', () => {
  it('the export given as the mapping, the input and --mapping swapped', async () => {
    const workspace = await makeWorkspace();
    const csv = join(workspace.dir, 'contestazioni.csv');
    await copyFile(sampleExport, csv);

    const run = await importWithMapping(csv, genericMapping);

    expect(run.exitCode).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `bulk-disputes: MAPPING_INVALID: ${csv}: ${expected} what reads as a CSV export ` +
        `(a first line of 22 columns separated by ","); ${swapped}`,
    ]);
  });

  it.each([
    ['an empty file', 'empty.yaml', '', 'an empty file'],
    ['comments only', 'comments.yaml', '# to do\n', 'an empty file (or comments only)'],
    [
      'a JSON array',
      'claims.json',
      '[{"claim_id": "A"}, {"claim_id": "B"}]\n',
      'a list of 2 items (a JSON array or YAML sequence)',
    ],
    ['plain text', 'notes.txt', 'remember to map the reason codes\n', 'plain text, with no keys'],
    [
      'a semicolon CSV of one line',
      'header.csv',
      'pratica;data;importo;valuta\n',
      'what reads as a CSV export (a first line of 4 columns separated by ";"); ' + swapped,
    ],
  ])('%s', async (_name, fileName, content, got) => {
    const workspace = await makeWorkspace();
    const file = await workspace.write(fileName, content);

    const run = await importWithMapping(file);

    expect(run.exitCode).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([`bulk-disputes: MAPPING_INVALID: ${file}: ${expected} ${got}`]);
  });

  it('a workbook, a journal and random bytes: binary, by their first bytes', async () => {
    const workspace = await makeWorkspace();
    const cases: [string, Uint8Array, string][] = [
      [
        'export.xlsx',
        Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(60, 1)]),
        'a workbook or other zip archive (by its first bytes)',
      ],
      [
        'night.journal.sqlite',
        Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(80)]),
        "a SQLite database, such as a job's journal (by its first bytes)",
      ],
      ['noise.bin', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0xfe, 0x80, 0x81]), 'binary content, not text'],
    ];
    for (const [fileName, bytes, got] of cases) {
      const file = await workspace.write(fileName, bytes);
      const run = await importWithMapping(file);
      expect(run.exitCode, fileName).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        `bulk-disputes: MAPPING_INVALID: ${file}: ${expected} ${got}; ${swapped}`,
      ]);
    }
  });

  it('mapping lint says the same; a real mapping with a mistake keeps its field-by-field errors', async () => {
    const workspace = await makeWorkspace();
    const file = await workspace.write('empty.yaml', '');
    const lint = await runCli([...onTerminal, 'mapping', 'lint', file]);
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toContain(`${file}: ${expected} an empty file`);

    const mistaken = await workspace.write(
      'mistaken.yaml',
      'claim:\n  key: [dispute_ref]\nshared: {}\nfile_mode: sometimes\n',
    );
    const checked = await runCli([...onTerminal, 'mapping', 'lint', mistaken]);
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).not.toContain('not a mapping file');
    expect(checked.stderr).toContain(`${mistaken}:4: file_mode:`);
  });
});
