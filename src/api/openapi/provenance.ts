/**
 * Where an answer of the document comes from: so that a reader knows what is the service's word
 * and what is ours (docs/openapi.md, "What is the service's word, and what is ours"). Unmarked:
 * the service's interface says so. `x-public-reference`: the service's interface does not show it,
 * the production service's public reference does. `x-sandbox-decision`: neither shows it; the
 * sandbox decided (docs/sandbox.md, "What the sandbox decides").
 */

export interface Metadata {
  description?: string;
  'x-sandbox-decision'?: true;
  'x-public-reference'?: true;
  [keyword: string]: unknown;
}

export const decisionExtension = 'x-sandbox-decision';
export const publicReferenceExtension = 'x-public-reference';

/** The words that open every decision's note, so that a reader of the rendered page sees it too. */
export const decisionPrefix = 'Sandbox decision (the interface document does not show this):';
export const publicReferencePrefix = "From the service's public reference (not in the interface document).";

/** What the sandbox decided where the service's interface says "not shown". */
export function decided(description: string, decision: string, extra: Record<string, unknown> = {}): Metadata {
  return { ...extra, description: `${description}\n\n${decisionPrefix} ${decision}`, [decisionExtension]: true };
}

/** What the production service's public reference says and its interface does not. */
export function publicReference(description: string, extra: Record<string, unknown> = {}): Metadata {
  return { ...extra, description: `${description}\n\n${publicReferencePrefix}`, [publicReferenceExtension]: true };
}
