import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

/** What one attempt's answer comes to: the status, the Retry-After it carried, the body read to the end. */
export interface CollectedResponse {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

/**
 * One request through undici's `dispatch`, its answer collected whole.
 *
 * undici's `request()` hands the body over as a Readable stream in an AsyncResource's scope, and
 * `body.text()` reads it back through the stream's events: about a tenth of the import's CPU per
 * claim at concurrency 64, for answers of a few kilobytes that are always read whole anyway. A
 * dispatch handler (undici docs, Dispatcher "Parameter: DispatchHandler") gets the same chunks
 * and errors without the stream. The body is still read to the end whatever the status, so the
 * connection goes back to the pool (undici README, "Garbage Collection"); an error (a reset, a
 * timeout, a refused connection) rejects with undici's own error object, as `request()` did.
 */
export async function collectResponse(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
): Promise<CollectedResponse> {
  return new Promise<CollectedResponse>((resolve, reject) => {
    dispatcher.dispatch(options, new Collector(resolve, reject, options.body));
  });
}

class Collector implements Dispatcher.DispatchHandler {
  private status = 0;
  private retryAfter: string | undefined;
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(
    private readonly resolve: (response: CollectedResponse) => void,
    private readonly reject: (error: unknown) => void,
    private readonly body: Dispatcher.DispatchOptions['body'],
  ) {}

  /** Present so undici takes this for a handler of its current interface (UnwrapHandler.unwrap looks for it). */
  onRequestStart(): void {
    // Nothing to do before the request is written.
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // A 1xx (informational) answer comes before the real one and carries no body of its own.
    if (statusCode < 200) return;
    this.status = statusCode;
    const retryAfter = headers['retry-after'];
    this.retryAfter = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
    this.chunks = [];
    this.length = 0;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    this.resolve({ status: this.status, retryAfter: this.retryAfter, text: decodeUtf8(this.chunks, this.length) });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    // A body sent as a stream (a multipart upload's pieces) is let go of, as request() does.
    if (isStream(this.body)) this.body.destroy();
    this.reject(error);
  }
}

/** As undici's `body.text()` decodes: UTF-8, a byte order mark skipped. */
function decodeUtf8(chunks: readonly Buffer[], length: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

function isStream(body: unknown): body is Readable {
  return (
    typeof (body as { pipe?: unknown } | null | undefined)?.pipe === 'function' &&
    typeof (body as { destroy?: unknown }).destroy === 'function'
  );
}
