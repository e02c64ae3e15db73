/**
 * A case as new_claim makes it, in the parts the filing rules read: the claim's shared fields
 * merged into the case, the card into its transaction (docs/sandbox.md, "Claims"). The sandbox
 * stores its cases so, and the import's dry run checks each case of a body it would send so,
 * which keeps the two readings of one body the same. Loose shapes: this floor has no wire schema.
 */

export interface NewClaimShared {
  reason?: string | undefined;
  dispute?: { date?: unknown; raised_by?: unknown; reason?: string | undefined } | undefined;
  card?: unknown;
  issuer_evidence?: object | undefined;
}

export interface NewClaimCaseParts {
  dispute?: object | undefined;
  transaction: object;
}

export interface MergedCase {
  reason: string | undefined;
  dispute: Record<string, unknown>;
  transaction: Record<string, unknown>;
  issuer_evidence: object;
}

export function newClaimCase(body: NewClaimShared, item: NewClaimCaseParts): MergedCase {
  const reason = body.dispute?.reason ?? body.reason;
  return {
    reason,
    dispute: { ...item.dispute, date: body.dispute?.date, raised_by: body.dispute?.raised_by, reason },
    transaction: { ...item.transaction, card: body.card },
    issuer_evidence: body.issuer_evidence ?? {},
  };
}
