/**
 * How to reach an S3-compatible store, from the environment as the AWS tools read it
 * (docs/network.md, "Object storage"): the endpoint from `BULK_DISPUTES_S3_ENDPOINT`, else the
 * SDK's own `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`; the region from `AWS_REGION` or
 * `AWS_DEFAULT_REGION`. Credentials are never a setting of ours: the SDK's default chain finds them
 * (environment, shared files and profiles, web identity, instance or container metadata).
 */
export interface StoreSettings {
  /** None: AWS itself, by region. */
  readonly endpoint: string | undefined;
  readonly region: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`: what S3-compatible stores expect. */
  readonly pathStyle: boolean;
  /**
   * The SDK's checksums only when an operation requires them: its newer defaults (a CRC trailer
   * on every upload) are refused by several S3-compatible stores, so they are off whenever an
   * endpoint is given.
   */
  readonly checksums: 'when_supported' | 'when_required';
}

export function storeSettingsOf(env: Readonly<Record<string, string | undefined>>): StoreSettings {
  const given = (name: string) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const endpoint = given('BULK_DISPUTES_S3_ENDPOINT') ?? given('AWS_ENDPOINT_URL_S3') ?? given('AWS_ENDPOINT_URL');
  const pathStyleSetting = given('BULK_DISPUTES_S3_PATH_STYLE');
  return {
    endpoint,
    region: given('AWS_REGION') ?? given('AWS_DEFAULT_REGION') ?? 'us-east-1',
    pathStyle:
      pathStyleSetting === undefined
        ? endpoint !== undefined
        : pathStyleSetting !== '0' && pathStyleSetting !== 'false',
    checksums: endpoint === undefined ? 'when_supported' : 'when_required',
  };
}
