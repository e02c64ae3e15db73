import { CodedError, RefusalError } from '../errors/coded-error.js';
import { sourceFailure } from '../files/byte-source.js';

/**
 * What reading an object can fail with, apart from the SDK (docs/network.md, "Object storage"):
 * the exit codes map them without loading it.
 */

/** The store refused the credentials (a wrong secret, an unknown key, a signature it did not accept). */
export class ObjectStoreCredentialsError extends CodedError {
  readonly code = 'OBJECT_STORE_CREDENTIALS';
  readonly [sourceFailure] = true;
}

/** No such object or bucket, or one the credentials may not read: running again would meet the same. */
export class ObjectNotFoundError extends RefusalError {
  readonly code = 'OBJECT_NOT_FOUND';
  readonly [sourceFailure] = true;
}

/**
 * The store refused the request itself as one it cannot take, whatever the object: a region it is
 * not in (AuthorizationHeaderMalformed), a bucket name it does not accept, an argument it rejects.
 * Running again would meet the same: a setting to fix (AWS_REGION, the endpoint, the address).
 */
export class ObjectStoreSettingsError extends RefusalError {
  readonly code = 'OBJECT_STORE_SETTINGS';
  readonly [sourceFailure] = true;
}

/** The store did not answer, or failed on its side: run the same command again. */
export class ObjectStoreUnavailableError extends CodedError {
  readonly code = 'OBJECT_STORE_UNAVAILABLE';
  readonly [sourceFailure] = true;
}

/** The store's certificate is not one we trust (a private CA not given, expired, another host): as for the service, exit 4. */
export class ObjectStoreCertificateError extends CodedError {
  readonly code = 'OBJECT_STORE_TLS_UNTRUSTED';
  readonly [sourceFailure] = true;
}

/** The proxy on the way to the store refused the tunnel or is not there: as for the service, exit 6. */
export class ObjectStoreProxyError extends CodedError {
  readonly code = 'OBJECT_STORE_PROXY';
  readonly [sourceFailure] = true;
}
