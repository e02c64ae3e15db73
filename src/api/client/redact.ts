/**
 * Replaces the API key, in every form it travels in (and the proxy's credentials and the client
 * key's passphrase), with `[REDACTED]`. Applied to whatever the
 * service says back before it becomes part of an error or a log line: a misbehaving proxy that
 * echoes the Authorization header must not leak the key into a results CSV.
 */
export type Redactor = (text: string) => string;

export function redactorFor(apiKey: string, others: readonly string[] = []): Redactor {
  const basic = Buffer.from(`${apiKey}:`).toString('base64');
  // Longest first, so the Basic value is replaced whole before the bare key inside it.
  const secrets = [basic, apiKey, ...others]
    .filter((secret) => secret.length > 0)
    .sort((left, right) => right.length - left.length);
  return (text) => secrets.reduce((redacted, secret) => redacted.split(secret).join('[REDACTED]'), text);
}

export function basicAuthorization(apiKey: string): string {
  return `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
}
