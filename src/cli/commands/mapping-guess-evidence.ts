import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readdir } from 'node:fs/promises';
import { parseEvidenceCell } from '../../evidence/index.js';
import type { Draft } from '../../mapping/guess/index.js';

/**
 * The `--evidence-dir` of `mapping guess`'s next commands, when the draft maps evidence columns:
 * the import looks for evidence in the export's folder unless told, and a sample's paths are often
 * relative to a folder beside it. The folder is the export's own, or one of its subfolders, where
 * the sample's first evidence path is found; else a placeholder for the user to replace.
 */

export interface EvidenceDirNext {
  /** The flag's value: a folder, or the placeholder. */
  value: string;
  /** Said under the commands when the folder could not be found. */
  note?: string | undefined;
}

export const evidenceDirPlaceholder = 'EVIDENCE_DIR';

/** The sample's evidence paths, first ones first, as the import splits the cells. */
function samplePaths(draft: Draft, rows: readonly Readonly<Record<string, string>>[], limit = 20): string[] {
  const paths: string[] = [];
  for (const row of rows) {
    for (const entry of draft.evidence) {
      const cell = row[entry.column] ?? '';
      const parts = entry.separator === undefined ? [cell] : cell.split(entry.separator);
      paths.push(...parts.map((part) => part.trim()).filter((part) => part !== ''));
    }
    if (paths.length >= limit) break;
  }
  return paths.slice(0, limit);
}

async function holdsFile(folder: string, segments: readonly string[]): Promise<boolean> {
  return stat(join(folder, ...segments)).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** The export's folder, then its subfolders: where the import would be pointed. */
async function candidateFolders(exportDir: string): Promise<string[]> {
  const entries = await readdir(exportDir, { withFileTypes: true }).catch(() => []);
  const subfolders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(exportDir, entry.name))
    .sort();
  return [exportDir, ...subfolders];
}

/** Undefined when the draft maps no evidence column. */
export async function evidenceDirNext(
  samplePath: string,
  draft: Draft,
  rows: readonly Readonly<Record<string, string>>[],
): Promise<EvidenceDirNext | undefined> {
  if (draft.evidence.length === 0) return undefined;
  const exportDir = dirname(samplePath);
  // Paths the import would refuse (absolute, leaving the folder) say nothing about the folder.
  const usable = samplePaths(draft, rows).flatMap((path) => {
    const parsed = parseEvidenceCell(path);
    return parsed.ok ? [{ path, segments: parsed.segments }] : [];
  });
  for (const folder of await candidateFolders(exportDir))
    for (const { segments } of usable) if (await holdsFile(folder, segments)) return { value: folder };
  const example = usable[0]?.path;
  const what = example === undefined ? 'the evidence paths' : `the evidence paths (such as ${example})`;
  return {
    value: evidenceDirPlaceholder,
    note: `${evidenceDirPlaceholder}: the folder ${what} are relative to; none was found in ${exportDir} or a folder in it`,
  };
}
