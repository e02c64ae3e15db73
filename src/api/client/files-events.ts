import { z } from 'zod';
import { listPage, listQuery, type ListQuery } from '../schemas/list.js';
import { eventResponse, fileResponse, uploadFields, type UploadCategory } from '../schemas/resources.js';
import { encodeMultipart, type FilePart } from './multipart.js';
import { paginate } from './paginate.js';
import { checked, endpoint, queryOf } from './request-parts.js';
import type { Transport } from './transport.js';

const mediaType = z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, 'expected a media type such as application/pdf');

export interface UploadInput extends FilePart {
  category: UploadCategory;
}

/** POST /v2/issuer/files. Repeatable: a repeat at worst leaves an unused file behind. */
export class FilesEndpoints {
  constructor(private readonly transport: Transport) {}

  async upload(input: UploadInput) {
    const route = { method: 'POST', path: '/v2/issuer/files' } as const;
    const fields = checked(uploadFields, { category: input.category }, route);
    // The content type goes into a part header: a line break in it would forge another header.
    checked(mediaType, input.contentType, route);
    const body = encodeMultipart(fields, { file: input });
    return this.transport.send({ ...route, body, repeatable: true, response: fileResponse });
  }
}

const listEvents = {
  method: 'GET',
  path: '/v2/issuer/events',
  repeatable: true,
  response: listPage(eventResponse),
} as const;

/** GET /v2/issuer/events: the page-size parameter is `limit` (docs/interface.md). */
export class EventsEndpoints {
  constructor(private readonly transport: Transport) {}

  async list(query: ListQuery = {}) {
    return endpoint(this.transport, listEvents, { query: queryOf(listQuery, query) });
  }

  listAll(start: ListQuery = {}) {
    return paginate(async (cursor) => this.list(cursor), 'event_id', start);
  }
}
