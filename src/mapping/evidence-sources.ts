import { z } from 'zod';

/**
 * `evidence_sources` (docs/mappings.md, "Evidence from object storage and links"): where an
 * evidence cell may point besides the evidence folder. A cell is written by whoever made the
 * export, so an address in it is fetched only when the mapping, which the operator owns, names its
 * bucket (and key prefix) or its host; anything else is refused before a byte is fetched.
 */

/** A bucket as S3 names them: 3 to 63 lower-case letters, digits, dots and hyphens. */
const bucketPart = '[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]';
/** A key prefix of segments each ending with `/`, none `.` or `..` (a store or a proxy might resolve them). */
const prefixPart = '(?:(?!\\.{1,2}/)[^/]+/)+';
export const bucketEntryPattern = new RegExp(`^${bucketPart}(?:/${prefixPart})?$`);
const bucketEntryExpected =
  'expected a bucket (3 to 63 lower-case letters, digits, dots and hyphens) or bucket/key-prefix/ ' +
  '(the prefix ending with "/", no "." or ".." segment), without s3://';

/** A host name in lower case (or an IPv4 address), optionally `:port`; without one, port 443 only. */
export const hostEntryPattern =
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(?:[1-9][0-9]{0,4}))?$/;
const hostEntryExpected =
  'expected a host name in lower case, optionally with :port (e.g. docs.bank.example or docs.bank.example:8443), ' +
  'without https:// or a path';

const got = (input: unknown) => (typeof input === 'string' ? JSON.stringify(input) : `a ${typeof input}`);

const bucketEntry = z
  .string({ error: (issue) => `${bucketEntryExpected}, got ${got(issue.input)}` })
  .regex(bucketEntryPattern, { error: (issue) => `${bucketEntryExpected}, got ${got(issue.input)}` });

const hostEntry = z
  .string({ error: (issue) => `${hostEntryExpected}, got ${got(issue.input)}` })
  .regex(hostEntryPattern, { error: (issue) => `${hostEntryExpected}, got ${got(issue.input)}` })
  // Said once: an entry that is no host at all has only the message above.
  .refine((host) => !hostEntryPattern.test(host) || Number(host.split(':')[1] ?? '443') <= 65_535, {
    error: (issue) => `expected a port from 1 to 65535, got ${got(issue.input)}`,
  });

export const evidenceSourcesSchema = z
  .strictObject({
    buckets: z
      .array(bucketEntry)
      .default([])
      .describe(
        'buckets (and key prefixes) an s3:// evidence cell may name: "bank-evidence" allows the whole bucket, ' +
          '"bank-evidence/disputes/" only keys under disputes/; read with the SDK\'s default credentials',
      ),
    hosts: z
      .array(hostEntry)
      .default([])
      .describe(
        'hosts an https:// evidence cell may name, in lower case; "docs.bank.example" allows port 443 only, ' +
          '"docs.bank.example:8443" that port; redirects must stay on listed hosts',
      ),
  })
  .describe(
    'where evidence cells may point besides the evidence folder: s3:// objects under listed buckets or ' +
      'prefixes, https:// documents on listed hosts; every other address is refused (evidence_not_allowed), ' +
      'nothing fetched',
  );

export type EvidenceSourcesSetting = z.output<typeof evidenceSourcesSchema>;
