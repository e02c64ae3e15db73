import { fileCategories, testFileCategories } from '../../api/schemas/known-values.js';
import { receiveUpload } from '../files/receive-upload.js';
import { validationError } from '../http/errors.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { insertFile } from '../store/records.js';

/**
 * POST /v2/issuer/files: checked while streaming (files/receive-upload.ts), then stored
 * content-addressed (store/blobs.ts): the bytes once per sha256, a file record per upload. Answers 200
 * `{id, category, created, type}` with the type decided by the content.
 */
export async function uploadFile(call: HandlerCall): Promise<Reply> {
  const upload = await receiveUpload(call.request);
  const { core, environment } = call;
  // The test-mode categories exist in the sandbox environment only (docs/sandbox.md, "Files").
  if (environment === 'production' && (testFileCategories as readonly string[]).includes(upload.category)) {
    throw validationError('file upload failed validation', [
      {
        code: 'category_invalid',
        details: { field: 'category' },
        message: `category: expected one of ${fileCategories.join(', ')} (test-mode categories need a test_ key), got ${upload.category}`,
      },
    ]);
  }
  // Written before the record that names it, both before the reply: an acknowledged upload survives a kill.
  const stored = await core.blobs.put(core.database, upload.sha256, upload.content);
  return core.transaction(() => {
    const file = {
      environment,
      file_id: core.newId('file'),
      category: upload.category,
      type: upload.contentType,
      sha256: upload.sha256,
      size: upload.content.size,
      page_count: upload.pageCount ?? null,
      created: core.nowIso(),
    };
    insertFile(core.database, file, stored);
    return { status: 200, body: { id: file.file_id, category: file.category, created: file.created, type: file.type } };
  });
}
