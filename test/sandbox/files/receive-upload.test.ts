import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { jpegBytes, pdfBytes, pngBytes } from './fixtures.js';
import { multipartBody, multipartContentType, partHead, type Part } from './multipart.js';
import { postUpload, startUploadServer } from './upload-server.js';
import { doublyDeflatedBomb } from '../../files/pdf-bombs.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const category = (value: string): Part => ({ name: 'category', content: value });
const file = (filename: string, content: Uint8Array | string, contentType = 'application/octet-stream'): Part => ({
  name: 'file',
  filename,
  contentType,
  content,
});

/** The one validation item of a 400, with the top message repeating it. */
function refusal(code: string, field: string, message: RegExp | string) {
  const matcher: unknown = typeof message === 'string' ? message : expect.stringMatching(message);
  return { status: 400, body: { message: matcher, errors: [{ code, details: { field }, message: matcher }] } };
}

describe('receiveUpload accepts', () => {
  it.each([
    ['PNG', 'receipt.png', pngBytes(), 'image/png'],
    ['JPEG', 'receipt.jpg', jpegBytes(), 'image/jpeg'],
  ])('a %s, typed by its content', async (_kind, filename, content, contentType) => {
    const server = await startUploadServer();
    // The declared part types are wrong on purpose: only the bytes decide.
    const answer = await postUpload(
      server.url,
      multipartBody([category('transaction_receipt'), file(filename, content, 'text/plain')]),
    );
    expect(answer).toMatchObject({
      status: 200,
      body: { category: 'transaction_receipt', contentType, size: content.length, sha256: sha256(content) },
    });
  });

  it('a 3-page PDF, counting its pages, with the category after the file', async () => {
    const server = await startUploadServer();
    const content = await pdfBytes(3);
    const answer = await postUpload(
      server.url,
      multipartBody([file('statement.bin', content), category('merchant_correspondence')]),
    );
    expect(answer).toMatchObject({
      status: 200,
      body: {
        category: 'merchant_correspondence',
        contentType: 'application/pdf',
        size: content.length,
        sha256: sha256(content),
        pageCount: 3,
      },
    });
  });

  it('a 5-page PDF: the limit is "at most 5 pages"', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('other'), file('five.pdf', await pdfBytes(5))]),
    );
    expect(answer).toMatchObject({ status: 200, body: { pageCount: 5 } });
  });

  it('the test-mode categories that force the documentation review', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('invalid_document'), file('a.png', pngBytes())]),
    );
    expect(answer).toMatchObject({ status: 200, body: { category: 'invalid_document' } });
  });

  it('a file one byte under the limit', async () => {
    const server = await startUploadServer({ maxFileBytes: 1000 });
    const content = Buffer.concat([pngBytes(), Buffer.alloc(999 - pngBytes().length, 1)]);
    const answer = await postUpload(server.url, multipartBody([category('other'), file('big.png', content)]));
    expect(answer).toMatchObject({ status: 200, body: { size: 999 } });
  });
});

