import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { Route } from '../api/network/proxy-route.js';
import {
  ObjectNotFoundError,
  ObjectStoreCredentialsError,
  ObjectStoreSettingsError,
  ObjectStoreUnavailableError,
} from './errors.js';
import { formatObjectAddress, type ObjectAddress } from './object-address.js';
import { connectionFailure, storeAgents, type StoreNetwork } from './store-connection.js';
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

/** What the store (or the SDK's credential chain, finding none) says when it will not take our credentials. */
const credentialsRefusals = [
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId',
  'AccessDenied',
  'ExpiredToken',
  'InvalidToken',
  'CredentialsProviderError',
];

/** The refusals that say the credentials themselves are wrong, whatever they would be allowed to read. */
export const credentialsAlone = [
  'SignatureDoesNotMatch',
  'InvalidAccessKeyId',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
];

type Sdk = typeof import('@aws-sdk/client-s3');

/** An S3-compatible store, reached through the AWS SDK for JavaScript v3. */
export class ObjectStore {
  private client: Promise<{ s3: S3Client; sdk: Sdk }> | undefined;
  private route: Route | undefined;

  constructor(
    private readonly settings: StoreSettings,
    private readonly options: {
      credentials?: { accessKeyId: string; secretAccessKey: string };
      /** The claims service's proxy and CA (docs/network.md, "Object storage"). */
      network?: StoreNetwork;
    } = {},
  ) {}

