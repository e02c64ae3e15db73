import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseObjectAddress } from '../../src/storage/object-address.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import {
  ObjectNotFoundError,
  ObjectStore,
  ObjectStoreCredentialsError,
  ObjectStoreSettingsError,
  settingsRefusal,
} from '../../src/storage/object-store.js';
import { storeSettingsOf } from '../../src/storage/store-settings.js';
import { startSwiftS3, type SwiftS3 } from '../helpers/swift-s3.js';

/**
 * Objects read from a real S3-compatible store that checks signatures itself (Swift's S3 API,
 * test/helpers/swift-s3.ts): streamed, identified as a journal binds them, and refused in words
 * naming the store when the credentials or the object are wrong.
 */

let swift: SwiftS3;
const body = 'line,claim_key\n1,P-01\n'.repeat(2000);

beforeAll(async () => {
  swift = await startSwiftS3();
  const setup = swift.client();
  await setup.send(new CreateBucketCommand({ Bucket: 'disputes' }));
  await setup.send(new PutObjectCommand({ Bucket: 'disputes', Key: 'exports/night.csv', Body: body }));
  setup.destroy();
}, 60_000);

afterAll(async () => {
  await swift.stop();
});

const settings = () => storeSettingsOf({ AWS_ENDPOINT_URL_S3: swift.endpoint, AWS_REGION: 'us-east-1' });
const store = (secretAccessKey = swift.secretAccessKey) =>
  new ObjectStore(settings(), { credentials: { accessKeyId: swift.accessKeyId, secretAccessKey } });

describe('an S3-compatible store', () => {
  it('streams an object and names it by bucket, key, ETag and size', async () => {
    const objects = store();
    const address = parseObjectAddress('s3://disputes/exports/night.csv');
    const identity = await objects.identify(address);
    expect(identity).toMatchObject({ bucket: 'disputes', key: 'exports/night.csv', size: Buffer.byteLength(body) });
    expect(identity.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await text(await objects.open(identity))).toBe(body);
    objects.close();
  });

  it('a wrong secret is refused by the store, before any byte is read, in words naming it', async () => {
    const objects = store('not-the-secret');
    const failure = await objects
      .identify(parseObjectAddress('s3://disputes/exports/night.csv'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ObjectStoreCredentialsError);
    expect((failure as Error).message).toContain(`s3://disputes/exports/night.csv (${swift.endpoint})`);
    expect((failure as Error).message).toMatch(/expected the store to accept our credentials, got 403/);
    objects.close();
  });

  it('a missing object is said so, and an object replaced after it was identified is not read', async () => {
    const objects = store();
    await expect(objects.identify(parseObjectAddress('s3://disputes/exports/none.csv'))).rejects.toBeInstanceOf(
      ObjectNotFoundError,
    );
    const identity = await objects.identify(parseObjectAddress('s3://disputes/exports/night.csv'));
    const writer = swift.client();
    await writer.send(new PutObjectCommand({ Bucket: 'disputes', Key: 'exports/night.csv', Body: 'line\n2\n' }));
    writer.destroy();
    await expect(objects.open(identity)).rejects.toThrow(/replaced meanwhile/);
    expect((await objects.identify(identity)).etag).not.toBe(identity.etag);
    objects.close();
  });

  it('a region the store is not in is a setting to fix, exit 2 naming AWS_REGION, never "run again"', async () => {
    const objects = new ObjectStore(storeSettingsOf({ AWS_ENDPOINT_URL_S3: swift.endpoint, AWS_REGION: 'eu-west-3' }), {
      credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    });
    // A list has a body: the store names the refusal and the region it expected.
    const listed = await objects
      .checkCredentials({ bucket: 'disputes', prefix: 'exports/' })
      .catch((error: unknown) => error);
    expect(listed).toBeInstanceOf(ObjectStoreSettingsError);
    expect((listed as ObjectStoreSettingsError).code).toBe('OBJECT_STORE_SETTINGS');
    expect((listed as Error).message).toBe(
      `s3://disputes/exports/ (${swift.endpoint}): expected the store to take our request, got 400 ` +
        "(AuthorizationHeaderMalformed: The authorization header is malformed; the region 'eu-west-3' is wrong; " +
        "expecting 'us-east-1'): set AWS_REGION to the bucket's region (now eu-west-3); nothing was read",
    );
    expect(exitCodeFor(listed)).toBe(2);
    // A HEAD's 400 has no body to name it: refused as a setting all the same.
    const headed = await objects
      .identify(parseObjectAddress('s3://disputes/exports/night.csv'))
      .catch((error: unknown) => error);
    expect(headed).toBeInstanceOf(ObjectStoreSettingsError);
    expect((headed as Error).message).toContain('check AWS_REGION (now eu-west-3)');
    expect(exitCodeFor(headed)).toBe(2);
    objects.close();
  });

  it('a bucket name or an argument the store refuses is a setting too; a 5xx stays "unavailable"', () => {
    // Shaped as the SDK throws them for AWS S3 itself, which Swift does not answer with.
    const sdkError = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(
      settingsRefusal(
        400,
        'InvalidBucketName',
        sdkError('InvalidBucketName', 'The specified bucket is not valid.'),
        'us-east-1',
      ),
    ).toBe(
      "400 (InvalidBucketName: The specified bucket is not valid.): check the bucket's name in the s3:// address; nothing was read",
    );
    expect(settingsRefusal(400, 'InvalidArgument', sdkError('InvalidArgument', 'Invalid argument.'), 'eu-west-1')).toBe(
      '400 (InvalidArgument: Invalid argument.): check AWS_REGION (now eu-west-1), the endpoint ' +
        '(BULK_DISPUTES_S3_ENDPOINT) and the s3:// address; nothing was read',
    );
    expect(settingsRefusal(503, 'ServiceUnavailable', sdkError('ServiceUnavailable', ''), 'us-east-1')).toBeUndefined();
    expect(
      settingsRefusal(undefined, 'TimeoutError', sdkError('TimeoutError', 'timed out'), 'us-east-1'),
    ).toBeUndefined();
  });

  it('reads the endpoint as the AWS tools do, and turns path style and the newer checksums on and off with it', () => {
    expect(storeSettingsOf({})).toEqual({
      endpoint: undefined,
      region: 'us-east-1',
      pathStyle: false,
      checksums: 'when_supported',
    });
    expect(storeSettingsOf({ AWS_ENDPOINT_URL: 'http://ceph:7480', AWS_DEFAULT_REGION: 'eu-west-1' })).toEqual({
      endpoint: 'http://ceph:7480',
      region: 'eu-west-1',
      pathStyle: true,
      checksums: 'when_required',
    });
    expect(
      storeSettingsOf({
        AWS_ENDPOINT_URL: 'http://a',
        AWS_ENDPOINT_URL_S3: 'http://b',
        BULK_DISPUTES_S3_ENDPOINT: 'http://c',
      }).endpoint,
    ).toBe('http://c');
    expect(storeSettingsOf({ AWS_ENDPOINT_URL_S3: 'http://b', BULK_DISPUTES_S3_PATH_STYLE: '0' }).pathStyle).toBe(
      false,
    );
    expect(() => parseObjectAddress('s3://Bad_Bucket/key', '--input')).toThrow(
      /--input: expected s3:\/\/bucket\/key .*got "s3:\/\/Bad_Bucket\/key"/,
    );
  });
});
