import { ClaimsClient } from '../../src/api/client/index.js';
import type { V1CreateCaseBody } from '../../src/api/schemas/v1.js';

const recentDate = new Date(Date.now() - 10 * 24 * 60 * 60 * 1000).toISOString();

/** A valid v1 create-case body; `ref` fills custom_fields.dispute_ref when given. */
export function v1Case(caseId: string, ref?: string): V1CreateCaseBody {
  return {
    case_id: caseId,
    cardholder: { name: 'Grace Hopper', type: 'individual' },
    dispute: { amount: 2599, currency: 'EUR', date: recentDate },
    merchant: { name: 'Bookshop', category_code: '5942' },
    reason: 'duplicate',
    transaction: {
      amount: 2599,
      currency: 'EUR',
      date: recentDate,
      switch_serial_number: `SSN-${caseId}`,
      card_last4: '5454',
      card_expiry_month: 3,
      card_expiry_year: 2030,
      card_network: 'mastercard',
      card_type: 'debit',
      system: 'single_message',
    },
    ...(ref === undefined ? {} : { custom_fields: { dispute_ref: ref } }),
  };
}

/** Runs `work` over `items`, `limit` at a time. */
export async function inPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

/** Every claim the service has, with its case ids. */
export async function claimsWithCases(client: ClaimsClient): Promise<Map<string, string[]>> {
  const ids: string[] = [];
  for await (const claim of client.claims.listAll()) ids.push(claim.claim_id);
  const claims = new Map<string, string[]>();
  await inPool(ids, 8, async (id) => {
    const { data } = await client.claims.retrieve(id);
    claims.set(
      id,
      (data.cases ?? []).map((item) => item.case_id),
    );
  });
  return claims;
}
