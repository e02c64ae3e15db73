import type { Readable } from 'node:stream';
import { fileSizeLimitBytes } from '../../files/limits.js';
import {
  ObjectNotFoundError,
  ObjectStoreCredentialsError,
  ObjectStoreUnavailableError,
  credentialsAlone,
  type ObjectStore,
} from '../../storage/object-store.js';
import { formatObjectAddress, type ObjectAddress } from '../../storage/object-address.js';
import { checkEvidenceContent, type EvidenceFileResult } from '../check-content.js';
import { addressNotFound, fileEmpty, fileTooLarge, unreadable, type EvidenceFailure } from '../errors.js';

/**
 * An evidence object, read as a file is (check-file.ts): one GET, its size from the answer's
 * headers before a byte of the body is read, so one at or over the limit is refused and its body
 * dropped unread; then at most the limit of bytes; then the same content checks. One request per
 * document, not a HEAD and a GET: the store's own pace is what a night from a bucket waits on.
 * A missing object is the row's problem; credentials refused, or a store that does not answer,
 * stop the run (thrown).
 */
export async function readEvidenceObject(
  store: ObjectStore,
  address: ObjectAddress,
  cell: string,
): Promise<EvidenceFileResult> {
  let got: { identity: { size: number }; body: Readable };
  try {
    got = await store.get(address);
  } catch (error) {
    return await objectFailure(error, store, address, cell);
  }
  const { identity, body } = got;
  if (identity.size >= fileSizeLimitBytes || identity.size === 0) {
    body.destroy();
    return identity.size === 0 ? fileEmpty(cell) : fileTooLarge(cell, fileSizeLimitBytes, identity.size, false);
  }
  const bytes = await readBounded(body, address);
  if (bytes === undefined) return fileTooLarge(cell, fileSizeLimitBytes, fileSizeLimitBytes, true);
  return checkEvidenceContent(bytes, cell);
}

/** The body, or undefined once it reaches the limit (the stream is then closed, not read on). */
async function readBounded(body: Readable, address: ObjectAddress): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size >= fileSizeLimitBytes) {
        body.destroy();
        return undefined;
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    throw new ObjectStoreUnavailableError(
      `${formatObjectAddress(address)}: expected the object's bytes, got the connection cut after ${String(size)}: run the same command again`,
      { cause: error },
    );
  }
  return Buffer.concat(chunks, size);
}

/**
 * A failure of the store as the row's or the run's. A bare 403 (a HEAD has no body to say why)
 * may be credentials gone bad (a token expired mid-run) or an object these credentials may not
 * read: the store is asked again with a list under the object's prefix, whose refusal names its
 * reason; only a refusal of the credentials themselves stops the run.
 */
async function objectFailure(
  error: unknown,
  store: ObjectStore,
  address: ObjectAddress,
  cell: string,
): Promise<EvidenceFailure> {
  if (error instanceof ObjectNotFoundError) {
    if (statusOf(error.cause) === 412)
      return unreadable(cell, `an object replaced while it was read (${formatObjectAddress(address)}): run again`);
    return addressNotFound(cell, 'an existing object', `no object ${formatObjectAddress(address)}`);
  }
  if (error instanceof ObjectStoreCredentialsError) {
    const name = error.cause instanceof Error ? error.cause.name : '';
    if (credentialsAlone.includes(name)) throw error;
    const slash = address.key.lastIndexOf('/');
    const asked = await store
      .checkCredentials({ bucket: address.bucket, prefix: address.key.slice(0, slash + 1) })
      .catch((listError: unknown) => {
        if (listError instanceof ObjectNotFoundError) return 'no-bucket' as const;
        throw listError;
      });
    if (asked === 'no-bucket')
      return addressNotFound(
        cell,
        'an existing object',
        `no bucket ${address.bucket} for ${formatObjectAddress(address)}`,
      );
    return unreadable(
      cell,
      `a refusal to read ${formatObjectAddress(address)} (403): the credentials are good but may not read it`,
    );
  }
  throw error;
}

function statusOf(error: unknown): number | undefined {
  const metadata = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata;
  return metadata?.httpStatusCode;
}
