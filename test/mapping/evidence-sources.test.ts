import { describe, expect, it } from 'vitest';
import { MappingError, parseMapping } from '../../src/mapping/load.js';

/**
 * The mapping's `evidence_sources` (docs/mappings.md, "Evidence from object storage and links"):
 * strict, each bad entry named by field and line with what was expected.
 */

const base = `claim:
  key: [dispute_ref]
shared:
  cardholder.name: { column: name }
case:
  transaction.arn: { column: arn }
`;

function issuesOf(text: string): string[] {
  try {
    parseMapping(text, 'm.yaml');
  } catch (error) {
    if (error instanceof MappingError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('evidence_sources', () => {
  it('reads buckets, prefixes and hosts', () => {
    const text = `${base}evidence_sources:
  buckets: [bank-evidence, bank-evidence/disputes/2026/]
  hosts: [docs.bank.example, "files.bank.example:8443", 10.20.30.40]
`;
    const issues = issuesOf(text).filter((line) => line.includes('evidence_sources'));
    expect(issues).toEqual([]);
  });

  it('refuses what is not a bucket, a prefix or a host, naming field, line and what was expected', () => {
    const text = `${base}evidence_sources:
  buckets:
    - s3://bank-evidence/
    - bank-evidence/disputes
    - Bank_Evidence
    - bank-evidence/../payroll/
  hosts:
    - https://docs.bank.example
    - Docs.Bank.example
    - docs.bank.example/path
    - "docs.bank.example:99999"
  allowed_hosts: [x]
`;
    const issues = issuesOf(text).filter((line) => line.includes('evidence_sources'));
    expect(issues).toEqual([
      expect.stringMatching(
        /^m\.yaml:9: evidence_sources\.buckets\.0: expected a bucket .*, got "s3:\/\/bank-evidence\/"$/,
      ),
      expect.stringMatching(
        /^m\.yaml:10: evidence_sources\.buckets\.1: expected .*the prefix ending with "\/".*, got "bank-evidence\/disputes"$/,
      ),
      expect.stringMatching(/^m\.yaml:11: evidence_sources\.buckets\.2: expected .*, got "Bank_Evidence"$/),
      expect.stringMatching(
        /^m\.yaml:12: evidence_sources\.buckets\.3: expected .*, got "bank-evidence\/\.\.\/payroll\/"$/,
      ),
      expect.stringMatching(
        /^m\.yaml:14: evidence_sources\.hosts\.0: expected a host name in lower case, .*, got "https:\/\/docs\.bank\.example"$/,
      ),
      expect.stringMatching(
        /^m\.yaml:15: evidence_sources\.hosts\.1: expected a host name in lower case.*, got "Docs\.Bank\.example"$/,
      ),
      expect.stringMatching(/^m\.yaml:16: evidence_sources\.hosts\.2: .*, got "docs\.bank\.example\/path"$/),
      'm.yaml:17: evidence_sources.hosts.3: expected a port from 1 to 65535, got "docs.bank.example:99999"',
      'm.yaml:18: evidence_sources.allowed_hosts: expected a known field, got an unknown one',
    ]);
  });
});
