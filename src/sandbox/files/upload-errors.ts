import { validationError, type SandboxHttpError, type ValidationItem } from '../http/errors.js';

/**
 * Every way an upload to POST /v2/issuer/files can be refused, as the service's validation item
 * (`code`, `details.field`, `message`). Codes are stable: clients and tests branch on them.
 * Messages read "what: expected …, got …", as every error message of this project does.
 */

export const uploadErrorCodes = [
  'content_type_invalid',
  'multipart_malformed',
  'parts_too_many',
  'body_too_large',
  'parameter_unknown',
  'category_missing',
  'category_invalid',
  'file_missing',
  'file_too_many',
  'file_empty',
  'file_too_large',
  'file_type_unsupported',
  'pdf_unreadable',
  'pdf_too_complex',
  'pdf_no_pages',
  'pdf_too_many_pages',
] as const;
export type UploadErrorCode = (typeof uploadErrorCodes)[number];

export interface UploadIssue extends ValidationItem {
  code: UploadErrorCode;
  details: { field: string };
}

function issue(code: UploadErrorCode, field: string, expected: string, got: string): UploadIssue {
  return { code, details: { field }, message: `${field}: expected ${expected}, got ${got}` };
}

/** One issue is its own headline; several are listed, so the top message alone says it all. */
export function refuseUpload(issues: readonly UploadIssue[]): SandboxHttpError {
  const message = issues.length === 1 && issues[0] ? issues[0].message : issues.map((item) => item.message).join('; ');
  return validationError(message, [...issues]);
}

export const contentTypeInvalid = (got: string | undefined): UploadIssue =>
  issue(
    'content_type_invalid',
    'content-type',
    'multipart/form-data with a boundary',
    got === undefined ? 'no content-type header' : quote(got),
  );

export const multipartMalformed = (reason: string): UploadIssue =>
  issue('multipart_malformed', 'body', 'a well-formed multipart/form-data body', reason);

export const partsTooMany = (got: string): UploadIssue =>
  issue('parts_too_many', 'body', 'the parts file and category only', got);

export const bodyTooLarge = (maxBodyBytes: number): UploadIssue =>
  issue('body_too_large', 'body', `at most ${maxBodyBytes.toLocaleString('en-US')} bytes in all`, 'more');

export const parameterUnknown = (name: string | undefined): UploadIssue =>
  issue(
    'parameter_unknown',
    name ?? 'body',
    'only the parts file and category',
    name === undefined ? 'a part without a name' : `a part named ${quote(name)}`,
  );

export const categoryMissing = (allowed: readonly string[]): UploadIssue =>
  issue('category_missing', 'category', `one of ${allowed.join(', ')}`, 'no category part');

export const categoryInvalid = (allowed: readonly string[], got: string): UploadIssue =>
  issue('category_invalid', 'category', `one of ${allowed.join(', ')}`, got);

export const fileMissing = (sentAsPlainField: boolean): UploadIssue =>
  issue(
    'file_missing',
    'file',
    'a file part (a part named file with a filename)',
    sentAsPlainField ? 'a plain field named file without a filename' : 'no file part',
  );

export const fileTooMany = (): UploadIssue => issue('file_too_many', 'file', 'one file part', 'more than one');

export const fileEmpty = (filename: string): UploadIssue =>
  issue('file_empty', 'file', 'a file with content', `0 bytes named ${quote(filename)}`);

/** The limit is decimal megabytes: the service's limit is "under 4.5 MB", 4,500,000 bytes. */
export const fileTooLarge = (maxFileBytes: number): UploadIssue =>
  issue(
    'file_too_large',
    'file',
    `under ${formatMegabytes(maxFileBytes)}`,
    `${maxFileBytes.toLocaleString('en-US')} bytes or more`,
  );

export const fileTypeUnsupported = (contentDescription: string, filename: string): UploadIssue =>
  issue(
    'file_type_unsupported',
    'file',
    'a JPEG, PNG or PDF file (decided by its content)',
    `${contentDescription} named ${quote(filename)}`,
  );

export const pdfUnreadable = (reason: string): UploadIssue =>
  issue('pdf_unreadable', 'file', 'a readable PDF document', reason);

/** A limit that keeps a hostile file from taking the sandbox's memory or time (src/files/pdf-complexity-limits.ts). */
export const pdfTooComplex = (expected: string, got: string): UploadIssue =>
  issue('pdf_too_complex', 'file', expected, got);

export const pdfNoPages = (): UploadIssue => issue('pdf_no_pages', 'file', 'at least 1 PDF page', '0');

export const pdfTooManyPages = (maxPages: number, pageCount: number): UploadIssue =>
  issue('pdf_too_many_pages', 'file', `at most ${maxPages} PDF pages`, String(pageCount));

/** Client-chosen text in a message: quoted, escaped, and cut short so it cannot flood the answer. */
export function quote(text: string, maxLength = 100): string {
  return JSON.stringify(text.length > maxLength ? `${text.slice(0, maxLength)}…` : text);
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 3 })} MB`;
}
