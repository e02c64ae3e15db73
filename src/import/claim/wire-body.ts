import { CheckedBody } from '../../api/client/request-parts.js';
import { newClaimBody } from '../../api/schemas/claim.js';
import { issuerEvidenceSchema } from '../../api/schemas/evidence.js';
import { precompiledCheck } from '../../api/schemas/precompiled.js';
import { identifier } from '../../api/schemas/primitives.js';
import type { ClaimRecord, RowRecord } from '../journal/journal.js';
import { buildClaimBody, checkClaimBody, type ClaimBody, type ClaimBodyCheck } from './body.js';

/**
 * A claim's new_claim body as it is sent: checked, serialised, and as a value only when something
 * asks for one (a settle compares it, `--payloads` writes it). Why it is spliced:
 * docs/decisions/0006-bodies-spliced-from-staged-json.md.
 *
 * Building the body as a value and checking it whole was about a quarter of the import's main
 * thread while sending: each claim's stored JSON parsed, spread, walked by the check and
 * serialised again. When this process staged the journal, each row's JSON has passed this very
 * schema already (src/staging/prepare-row.ts: the row's case in a whole body, the claim's
 * shared fields with it), so the body is spliced from that text instead, byte for byte what JSON.stringify of
 * buildClaimBody's value gives, and only what the whole claim adds is checked here: the claim id
 * and case ids as sent (derived ones were never checked), no case id twice, at least one case,
 * and the documentation (file ids known only now). Anything else, or any of those failing, takes
 * the full path, so every problem is still the whole check's, in its words.
 */
export class ClaimWire {
  private value: ClaimBody | undefined;
  private readonly bytes: Buffer | undefined;

  constructor(
    readonly claim_id: string,
    readonly check: ClaimBodyCheck,
    source: { value: ClaimBody } | { bytes: Buffer },
  ) {
    if ('value' in source) this.value = source.value;
    else this.bytes = source.bytes;
  }

  /** The body as a value: as built, or the JSON of the bytes sent (equal to what buildClaimBody makes). */
  get body(): ClaimBody {
    this.value ??= JSON.parse((this.bytes as Buffer).toString()) as ClaimBody;
    return this.value;
  }
}

/**
 * The claim's body and its check. `stagedHere`: the rows' JSON was written by this process's
 * staging (not an earlier run's, whose checks may have been another version's), so it may be
 * spliced.
 */
export function claimWire(
  claim: ClaimRecord & { claim_id: string },
  rows: readonly RowRecord[],
  fileIdsByRow: ReadonlyMap<number, readonly string[]>,
  stagedHere: boolean,
): ClaimWire {
  const bytes = stagedHere ? splicedClaimBody(claim, rows, fileIdsByRow) : undefined;
  if (bytes !== undefined)
    return new ClaimWire(claim.claim_id, { ok: true, checked: CheckedBody.assembled(newClaimBody, bytes) }, { bytes });
  const value = buildClaimBody(claim, rows, fileIdsByRow);
  return new ClaimWire(claim.claim_id, checkClaimBody(value, rows), { value });
}

const isIdentifier = precompiledCheck(identifier);
const isIssuerEvidence = precompiledCheck(issuerEvidenceSchema);

/**
 * `JSON.stringify(buildClaimBody(claim, rows, fileIdsByRow))` from the stored text, when the
 * whole-claim check would pass given that each row passed at staging; else undefined.
 *
 * The text is JSON.stringify's own (staging wrote it), which JSON.parse and JSON.stringify give
 * back unchanged, so splicing it is serialising the value buildClaimBody spreads from it. Text
 * naming a key the spread would overwrite (`claim_id`, `cases`, a case's own `case_id`) is
 * parsed and serialised as buildClaimBody does: a mapping never makes those keys (targets.ts).
 */
export function splicedClaimBody(
  claim: ClaimRecord & { claim_id: string },
  rows: readonly RowRecord[],
  fileIdsByRow: ReadonlyMap<number, readonly string[]>,
): Buffer | undefined {
  if (rows.length === 0 || !isIdentifier(claim.claim_id)) return undefined;
  const shared = sharedText(claim.shared_json, rows, fileIdsByRow);
  if (shared === undefined) return undefined;
  const caseIds = new Set<string>();
  const cases: string[] = [];
  for (const row of rows) {
    const spliced = caseText(row);
    // A duplicate's or a bad id's message is the whole check's: the full path says it.
    if (typeof spliced.caseId !== 'string' || !isIdentifier(spliced.caseId) || caseIds.has(spliced.caseId))
      return undefined;
    caseIds.add(spliced.caseId);
    cases.push(spliced.text);
  }
  const head = shared === '{}' ? '{' : `${shared.slice(0, -1)},`;
  return Buffer.from(`${head}"claim_id":${JSON.stringify(claim.claim_id)},"cases":[${cases.join(',')}]}`);
}

/** The shared fields' JSON, with the claim's documentation when files were uploaded; undefined to take the full path. */
function sharedText(
  sharedJson: string,
  rows: readonly RowRecord[],
  fileIdsByRow: ReadonlyMap<number, readonly string[]>,
): string | undefined {
  if (
    !sharedJson.startsWith('{') ||
    !sharedJson.endsWith('}') ||
    sharedJson.includes('"claim_id"') ||
    sharedJson.includes('"cases"')
  )
    return undefined;
  const documentation = [...new Set(rows.flatMap((row) => fileIdsByRow.get(row.idx) ?? []))];
  if (documentation.length === 0) return sharedJson;
  // As buildClaimBody does it; the file ids are new to the body, so its evidence is checked again whole.
  const shared = JSON.parse(sharedJson) as Record<string, unknown>;
  shared.issuer_evidence = { ...(shared.issuer_evidence as Record<string, unknown> | undefined), documentation };
  return isIssuerEvidence(shared.issuer_evidence) ? JSON.stringify(shared) : undefined;
}

/** A case of `cases`: the row's case id first, then its stored case; and the id it carries. */
function caseText(row: RowRecord): { caseId: unknown; text: string } {
  const caseJson = row.case_json ?? '{}';
  const head = `{"case_id":${JSON.stringify(row.case_id)}`;
  if (caseJson.startsWith('{') && !caseJson.includes('"case_id"'))
    return { caseId: row.case_id, text: caseJson === '{}' ? `${head}}` : `${head},${caseJson.slice(1)}` };
  // A mapped case id (the row's, staging took it from the case) as the case's first key: the
  // spread keeps the key first and its value, so the stored case is the case as sent.
  const next = caseJson[head.length];
  if (caseJson.startsWith(head) && (next === ',' || next === '}')) return { caseId: row.case_id, text: caseJson };
  const item = { case_id: row.case_id, ...(JSON.parse(caseJson) as object) } as { case_id: unknown };
  return { caseId: item.case_id, text: JSON.stringify(item) };
}
