import { cp, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * `mapping guess`'s next commands carry `--evidence-dir` when the draft maps evidence columns:
 * the folder the sample's evidence paths are found in (the export's own, or a folder in it), or a
 * placeholder, said, when none holds them (docs/mappings.md, "Onboarding a new export").
 */

const samples = fileURLToPath(new URL('../../samples/', import.meta.url));

/** The bundled export in a folder of its own; its evidence where `place` puts it. */
async function exportWithEvidence(place: 'evidence folder' | 'beside the export' | 'nowhere') {
  const folder = await temporaryFolder('bulk-disputes-guess-evidence-');
  const input = join(folder, 'export.csv');
  await copyFile(join(samples, 'generic-export.csv'), input);
  if (place === 'evidence folder') await cp(join(samples, 'evidence'), join(folder, 'evidence'), { recursive: true });
  if (place === 'beside the export') await cp(join(samples, 'evidence'), folder, { recursive: true });
  if (place === 'nowhere') await mkdir(join(folder, 'unrelated'));
  return { folder, input, draft: join(folder, 'draft.yaml') };
}

const nextLines = (stderr: string) => stderr.slice(stderr.indexOf('next:\n')).trimEnd().split('\n');

describe('mapping guess: --evidence-dir in the next commands', () => {
  it('the folder in the export folder that holds the evidence', async () => {
    const { folder, input, draft } = await exportWithEvidence('evidence folder');

    const guess = await runCli(['mapping', 'guess', input, '--out', draft]);

    expect(guess.exitCode, guess.stderr).toBe(0);
    const evidenceDir = join(folder, 'evidence');
    expect(nextLines(guess.stderr)).toEqual([
      'next:',
      `  bulk-disputes mapping explain ${draft} ${input} --line 2`,
      `  bulk-disputes import ${input} --mapping ${draft} --evidence-dir ${evidenceDir} --dry-run`,
    ]);
  });

  it("the export's own folder when the paths are found beside it", async () => {
    const { folder, input, draft } = await exportWithEvidence('beside the export');

    const guess = await runCli(['mapping', 'guess', input, '--out', draft]);

    expect(guess.exitCode, guess.stderr).toBe(0);
    expect(nextLines(guess.stderr)).toContain(
      `  bulk-disputes import ${input} --mapping ${draft} --evidence-dir ${folder} --dry-run`,
    );
  });

  it('a placeholder, and what to put in its place, when no folder holds them', async () => {
    const { folder, input, draft } = await exportWithEvidence('nowhere');

    const guess = await runCli(['mapping', 'guess', input, '--out', draft]);

    expect(guess.exitCode, guess.stderr).toBe(0);
    expect(nextLines(guess.stderr).slice(2)).toEqual([
      `  bulk-disputes import ${input} --mapping ${draft} --evidence-dir EVIDENCE_DIR --dry-run`,
      `  (EVIDENCE_DIR: the folder the evidence paths (such as correspondence/northwind-support-reply.png) are relative to; ` +
        `none was found in ${folder} or a folder in it)`,
    ]);
  });

  it('an export that names no evidence: no --evidence-dir', async () => {
    const folder = await temporaryFolder('bulk-disputes-guess-evidence-');
    const input = join(folder, 'export.csv');
    const records: string[][] = parse(await readFile(join(samples, 'generic-export.csv'), 'utf8'));
    const [header = [], ...rows] = records;
    const kept = header.flatMap((column, index) =>
      column.endsWith('_file') || column.endsWith('_files') ? [] : [index],
    );
    await writeFile(input, stringify([header, ...rows].map((row) => kept.map((index) => row[index] ?? ''))));

    const guess = await runCli(['mapping', 'guess', input]);

    expect(guess.exitCode, guess.stderr).toBe(0);
    expect(guess.stderr).toContain(`  bulk-disputes import ${input} --mapping DRAFT.yaml --dry-run`);
    expect(guess.stderr).not.toContain('--evidence-dir');
  });
});
