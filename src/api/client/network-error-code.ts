import { codeOf } from '../../errors/coded-error.js';

/** undici's codes for a connection that broke or went silent after the request was sent. */
const undiciNetworkCodes = new Set([
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/**
 * The code of a network failure, or undefined for anything else (a bug, a closed pool), which
 * is thrown as it is. An allowlist: system errors (`ECONNRESET`, ...), undici's socket and
 * timeout errors, HTTP parser errors, and whatever failed while connecting.
 */
export function networkErrorCode(error: unknown, whileConnecting: boolean): string | undefined {
  const code = codeOf(error);
  if (code === undefined) return whileConnecting ? 'ECONNECT' : undefined;
  if (whileConnecting || /^E[A-Z]+$/.test(code) || code.startsWith('HPE_') || undiciNetworkCodes.has(code)) return code;
  return undefined;
}
