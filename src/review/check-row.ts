import { explainRow } from '../mapping/explain.js';
import { cardNumberColumnsSkipped, columnsSentWhole } from '../mapping/card-number-columns.js';
import { evidenceOf } from '../mapping/map-row.js';
import type { Mapping } from '../mapping/schema.js';
import { fieldColumns } from '../mapping/columns-read.js';
import { prepareRow, WireCheck } from '../staging/prepare-row.js';
import type { EvidenceFolder } from '../evidence/folder.js';
import { checkReviewEvidence } from './evidence-check.js';

/** One problem of a row, with the source columns a reviewer edits to fix it. */
export interface CellProblem {
  readonly field: string;
  readonly code: string;
  readonly message: string;
  readonly columns: readonly string[];
}

export interface RowCheck {
  readonly ok: boolean;
  readonly problems: readonly CellProblem[];
  /** What each mapped field gave, by its source column (the first, for a template): shown beside the cell. */
  readonly mapped: Readonly<Record<string, string>>;
}

/**
 * A row as the import would stage it: the import's own `prepareRow` (mapping, spreadsheet damage,
 * the new_claim wire schema) decides whether it passes, and `explainRow` (the same mapRow, with
 * every field's steps) lists every field's error and value, so the page can put each beside its
 * cell. Nothing is sent.
 */
export function checkRow(
  cells: Readonly<Record<string, string>>,
  mapping: Mapping,
  sourceColumns: readonly string[],
): RowCheck {
  const explained = explainRow(cells, mapping);
  const columnsOf = fieldColumns(mapping);
  const problems: CellProblem[] = explained.errors.map((error) => ({
    field: error.field,
    code: error.code,
    message: error.message,
    columns: columnsOf[error.field] ?? [],
  }));
  if (problems.length === 0) {
    // The file's columns, then any other cell the page sent: explainRow above read them all.
    const header = [...sourceColumns, ...Object.keys(cells).filter((column) => !sourceColumns.includes(column))];
    const raw = header.map((column) => cells[column] ?? '');
    const prepared = prepareRow(
      { line: 0, index: 0, raw },
      mapping,
      {
        header,
        resultsInput: false,
        statusCount: 0,
        unmaskedColumns: [...cardNumberColumnsSkipped(mapping, header)],
        sentWhole: columnsSentWhole(mapping, header),
      },
      new WireCheck(),
    );
    const problem = prepared.problem;
    if (problem !== undefined)
      problems.push({
        field: problem.field ?? '',
        code: problem.code,
        message: problem.message,
        columns: columnsOf[problem.field ?? ''] ?? [],
      });
  }
  const mapped: Record<string, string> = {};
  for (const field of explained.fields) {
    const [column] = columnsOf[field.field] ?? [];
    if (column !== undefined && field.result.ok && mapped[column] === undefined)
      mapped[column] = JSON.stringify(field.result.value);
  }
  return { ok: problems.length === 0, problems, mapped };
}

/**
 * `checkRow`, and each evidence file the row names checked as the import checks it (inside the
 * evidence directory or s3:// prefix, or allowed by the mapping's evidence_sources, readable, of an
 * accepted type and size): a path outside the directory is a problem of its cell, never a file read.
 */
export async function checkRowWithEvidence(
  cells: Readonly<Record<string, string>>,
  mapping: Mapping,
  sourceColumns: readonly string[],
  /** The import's evidence (resolveEvidence); a folder's path alone, every cell a path in it. */
  evidence: EvidenceFolder | string,
): Promise<RowCheck> {
  const folder = typeof evidence === 'string' ? { evidenceDir: evidence } : evidence;
  const checked = checkRow(cells, mapping, sourceColumns);
  const problems = [...checked.problems];
  for (const { path, column } of evidenceOf(cells, mapping)) {
    const result = await checkReviewEvidence(folder, path);
    if (!result.ok)
      problems.push({ field: `evidence.${column}`, code: result.code, message: result.message, columns: [column] });
  }
  return { ...checked, ok: problems.length === 0, problems };
}
