import { uploadCategories } from '../../api/schemas/known-values.js';
import { maxPdfPages } from '../../files/limits.js';
import { countPdfPages, PdfTooComplexError, PdfUnreadableError } from '../../files/pdf-pages.js';
import { describeContent, detectFileType, pdfHeaderWindowBytes, type SniffedType } from '../../files/sniff.js';
import { contentHead, type FileContent } from './file-content.js';
import {
  categoryInvalid,
  categoryMissing,
  fileEmpty,
  fileMissing,
  fileTypeUnsupported,
  pdfNoPages,
  pdfTooComplex,
  pdfTooManyPages,
  pdfUnreadable,
  quote,
  refuseUpload,
  type UploadIssue,
} from './upload-errors.js';

/**
 * The decisions about an upload once its parts are in memory: no streams, no sockets, so every
 * rule is tested with plain values. receive-upload.ts gathers the parts within the size limits,
 * the file's content already hashed as it arrived (file-content.ts).
 */

export type UploadCategory = (typeof uploadCategories)[number];

/** Interface document, Limits: "PDF length: at most 5 pages" (src/files/limits.ts, shared with the import). */
export { maxPdfPages };

/** What the parser gathered from the multipart body. */
export interface CollectedParts {
  /**
   * Every `category` part received, in order: `truncated` when it exceeded the field size,
   * `sentAsFile` when it came with a filename (its content is then not read).
   */
  categories: { value: string; truncated: boolean; sentAsFile?: boolean }[];
  /** The first part named `file` that came with a filename. */
  file?: { filename: string; content: FileContent };
  /** A part named `file` arrived without a filename, so it was a plain field, not a file. */
  fileSentAsPlainField: boolean;
  /** Problems the parser noticed on the way: unknown parts, too many parts. */
  issues: UploadIssue[];
}

export interface ReceivedUpload {
  category: UploadCategory;
  /** As the client named it (without any path); never used to decide the type. */
  filename: string;
  /** Sniffed from the bytes; the part's declared content type is ignored. */
  contentType: SniffedType;
  content: FileContent;
  /** Lower-case hex SHA-256 of the content (hashed as it arrived): its address. */
  sha256: string;
  /** PDFs only. */
  pageCount?: number;
}

/** Accepts the upload or throws one 400 listing every problem found. */
export async function checkUpload(parts: CollectedParts): Promise<ReceivedUpload> {
  const category = checkCategory(parts.categories);
  const file =
    parts.file === undefined ? { issue: fileMissing(parts.fileSentAsPlainField) } : await checkFile(parts.file);
  const issues = [...parts.issues];
  if ('issue' in category) issues.push(category.issue);
  if ('issue' in file) issues.push(file.issue);
  if ('issue' in category || 'issue' in file || issues.length > 0) throw refuseUpload(issues);

  return { category: category.value, ...file, sha256: file.content.sha256 };
}

type Checked<T> = T | { issue: UploadIssue };

function checkCategory(values: CollectedParts['categories']): Checked<{ value: UploadCategory }> {
  const [first, ...others] = values;
  if (first === undefined) return { issue: categoryMissing(uploadCategories) };
  // Two values leave the category ambiguous; the service would have to guess which one counts.
  if (others.length > 0) return { issue: categoryInvalid(uploadCategories, `${values.length} category parts`) };
  if (first.sentAsFile) return { issue: categoryInvalid(uploadCategories, 'a file part instead of a plain field') };
  if (first.truncated) return { issue: categoryInvalid(uploadCategories, 'a value too long to be a category') };
  if (!isUploadCategory(first.value)) return { issue: categoryInvalid(uploadCategories, quote(first.value)) };
  return { value: first.value };
}

function isUploadCategory(value: string): value is UploadCategory {
  return (uploadCategories as readonly string[]).includes(value);
}

type CheckedFile = Pick<ReceivedUpload, 'filename' | 'content' | 'contentType' | 'pageCount'>;

async function checkFile({
  filename,
  content,
}: {
  filename: string;
  content: FileContent;
}): Promise<Checked<CheckedFile>> {
  if (content.size === 0) return { issue: fileEmpty(filename) };
  // Both read no further than the PDF header window (describeContent: its first 512 bytes).
  const head = contentHead(content, pdfHeaderWindowBytes);
  const contentType = detectFileType(head);
  if (contentType === undefined) return { issue: fileTypeUnsupported(describeContent(head), filename) };
  if (contentType !== 'application/pdf') return { filename, content, contentType };

  let pageCount: number;
  try {
    pageCount = await countPdfPages(content.pieces);
  } catch (error) {
    if (error instanceof PdfUnreadableError) return { issue: pdfUnreadable(error.reason) };
    if (error instanceof PdfTooComplexError) return { issue: pdfTooComplex(error.expected, error.got) };
    throw error;
  }
  if (pageCount === 0) return { issue: pdfNoPages() };
  if (pageCount > maxPdfPages) return { issue: pdfTooManyPages(maxPdfPages, pageCount) };
  return { filename, content, contentType, pageCount };
}
