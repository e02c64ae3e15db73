import { receiveUpload } from '../files/receive-upload.js';
import type { HandlerCall, Reply } from '../http/routes.js';
import { insertFile } from '../store/records.js';

/**
 * POST /v2/issuer/files: checked while streaming (files/receive-upload.ts), then stored
 * content-addressed: the bytes once per sha256, a file record per upload. Answers 200
 * `{id, category, created, type}` with the type decided by the content.
 */
export async function uploadFile(call: HandlerCall): Promise<Reply> {
  const upload = await receiveUpload(call.request);
  const { core, environment } = call;
  return core.transaction(() => {
    const file = {
      environment,
      file_id: core.newId('file'),
      category: upload.category,
      type: upload.contentType,
      sha256: upload.sha256,
      size: upload.bytes.length,
      page_count: upload.pageCount ?? null,
      created: core.nowIso(),
    };
    insertFile(core.database, file, upload.bytes);
    return { status: 200, body: { id: file.file_id, category: file.category, created: file.created, type: file.type } };
  });
}
