/**
 * What identifies a disputed transaction, read from a case as sent or as the service holds it, and
 * how two of them compare (the comparison claims/identity.ts makes; the reasons are there).
 */

export type Json = Record<string, unknown>;

/** The fields compared, as the results name them (`error_field`, the mapping's names). */
export const identityFields = [
  'case.transaction.arn',
  'case.transaction.amount',
  'case.transaction.currency',
  'case.transaction.date',
  'shared.card.last4',
] as const;
export type IdentityField = (typeof identityFields)[number];

export interface TransactionIdentity {
  /** The ARN, or `ssn:` and a switch serial number when the case has no ARN. */
  reference: string | undefined;
  amount: number | undefined;
  /** Upper case. */
  currency: string | undefined;
  date: string | undefined;
  last4: string | undefined;
}

export function identityOf(transaction: Json, last4: unknown): TransactionIdentity {
  const amount =
    typeof transaction.amount === 'number'
      ? transaction.amount
      : typeof transaction.amount === 'string'
        ? Number(transaction.amount)
        : undefined;
  return {
    reference: referenceOf(transaction),
    amount,
    currency: textOf(transaction.currency)?.toUpperCase(),
    date: textOf(transaction.date),
    last4: textOf(last4),
  };
}

/** A scalar as trimmed text; anything else (absent, an object) as undefined. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
}

/** The fields whose values differ; a field we set that the held case lacks differs too (it cannot be proven). */
export function differences(ours: TransactionIdentity, theirs: TransactionIdentity): IdentityField[] {
  const fields: IdentityField[] = [];
  if (ours.reference !== undefined && ours.reference !== theirs.reference) fields.push('case.transaction.arn');
  if (ours.amount !== undefined && ours.amount !== theirs.amount) fields.push('case.transaction.amount');
  if (ours.currency !== undefined && ours.currency !== theirs.currency) fields.push('case.transaction.currency');
  if (ours.date !== undefined && !sameDay(ours.date, theirs.date)) fields.push('case.transaction.date');
  if (ours.last4 !== undefined && ours.last4 !== theirs.last4) fields.push('shared.card.last4');
  return fields;
}

/** The network's reference: the ARN (spaces dropped), else the first switch serial number. */
function referenceOf(transaction: Json): string | undefined {
  if (typeof transaction.arn === 'string' && transaction.arn.trim() !== '') return transaction.arn.replace(/\s+/g, '');
  for (const detail of Object.values(objectAt(transaction, 'network_details'))) {
    const serial = isObject(detail) ? detail.switch_serial_number : undefined;
    if (typeof serial === 'string' && serial.trim() !== '') return `ssn:${serial.trim()}`;
  }
  return undefined;
}

/**
 * One calendar day, as a service that stores date-times may return it: the same written day
 * (`2026-10-01` and `2026-10-01T00:00:00+02:00`), or the same instant, or the same day in UTC.
 */
export function sameDay(ours: unknown, theirs: unknown): boolean {
  if (typeof ours !== 'string' || typeof theirs !== 'string') return ours === theirs;
  if (ours === theirs) return true;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
  if (dateOnly.test(ours) || dateOnly.test(theirs)) {
    const day = (text: string) => text.slice(0, 10);
    if (day(ours) === day(theirs)) return true;
    const instant = Date.parse(dateOnly.test(ours) ? theirs : ours);
    return (
      !Number.isNaN(instant) &&
      new Date(instant).toISOString().slice(0, 10) === day(dateOnly.test(ours) ? ours : theirs)
    );
  }
  const left = Date.parse(ours);
  return !Number.isNaN(left) && left === Date.parse(theirs);
}

export function objectAt(record: Json, key: string): Json {
  const value = record[key];
  return isObject(value) ? value : {};
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseObject(text: string): Json {
  const value = JSON.parse(text) as unknown;
  return isObject(value) ? value : {};
}
