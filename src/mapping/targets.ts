import type { z } from 'zod';
import { newClaimBody, newClaimCaseSchema } from '../api/schemas/claim.js';

/**
 * The fields a mapping may fill, as dot-paths, derived from the strict new_claim schemas so they
 * can never drift from what new_claim accepts. Shared fields are the claim's (the top level of
 * new_claim), case fields each case's. Filled elsewhere, so left out: the ids (`claim.id`,
 * `case_id` come from the claim section), the evidence file ids (the evidence section), custom
 * fields (their own section), the top-level `reason` (use `dispute.reason`), and each case's
 * `transaction.card` (new_claim carries the card once, shared: `card.*`).
 */
export const sharedTargets = leafPaths(newClaimBody.shape, [
  'claim_id',
  'cases',
  'reason',
  'issuer_evidence.documentation',
]);
export const caseTargets = leafPaths(newClaimCaseSchema.shape, ['custom_fields', 'transaction.card']);

/**
 * What new_claim needs from every row: the sandbox's required fields, as the service does not say
 * its own (docs/interface.md).
 */
export const requiredSharedTargets = ['card.last4', 'card.network', 'dispute.reason'];
export const requiredCaseTargets = ['transaction.amount', 'transaction.currency', 'transaction.date'];

function leafPaths(shape: Record<string, z.ZodType>, excluded: string[], prefix = ''): string[] {
  return Object.entries(shape).flatMap(([key, field]) => {
    const path = prefix + key;
    if (excluded.includes(path)) return [];
    const inner = unwrap(field);
    const def = inner.def as unknown as {
      type: string;
      shape?: Record<string, z.ZodType>;
      keyType?: z.ZodType;
      valueType?: z.ZodType;
    };
    if (def.type === 'object' && def.shape) return leafPaths(def.shape, excluded, `${path}.`);
    // network_details: one sub-object per card network, each a set of leaves.
    if (def.type === 'record' && def.keyType && def.valueType) {
      const networks = (def.keyType as unknown as { options: string[] }).options;
      const valueShape = (unwrap(def.valueType).def as unknown as { shape: Record<string, z.ZodType> }).shape;
      return networks.flatMap((network) => leafPaths(valueShape, excluded, `${path}.${network}.`));
    }
    return [path];
  });
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current.def as unknown as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType)
      current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}
