/**
 * What a thinned journal keeps of a mapped case and of a claim's shared fields: what proves the
 * disputed transaction (src/job-files/claims/transaction-identity.ts compares these), and the
 * dispute's own codes. Everything else, the cardholder, the evidence, the merchant's name, custom
 * fields, goes: listed by what is kept, so that a field the service adds later goes too.
 */
const keptCase: Readonly<Record<string, readonly string[] | true>> = {
  case_id: true,
  dispute: ['amount', 'currency'],
  transaction: ['amount', 'arn', 'switch_serial_number', 'currency', 'date', 'system'],
  merchant: ['category_code'],
};

const keptShared: Readonly<Record<string, readonly string[] | true>> = {
  card: ['last4', 'network', 'type'],
  dispute: ['date', 'reason', 'raised_by'],
};

/** A mapped case (`rows.case_json`) with only what proves its transaction. */
export function thinnedCaseJson(text: string | null): string | null {
  return text === null ? null : JSON.stringify(keptOf(text, keptCase));
}

/** A claim's shared fields (`claims.shared_json`) with only the card's last four and the dispute's codes. */
export function thinnedSharedJson(text: string): string {
  return text === '' ? '' : JSON.stringify(keptOf(text, keptShared));
}

function keptOf(text: string, kept: Readonly<Record<string, readonly string[] | true>>): Record<string, unknown> {
  const value = parsed(text);
  const result: Record<string, unknown> = {};
  for (const [name, fields] of Object.entries(kept)) {
    const found = value[name];
    if (found === undefined) continue;
    if (fields === true) {
      if (typeof found !== 'object' || found === null) result[name] = found;
      continue;
    }
    if (typeof found !== 'object' || found === null || Array.isArray(found)) continue;
    const part: Record<string, unknown> = {};
    for (const field of fields) {
      const inner = (found as Record<string, unknown>)[field];
      if (inner !== undefined && (typeof inner !== 'object' || inner === null)) part[field] = inner;
    }
    if (Object.keys(part).length > 0) result[name] = part;
  }
  return result;
}

function parsed(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * Every text a row stood for, for `scrubbed`: its cells and the strings of what it was mapped
 * to. Short texts (a state code, a currency) identify no one, and would match most messages.
 */
export function quotableTexts(texts: Iterable<string | null>): Set<string> {
  const found = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') {
      const trimmed = value.trim().toLowerCase();
      if (trimmed.length >= minimumQuoted) found.add(trimmed);
    } else if (Array.isArray(value)) for (const item of value) add(item);
    else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) add(item);
  };
  for (const text of texts) {
    if (text === null || text === '') continue;
    try {
      add(JSON.parse(text));
    } catch {
      add(text);
    }
  }
  return found;
}

const minimumQuoted = 3;

/** What a message that quoted its row reads once thinned. */
export const messageRemoved =
  'message removed by prune: it quoted the row (the error code and field say what happened)';

/**
 * A message kept when it quotes none of its row's texts: most are ours or the service's words
 * about a field ("expected a date"). One that repeats a value the row held (an e-mail that did
 * not parse, the service echoing a name) is replaced, whole.
 */
export function scrubbed(message: string | null, texts: ReadonlySet<string>): string | null {
  if (message === null || message === '') return message;
  const lower = message.toLowerCase();
  for (const text of texts) if (lower.includes(text)) return messageRemoved;
  return message;
}
