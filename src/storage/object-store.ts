import { GetObjectCommand, HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { CodedError, RefusalError } from '../errors/coded-error.js';
import { formatObjectAddress, type ObjectAddress } from './object-address.js';
import type { StoreSettings } from './store-settings.js';

/**
 * What identifies an object's bytes, as a journal binds a local file's sha256: a changed object
 * has another ETag (or version), and its job's journal then refuses it as it refuses a changed file.
 */
export interface ObjectIdentity extends ObjectAddress {
  readonly etag: string;
  readonly versionId: string | undefined;
  readonly size: number;
}

/** The store refused the credentials (a wrong secret, an unknown key, a signature it did not accept). */
export class ObjectStoreCredentialsError extends CodedError {
  readonly code = 'OBJECT_STORE_CREDENTIALS';
}

/** No such object or bucket, or one the credentials may not read: running again would meet the same. */
export class ObjectNotFoundError extends RefusalError {
  readonly code = 'OBJECT_NOT_FOUND';
}

/** The store did not answer, or failed on its side: run the same command again. */
export class ObjectStoreUnavailableError extends CodedError {
  readonly code = 'OBJECT_STORE_UNAVAILABLE';
}

/** An S3-compatible store, reached through the AWS SDK for JavaScript v3. */
export class ObjectStore {
  private readonly client: S3Client;

  constructor(
    private readonly settings: StoreSettings,
    options: { credentials?: { accessKeyId: string; secretAccessKey: string } } = {},
  ) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
      forcePathStyle: settings.pathStyle,
      requestChecksumCalculation: settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      responseChecksumValidation: settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      // Given only by tests and the library; the CLI leaves them to the SDK's default chain.
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    });
  }

  /** The object's identity, read before its bytes: what the journal binds. */
  async identify(address: ObjectAddress): Promise<ObjectIdentity> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: address.bucket, Key: address.key }));
      return {
        ...address,
        etag: head.ETag ?? '',
        versionId: head.VersionId,
        size: head.ContentLength ?? 0,
      };
    } catch (error) {
      throw this.failure(error, address);
    }
  }

  /**
   * The object's bytes as a stream, read as they are pulled (never buffered whole), and only if
   * they are still those `identity` names: an object replaced in between is refused by the store
   * (`If-Match`), not read half old, half new.
   */
  async open(identity: ObjectIdentity): Promise<Readable> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({
          Bucket: identity.bucket,
          Key: identity.key,
          ...(identity.etag === '' ? {} : { IfMatch: identity.etag }),
          ...(identity.versionId === undefined ? {} : { VersionId: identity.versionId }),
        }),
      );
      return got.Body as Readable;
    } catch (error) {
      throw this.failure(error, identity);
    }
  }

  close(): void {
    this.client.destroy();
  }

  /** An SDK failure in words naming the store and the object. */
  private failure(error: unknown, address: ObjectAddress): Error {
    const where = `${formatObjectAddress(address)} (${this.settings.endpoint ?? `AWS S3, ${this.settings.region}`})`;
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    const name = error instanceof Error ? error.name : String(error);
    if (status === 403 || ['SignatureDoesNotMatch', 'InvalidAccessKeyId', 'AccessDenied'].includes(name))
      return new ObjectStoreCredentialsError(
        `${where}: expected the store to accept our credentials, got ${status ?? 'a refusal'} (${name}): ` +
          'check the key and secret the SDK finds (environment, profile, web identity, instance role); nothing was read',
        { cause: error },
      );
    if (status === 404 || name === 'NoSuchKey' || name === 'NoSuchBucket' || name === 'NotFound')
      return new ObjectNotFoundError(`${where}: expected an object there, got none (${name})`, { cause: error });
    if (status === 412 || name === 'PreconditionFailed')
      return new ObjectNotFoundError(
        `${where}: expected the object read a moment ago, got another (it was replaced meanwhile): run again to read the new one`,
        { cause: error },
      );
    return new ObjectStoreUnavailableError(
      `${where}: expected the store to answer, got ${status === undefined ? name : `${status} (${name})`}: run the same command again`,
      { cause: error },
    );
  }
}
