/**
 * What a fed-back row would change in a case the service already holds: the row's mapped case
 * and its claim's shared fields, laid out as the service keeps a case (a new_claim's shared fields
 * spread into each case: the card inside `transaction`, the claim's dispute date, raised_by and
 * reason inside each case's `dispute`), compared field by field with the case as retrieved. Pure:
 * no request, no journal.
 */

type Json = Record<string, unknown>;

/** One field that differs: where it is in the case, and how the mapping names it (as `error_field` does). */
export interface FieldChange {
  caseField: string;
  mappingField: string;
}

export interface CaseChanges {
  changes: FieldChange[];
  /**
   * The body of `PUT /v2/issuer/cases/{case_id}` with only what changed: the service merges nested
   * objects field by field (docs/sandbox.md, "Delete and update"), so the rest of the case stays as it is.
   */
  update: Json;
}

/**
 * The case as a new_claim body makes it (what the sandbox stores, and what a retrieve shows),
 * without `issuer_evidence.documentation`: files are compared by content, not by id (new-evidence.ts).
 */
export function caseAsSent(shared: Json, caseBody: Json): Json {
  const sharedDispute = (shared.dispute ?? {}) as Json;
  const reason = sharedDispute.reason ?? shared.reason;
  const { documentation: _documentation, ...evidence } = (shared.issuer_evidence ?? {}) as Json;
  return dropUndefined({
    program_id: caseBody.program_id,
    custom_fields: caseBody.custom_fields,
    cardholder: shared.cardholder,
    dispute: dropUndefined({
      ...(caseBody.dispute as Json | undefined),
      date: sharedDispute.date,
      raised_by: sharedDispute.raised_by,
      reason,
    }),
    merchant: caseBody.merchant,
    transaction: dropUndefined({ ...(caseBody.transaction as Json | undefined), card: shared.card }),
    issuer_evidence: Object.keys(evidence).length === 0 ? undefined : evidence,
  });
}

/**
 * Every field the intended case sets that the held case lacks or holds otherwise. A field the
 * intended case leaves out (a blank cell) is not a change: the service keeps what it has, and an
 * update cannot clear a field (only a custom field, with null). Times compare as instants
 * (`…T00:00:00Z` and `…T00:00:00.000Z` are one date).
 */
export function caseChanges(intended: Json, held: Json): CaseChanges {
  const changes: FieldChange[] = [];
  const update = walk(intended, held, [], changes);
  return { changes, update: update ?? {} };
}

function walk(intended: Json, held: unknown, path: readonly string[], changes: FieldChange[]): Json | undefined {
  const heldObject = isObject(held) ? held : {};
  let update: Json | undefined;
  for (const [key, value] of Object.entries(intended)) {
    if (value === undefined) continue;
    const here = [...path, key];
    let changed: unknown;
    if (isObject(value)) changed = walk(value, heldObject[key], here, changes);
    else if (!sameValue(value, heldObject[key])) {
      changed = value;
      changes.push({ caseField: here.join('.'), mappingField: mappingFieldOf(here) });
    }
    if (changed !== undefined) (update ??= {})[key] = changed;
  }
  return update;
}

function sameValue(left: unknown, right: unknown): boolean {
  if (typeof left === 'string' && typeof right === 'string' && isoTime.test(left) && isoTime.test(right))
    return Date.parse(left) === Date.parse(right);
  return JSON.stringify(left) === JSON.stringify(right);
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A case field as the mapping names it: the shared parts under `shared.`, the case's own under `case.`. */
export function mappingFieldOf(path: readonly string[]): string {
  const [head, next] = path;
  const rest = path.slice(1).join('.');
  if (head === 'custom_fields') return path.join('.');
  if (head === 'transaction' && next === 'card')
    return `shared.card${path.length > 2 ? `.${path.slice(2).join('.')}` : ''}`;
  if (head === 'dispute' && (next === 'date' || next === 'raised_by' || next === 'reason'))
    return `shared.dispute.${next}`;
  if (head === 'cardholder' || head === 'issuer_evidence') return `shared.${path.join('.')}`;
  return rest === '' ? `case.${head ?? ''}` : `case.${head ?? ''}.${rest}`;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function dropUndefined(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
