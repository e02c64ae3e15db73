import type { ResultRow } from '../import/e2e-fixtures.js';

/**
 * What the SIGKILL suites check of the rows against the sandbox's own data: no row reported on a
 * case that is not provably its own (docs/import.md, "No duplicates").
 */

/** A case as the sandbox's data file holds it: `document` is the case as a retrieve returns it (JSON). */
export interface HeldCase {
  case_id: string;
  claim_id: string | null;
  status: string;
  document: string;
}

/** `12.34` in minor units (1234): mappings/generic.yaml's amounts, two decimals in USD and EUR alike. */
function minorUnits(amount: string): number {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  if (match === null) throw new Error(`expected an amount like 12.34, got ${JSON.stringify(amount)}`);
  return Number(match[1]) * 100 + Number(match[2]);
}

/**
 * Rows reported on a case that is not theirs (a claim found under our id is adopted only when it
 * holds our transactions): the case the row names, in the claim it names, must carry the row's
 * ARN, transaction amount and card last4. One line per row that does not, saying how.
 */
export function misreported(rows: readonly ResultRow[], cases: readonly HeldCase[]): string[] {
  const byId = new Map(cases.map((item) => [item.case_id, item]));
  return rows.flatMap((row) => {
    const held = byId.get(row.case_id);
    if (held === undefined) return [`line ${row.line}: case ${row.case_id} is not at the service`];
    const transaction = (
      JSON.parse(held.document) as { transaction?: { arn?: unknown; amount?: unknown; card?: { last4?: unknown } } }
    ).transaction;
    const got = {
      claim_id: held.claim_id,
      arn: transaction?.arn,
      amount: transaction?.amount,
      last4: transaction?.card?.last4,
    };
    const expected = {
      claim_id: row.claim_id,
      arn: row.arn,
      amount: minorUnits(row.transaction_amount ?? ''),
      last4: row.card_last4,
    };
    return JSON.stringify(got) === JSON.stringify(expected)
      ? []
      : [`line ${row.line}: case ${row.case_id} expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`];
  });
}
