import { createHash } from 'node:crypto';
import { genericRow } from './generic-row.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatLintSummary } from '../../src/cli/commands/mapping-output.js';
import { derivedClaimId } from '../../src/job-files/claims/ids.js';
import { explainRow } from '../../src/mapping/explain.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';
import { mapRow, type MappedRow } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';

/**
 * `claim.id_prefix` keeps apart the claims of two sources or two years whose keys overlap. It
 * prefixes every id the mapping makes; without it, every id is what it always was.
 */

const genericPath = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const genericText = await readFile(genericPath, 'utf8');

/** generic.yaml with `claim` lines added after its key line. */
function genericWith(claimLines: string): string {
  const keyLine = '  key: [dispute_ref]\n';
  if (!genericText.includes(keyLine)) throw new Error('fixture: the key line is not in generic.yaml');
  return genericText.replace(keyLine, `${keyLine}${claimLines}`);
}

const prefixed = parseMapping(genericWith('  id_prefix: visa-2026\n'), 'prefixed.yaml');
const unprefixed = parseMapping(genericText, 'generic.yaml');
/** The generic mapping without its claim id template: claim ids derive from the key. */
const derivedIds = (mapping: Mapping): Mapping => ({ ...mapping, claim: { ...mapping.claim, id: undefined } });

const cells = genericRow({
  disputed_amount: '12.00',
  transaction_amount: '12.00',
  receipt_file: '',
  correspondence_files: '',
});

function mapped(mapping: Mapping, overrides: Record<string, string> = {}): MappedRow {
  const result = mapRow({ ...cells, ...overrides }, mapping);
  if (!result.ok) throw new Error(`expected a mapped row, got ${JSON.stringify(result.errors)}`);
  return result.row;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('derivedClaimId', () => {
  it("without a prefix: clm_ and 24 hex of the key's sha256, as before claim.id_prefix existed (journals and claims keep their ids)", () => {
    expect(derivedClaimId('["A"]')).toBe(`clm_${sha256('["A"]').slice(0, 24)}`);
    expect(derivedClaimId('["A"]')).toBe('clm_d2a4b37cac0a57e42b1fe002');
    expect(derivedClaimId('["A"]', undefined)).toBe(derivedClaimId('["A"]'));
  });

  it('with a prefix: clm_PREFIX_ and 24 hex of the sha256 of prefix, newline, key', () => {
    expect(derivedClaimId('["A"]', 'visa-2026')).toBe(`clm_visa-2026_${sha256('visa-2026\n["A"]').slice(0, 24)}`);
    expect(derivedClaimId('["A"]', 'visa-2026')).toBe('clm_visa-2026_d1b865994824dd4a4313f7d0');
    // Two sources with the same key never meet.
    const ids = new Set([
      derivedClaimId('["A"]'),
      derivedClaimId('["A"]', 'visa-2026'),
      derivedClaimId('["A"]', 'visa-2027'),
      derivedClaimId('["A"]', 'mc'),
    ]);
    expect(ids.size).toBe(4);
  });
});

describe('claim.id_prefix in mapRow', () => {
  it('prefixes a mapped claim id and a mapped case id with PREFIX-', () => {
    const row = mapped(prefixed);
    expect(row.claimId).toBe('visa-2026-CLM-D-100');
    expect(row.case.case_id).toBe('visa-2026-D-100-T1');
    // The key itself is the export's: the prefix is in the ids only.
    expect(row.claimKey).toBe('["D-100"]');
  });

  it('leaves ids as they are without a prefix', () => {
    const row = mapped(unprefixed);
    expect(row.claimId).toBe('CLM-D-100');
    expect(row.case.case_id).toBe('D-100-T1');
  });

  it('leaves a derived claim id to staging (derivedClaimId with the prefix), and a blank optional id blank', () => {
    expect(mapped(derivedIds(prefixed)).claimId).toBeUndefined();
    const optionalId = parseMapping(
      genericWith('  id_prefix: visa-2026\n').replace(
        'id: { template: "CLM-{dispute_ref}" }',
        'id: { column: claim_no }',
      ),
      'optional-id.yaml',
    );
    expect(mapped(optionalId, { claim_no: '' }).claimId).toBeUndefined();
    expect(mapped(optionalId, { claim_no: '77' }).claimId).toBe('visa-2026-77');
  });

  it("mapping explain shows the prefix as the id's last step, and the prefixed id in the result", () => {
    const explanation = explainRow(cells, prefixed);
    const claimIdField = explanation.fields.find((field) => field.field === 'claim.id');
    expect(claimIdField?.steps.at(-1)).toEqual({
      step: 'id_prefix',
      result: { ok: true, value: 'visa-2026-CLM-D-100' },
    });
    expect(claimIdField?.result).toEqual({ ok: true, value: 'visa-2026-CLM-D-100' });
    expect(explanation.fields.find((field) => field.field === 'case.case_id')?.result).toEqual({
      ok: true,
      value: 'visa-2026-D-100-T1',
    });
    expect(explanation.row?.claimId).toBe('visa-2026-CLM-D-100');
  });

  it("mapping lint's summary names the prefix, and says nothing of one when there is none", () => {
    expect(formatLintSummary('prefixed.yaml', prefixed)).toContain(
      'claim        key dispute_ref; id from template "CLM-{dispute_ref}"; id_prefix "visa-2026" on every claim and case id\n',
    );
    expect(formatLintSummary('generic.yaml', unprefixed)).toContain(
      'claim        key dispute_ref; id from template "CLM-{dispute_ref}"\n',
    );
  });
});

describe('claim.id_prefix in the schema', () => {
  function issueOf(value: string): MappingError['issues'][number] | undefined {
    try {
      parseMapping(genericWith(`  id_prefix: ${value}\n`), 'm.yaml');
    } catch (error) {
      if (error instanceof MappingError) return error.issues.find((issue) => issue.field === 'claim.id_prefix');
      throw error;
    }
    return undefined;
  }

  it.each(['visa-2026', 'mc.2026_q1', '2026', 'A'.repeat(40)])('accepts %s', (value) => {
    expect(issueOf(JSON.stringify(value))).toBeUndefined();
  });

  it.each([
    ['a space', '"visa 2026"', 'got "visa 2026"'],
    ['a leading dash', '"-visa"', 'got "-visa"'],
    ['a slash', '"visa/2026"', 'got "visa/2026"'],
    ['nothing', '""', 'got ""'],
    ['41 characters', JSON.stringify('a'.repeat(41)), `got "${'a'.repeat(41)}"`],
    ['a bare YAML number', '2026', 'got the number 2026 (quote it: "2026")'],
  ])('refuses %s, naming the field, its line, what is expected and what it got', (_name, value, got) => {
    const issue = issueOf(value);
    expect(issue).toMatchObject({
      field: 'claim.id_prefix',
      line: genericWith('').split('\n').indexOf('  key: [dispute_ref]') + 2,
    });
    expect(issue?.message).toBe(
      `expected 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit, ${got}`,
    );
  });
});