  /** The SDK is loaded with the first request: a job that reads no object does not pay its 0.2 s of loading. */
  private async connected(): Promise<{ s3: S3Client; sdk: Sdk }> {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => ({ s3: this.makeClient(sdk), sdk }));
    return this.client;
  }

  private makeClient(sdk: Sdk): S3Client {
    const { settings, options } = this;
    const { route, httpAgent, httpsAgent, connectionTimeout, requestTimeout } = storeAgents(settings, options.network);
    this.route = route;
    return new sdk.S3Client({
      requestHandler: { httpAgent, httpsAgent, connectionTimeout, requestTimeout },
      region: settings.region,
      ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
      forcePathStyle: settings.pathStyle,
      // The SDK's standard retries, of their own: a store that answers 503 or SlowDown is asked again, backing off.
      maxAttempts: 4,
      retryMode: 'standard',
      requestChecksumCalculation: settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      responseChecksumValidation: settings.checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      // Given only by tests and the library; the CLI leaves them to the SDK's default chain.
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    });
  }

  /** The object's identity, read before its bytes: what the journal binds. */
  async identify(address: ObjectAddress): Promise<ObjectIdentity> {
    const { s3, sdk } = await this.connected();
    try {
      const head = await s3.send(new sdk.HeadObjectCommand({ Bucket: address.bucket, Key: address.key }));
      return {
        ...address,
        etag: head.ETag ?? '',
        versionId: head.VersionId,
        size: head.ContentLength ?? 0,
      };
    } catch (error) {
      throw this.failure(error, address, sdk);
    }
  }

  /**
   * The object's bytes as a stream, read as they are pulled (never buffered whole), and only if
   * they are still those `identity` names: an object replaced in between is refused by the store
   * (`If-Match`), not read half old, half new. A `range` (both ends counted) reads only those bytes.
   */
  async open(identity: ObjectIdentity, range?: { start: number; end: number }): Promise<Readable> {
    const { s3, sdk } = await this.connected();
    try {
      const got = await s3.send(
        new sdk.GetObjectCommand({
          Bucket: identity.bucket,
          Key: identity.key,
          ...(identity.etag === '' ? {} : { IfMatch: identity.etag }),
          ...(identity.versionId === undefined ? {} : { VersionId: identity.versionId }),
          ...(range === undefined ? {} : { Range: `bytes=${String(range.start)}-${String(range.end)}` }),
        }),
      );
      return got.Body as Readable;
    } catch (error) {
      throw this.failure(error, identity, sdk);
    }
  }

  /**
   * An object's bytes in one request, and what they are as the answer's headers say (size, ETag):
   * for a document read once, where a HEAD first would double what the store is asked for. The body
   * is not read here: a caller that finds the size too large destroys it unread.
   */
  async get(address: ObjectAddress): Promise<{ identity: ObjectIdentity; body: Readable }> {
    const { s3, sdk } = await this.connected();
    try {
      const got = await s3.send(new sdk.GetObjectCommand({ Bucket: address.bucket, Key: address.key }));
      return {
        identity: { ...address, etag: got.ETag ?? '', versionId: got.VersionId, size: got.ContentLength ?? 0 },
        body: got.Body as Readable,
      };
    } catch (error) {
      throw this.failure(error, address, sdk);
    }
  }

  /**
   * Whether the store takes our credentials at all, asked before anything is sent: a list of at
   * most one key under `prefix`. Only a refusal of the credentials themselves (a wrong secret, an
   * unknown key, an expired token, none found) throws ObjectStoreCredentialsError; AccessDenied is
   * `list-denied`, since a role may read objects without the right to list them. No such bucket
   * throws ObjectNotFoundError; a store that does not answer, ObjectStoreUnavailableError.
   */
  async checkCredentials(place: { bucket: string; prefix: string }): Promise<'listed' | 'list-denied'> {
    const { s3, sdk } = await this.connected();
    try {
      await s3.send(new sdk.ListObjectsV2Command({ Bucket: place.bucket, Prefix: place.prefix, MaxKeys: 1 }));
      return 'listed';
    } catch (error) {
      const name = error instanceof Error ? error.name : String(error);
      const status = error instanceof sdk.S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      if (status === 403 && !credentialsAlone.includes(name)) return 'list-denied';
      throw this.failure(error, { bucket: place.bucket, key: place.prefix }, sdk);
    }
  }

  close(): void {
    void this.client?.then(({ s3 }) => {
      s3.destroy();
    });
    this.client = undefined;
  }

  /** An SDK failure in words naming the store and the object. */
  private failure(error: unknown, address: ObjectAddress, sdk: Sdk): Error {
    const where = `${formatObjectAddress(address)} (${this.settings.endpoint ?? `AWS S3, ${this.settings.region}`})`;
    const status = error instanceof sdk.S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    const name = error instanceof Error ? error.name : String(error);
    const onTheWay = this.route === undefined ? undefined : connectionFailure(error, where, this.route);
    if (onTheWay !== undefined) return onTheWay;
    if (status === 403 || credentialsRefusals.includes(name))
      return new ObjectStoreCredentialsError(
        `${where}: expected the store to accept our credentials, got ${status ?? 'a refusal'} (${name}): ` +
          'check the key and secret the SDK finds (environment, profile, web identity, instance role); nothing was read',
        { cause: error },
      );
    if (status === 404 || name === 'NoSuchKey' || name === 'NoSuchBucket' || name === 'NotFound')
      return new ObjectNotFoundError(`${where}: expected an object there, got none (${name})`, { cause: error });
    const setting = settingsRefusal(status, name, error, this.settings.region);
    if (setting !== undefined)
      return new ObjectStoreSettingsError(`${where}: expected the store to take our request, got ${setting}`, {
        cause: error,
      });
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

/**
 * What to fix when the store refuses a request as malformed (400), in words: a wrong region is the
 * common one (S3 names the region it expected in its message, kept here). A HEAD's 400 has no body
 * and so no name: still a request the store will not take on any run, never "run again".
 */
export function settingsRefusal(
  status: number | undefined,
  name: string,
  error: unknown,
  region: string,
): string | undefined {
  const said = error instanceof Error && error.message !== '' && error.message !== name ? `: ${error.message}` : '';
  if (name === 'AuthorizationHeaderMalformed')
    return `400 (${name}${said}): set AWS_REGION to the bucket's region (now ${region}); nothing was read`;
  if (name === 'InvalidBucketName')
    return `400 (${name}${said}): check the bucket's name in the s3:// address; nothing was read`;
  if (name === 'InvalidArgument' || status === 400)
    return (
      `400 (${name}${said}): check AWS_REGION (now ${region}), the endpoint (BULK_DISPUTES_S3_ENDPOINT) ` +
      'and the s3:// address; nothing was read'
    );
  return undefined;
}

export {
  ObjectNotFoundError,
  ObjectStoreCredentialsError,
  ObjectStoreSettingsError,
  ObjectStoreUnavailableError,
} from './errors.js';