describe('receiveUpload refuses', () => {
  it('a 6-page PDF', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([category('other'), file('six.pdf', await pdfBytes(6))]));
    expect(answer).toMatchObject(refusal('pdf_too_many_pages', 'file', 'file: expected at most 5 PDF pages, got 6'));
  });

  it('a 4.6 MB file, reading and dropping the last 0.1 MB so the client can finish sending', async () => {
    const server = await startUploadServer();
    const content = Buffer.concat([pngBytes(), Buffer.alloc(4_600_000, 0x41)]);
    const answer = await postUpload(server.url, multipartBody([category('other'), file('scan.png', content)]));
    expect(answer).toMatchObject(
      refusal('file_too_large', 'file', 'file: expected under 4.5 MB, got 4,500,000 bytes or more'),
    );
    expect(await answer.sent).toBeUndefined();
  });

  it('a file of exactly the limit: "under" excludes it', async () => {
    const server = await startUploadServer({ maxFileBytes: 1000 });
    const content = Buffer.concat([pngBytes(), Buffer.alloc(1000 - pngBytes().length, 1)]);
    const answer = await postUpload(server.url, multipartBody([category('other'), file('big.png', content)]));
    expect(answer).toMatchObject(
      refusal('file_too_large', 'file', 'file: expected under 0.001 MB, got 1,000 bytes or more'),
    );
  });

  it('a text file named .png, whatever its declared type', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('other'), file('notes.png', 'just some notes\n', 'image/png')]),
    );
    expect(answer).toMatchObject(
      refusal(
        'file_type_unsupported',
        'file',
        'file: expected a JPEG, PNG or PDF file (decided by its content), got text/plain-looking bytes named "notes.png"',
      ),
    );
  });

  it('an unknown category', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([category('selfie'), file('a.png', pngBytes())]));
    expect(answer).toMatchObject(
      refusal(
        'category_invalid',
        'category',
        /^category: expected one of counterfeit_evidence, .*, invalid_document, got "selfie"$/,
      ),
    );
  });

  it('a category sent as a file', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([file('a.png', pngBytes()), { name: 'category', filename: 'category.txt', content: 'other' }]),
    );
    expect(answer).toMatchObject(refusal('category_invalid', 'category', /got a file part instead of a plain field$/));
  });

  it('a missing category', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([file('a.png', pngBytes())]));
    expect(answer).toMatchObject(refusal('category_missing', 'category', /got no category part$/));
  });

  it('a request without a file part', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([category('other')]));
    expect(answer).toMatchObject(
      refusal(
        'file_missing',
        'file',
        'file: expected a file part (a part named file with a filename), got no file part',
      ),
    );
  });

  it('a file sent as a plain field, without a filename', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([category('other'), { name: 'file', content: 'abc' }]));
    expect(answer).toMatchObject(refusal('file_missing', 'file', /got a plain field named file without a filename$/));
  });

  it('an empty file', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(server.url, multipartBody([category('other'), file('empty.pdf', '')]));
    expect(answer).toMatchObject(
      refusal('file_empty', 'file', 'file: expected a file with content, got 0 bytes named "empty.pdf"'),
    );
  });

  it('bytes that start like a PDF but are not one', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('other'), file('fake.pdf', '%PDF-1.7\nnot really a pdf\n')]),
    );
    expect(answer).toMatchObject(refusal('pdf_unreadable', 'file', /^file: expected a readable PDF document, got /));
  });

  it('a PDF whose object stream inflates past the limit', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('other'), file('bomb.pdf', doublyDeflatedBomb(1 << 30))]),
    );
    expect(answer).toMatchObject(
      refusal(
        'pdf_too_complex',
        'file',
        /^file: expected object and cross-reference streams that decode to at most 8,000,000 bytes in all, got /,
      ),
    );
  });

  it('a second file part', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([category('other'), file('a.png', pngBytes()), file('b.png', pngBytes())]),
    );
    expect(answer).toMatchObject(refusal('file_too_many', 'file', 'file: expected one file part, got more than one'));
  });

  it('an unknown part, and lists every problem at once', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      multipartBody([{ name: 'purpose', content: 'x' }, file('a.txt', 'hello')]),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      errors: [
        { code: 'parameter_unknown', details: { field: 'purpose' } },
        { code: 'category_missing' },
        { code: 'file_type_unsupported' },
      ],
    });
  });

  it.each([
    [
      'a JSON body',
      { 'content-type': 'application/json' },
      '{"category":"other"}',
      'content-type: expected multipart/form-data with a boundary, got "application/json"',
    ],
    [
      'a urlencoded form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'category=other',
      /got "application\/x-www-form-urlencoded"$/,
    ],
    [
      'no content type',
      {},
      'hello',
      'content-type: expected multipart/form-data with a boundary, got no content-type header',
    ],
    [
      'multipart without a boundary',
      { 'content-type': 'multipart/form-data' },
      'hello',
      'content-type: expected multipart/form-data with a boundary, got "multipart/form-data"',
    ],
  ])('%s', async (_name, headers, body, message) => {
    const server = await startUploadServer();
    expect(await postUpload(server.url, Buffer.from(body), headers)).toMatchObject(
      refusal('content_type_invalid', 'content-type', message),
    );
  });

  it('a body cut off in the middle of the file', async () => {
    const server = await startUploadServer();
    const answer = await postUpload(
      server.url,
      Buffer.concat([partHead(category('other')), Buffer.from('other\r\n'), partHead(file('a.png', ''))]),
    );
    expect(answer).toMatchObject(
      refusal('multipart_malformed', 'body', /^body: expected a well-formed multipart\/form-data body, got /),
    );
  });

  it('junk after the closing delimiter beyond what any body needs', async () => {
    const server = await startUploadServer({ maxFileBytes: 1000 });
    const body = Buffer.concat([
      multipartBody([category('other'), file('a.png', pngBytes())]),
      Buffer.alloc(200_000, 0x41),
    ]);
    expect(await postUpload(server.url, body)).toMatchObject(
      refusal('body_too_large', 'body', 'body: expected at most 66,536 bytes in all, got more'),
    );
  });

  it('a client that never stops sending: answered, then cut off', async () => {
    const server = await startUploadServer({ maxFileBytes: 1000 });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    function* endless() {
      yield partHead(category('other'));
      yield Buffer.from('other\r\n');
      yield partHead(file('a.png', ''));
      for (;;) yield chunk;
    }
    const answer = await postUpload(server.url, { chunks: endless(), contentLength: 1e12 });
    expect(answer).toMatchObject(refusal('file_too_large', 'file', /^file: expected under 0.001 MB/));
    expect(await answer.sent).toBeInstanceOf(Error);
  });

  it('a client that goes away mid-body: the pipeline still settles', async () => {
    const server = await startUploadServer();
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /v2/issuer/files HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${multipartContentType}\r\ncontent-length: 100000\r\n\r\n`,
    );
    socket.end(
      Buffer.concat([partHead(category('other')), Buffer.from('other\r\n'), partHead(file('a.png', '')), pngBytes()]),
    );
    await vi.waitFor(() => {
      expect(server.answers).toEqual([
        refusal(
          'multipart_malformed',
          'body',
          'body: expected a well-formed multipart/form-data body, got a connection closed before the body ended',
        ),
      ]);
    });
  });
});
