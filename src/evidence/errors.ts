/**
 * Every way an evidence cell can fail its client-side checks, as a value (row failures are values,
 * only run failures are thrown). Codes are stable: the results CSV's `error_code` carries them and
 * staff filter on them. Messages read "evidence <cell>: expected …, got …" and never quote the
 * file's contents, which may hold card data.
 */

export const evidenceErrorCodes = [
  'evidence_path_empty',
  'evidence_path_invalid',
  'evidence_path_outside',
  'evidence_not_found',
  'evidence_not_a_file',
  'evidence_unreadable',
  'evidence_empty',
  'evidence_too_large',
  'evidence_type_unsupported',
  'evidence_pdf_unreadable',
  'evidence_pdf_too_complex',
  'evidence_pdf_no_pages',
  'evidence_pdf_too_many_pages',
] as const;
/**
 * The codes only a cell holding an address (`s3://…`, `https://…`) can get, beside the ones it
 * shares with files (src/evidence/remote).
 */
export const addressErrorCodes = ['evidence_not_allowed'] as const;
export type EvidenceErrorCode = (typeof evidenceErrorCodes)[number] | (typeof addressErrorCodes)[number];

export interface EvidenceFailure {
  ok: false;
  code: EvidenceErrorCode;
  message: string;
}

function failure(code: EvidenceErrorCode, cell: string, expected: string, got: string): EvidenceFailure {
  return { ok: false, code, message: `evidence ${showCell(cell)}: expected ${expected}, got ${got}` };
}

/**
 * Where evidence was looked for, as the user can change it: the folder, absolute, and whether
 * `--evidence-dir` named it or it is the default (the export's folder). Unknown when a caller
 * (the library, the review) does not say.
 */
export type EvidenceDirSetBy = 'flag' | 'default' | undefined;

/** `/data/evidence (set by --evidence-dir)`: the folder searched, and how to search another. */
export function describeEvidenceDir(evidenceDir: string, setBy: EvidenceDirSetBy): string {
  // An s3:// evidence folder is a key prefix in a bucket: said so, since nothing there is a folder.
  const prefix = evidenceDir.startsWith('s3://');
  const shown = prefix ? `the prefix ${evidenceDir}` : evidenceDir;
  if (setBy === 'flag') return `${shown} (set by --evidence-dir)`;
  if (setBy === 'default')
    return `${shown} (the default, the export's ${prefix ? 'prefix' : 'folder'}; set another with --evidence-dir)`;
  return shown;
}

const insideExpected = (where: string | undefined) =>
  where === undefined ? 'a path inside the evidence directory' : `a path inside the evidence directory ${where}`;

export const pathEmpty = (cell: string): EvidenceFailure =>
  failure('evidence_path_empty', cell, 'a path relative to the evidence directory', 'an empty cell');

/** `got` says what is wrong with the path as text: a NUL character, a path too long. */
export const pathInvalid = (cell: string, got: string): EvidenceFailure =>
  failure('evidence_path_invalid', cell, 'a path the file system can hold', got);

/** `where` is describeEvidenceDir's: the folder, and how it was chosen. */
export const pathAbsolute = (cell: string, where?: string): EvidenceFailure =>
  failure('evidence_path_outside', cell, insideExpected(where), 'an absolute path');

export const pathLeaves = (cell: string, where?: string): EvidenceFailure =>
  failure('evidence_path_outside', cell, insideExpected(where), 'one that leaves it');

export const pathLinksOutside = (cell: string, where?: string): EvidenceFailure =>
  failure('evidence_path_outside', cell, insideExpected(where), 'a symbolic link that leads outside it');

/** Names the folder searched: a file "not found" is most often a folder not the one meant. */
export const notFound = (cell: string, where?: string): EvidenceFailure =>
  failure(
    'evidence_not_found',
    cell,
    'an existing file in the evidence directory',
    where === undefined ? 'no such file' : `no such file in ${where}`,
  );

/** An object or a document its store or server says is not there. */
export const addressNotFound = (cell: string, expected: string, got: string): EvidenceFailure =>
  failure('evidence_not_found', cell, expected, got);

/**
 * An address the mapping's evidence_sources (or the s3:// evidence folder) does not allow, or one no
 * link may reach: nothing was fetched from it.
 */
export const notAllowed = (cell: string, expected: string, got: string): EvidenceFailure =>
  failure('evidence_not_allowed', cell, expected, got);

export const notAFile = (cell: string, kind: string): EvidenceFailure =>
  failure('evidence_not_a_file', cell, 'a regular file', kind);

export const unreadable = (cell: string, reason: string): EvidenceFailure =>
  failure('evidence_unreadable', cell, 'a readable file', reason);

export const fileEmpty = (cell: string): EvidenceFailure =>
  failure('evidence_empty', cell, 'a file with content', '0 bytes');

/** `sizeBytes` is exact when known; `orMore` when reading stopped at the limit. */
export const fileTooLarge = (cell: string, limitBytes: number, sizeBytes: number, orMore: boolean): EvidenceFailure =>
  failure(
    'evidence_too_large',
    cell,
    `under ${formatMegabytes(limitBytes)}`,
    `${formatBytes(sizeBytes)}${orMore ? ' or more' : ''}`,
  );

export const typeUnsupported = (cell: string, contentKind: 'text' | 'binary'): EvidenceFailure =>
  failure(
    'evidence_type_unsupported',
    cell,
    'a JPEG, PNG or PDF file (decided by its content, not its name)',
    contentKind === 'text' ? 'text' : 'binary content of another type',
  );

/** `reason` comes from the PDF parser and describes structure, never content. */
export const pdfUnreadable = (cell: string, reason: string): EvidenceFailure =>
  failure('evidence_pdf_unreadable', cell, 'a readable PDF document', reason);

/**
 * Reading the PDF would pass one of the limits that keep a hostile file from taking the process's
 * memory or time (src/files/pdf-complexity-limits.ts); the sandbox refuses it the same way.
 */
export const pdfTooComplex = (cell: string, expected: string, got: string): EvidenceFailure =>
  failure('evidence_pdf_too_complex', cell, expected, got);

/** The sandbox refuses a PDF without pages too; refusing it here saves a doomed upload. */
export const pdfNoPages = (cell: string): EvidenceFailure =>
  failure('evidence_pdf_no_pages', cell, 'at least 1 PDF page', '0');

export const pdfTooManyPages = (cell: string, maxPages: number, pageCount: number): EvidenceFailure =>
  failure('evidence_pdf_too_many_pages', cell, `at most ${maxPages} PDF pages`, String(pageCount));

/**
 * The cell as the user wrote it, so it can be found in the source file; quoted and cut short
 * when it holds control characters or is long, so a message stays one readable line.
 */
export function showCell(cell: string, maxLength = 200): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  if (cell.length <= maxLength && !/[\x00-\x1f\x7f]/.test(cell) && cell.trim() === cell && cell !== '') return cell;
  return JSON.stringify(cell.length > maxLength ? `${cell.slice(0, maxLength)}…` : cell);
}

function formatBytes(bytes: number): string {
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/** Decimal megabytes, as the service's upload limit "under 4.5 MB" means them. */
function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 3 })} MB`;
}
