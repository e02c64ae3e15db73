import { ClaimsHttpError } from '../errors.js';
import type { Claim } from '../schemas/claim.js';
import type { ClaimsClient } from './index.js';

/*
 * What a job that writes makes of an answer it cannot take at its word: a claim whose outcome is
 * unknown is read back, never sent again (docs/import.md, "No duplicates"), and a refusal
 * that sending again cannot fix is told from one that it can. Import, withdraw and migrate-v1 share them.
 */

/** The claim as the service has it, or undefined when it has none by that id. */
export async function settle(client: ClaimsClient, claimId: string): Promise<Claim | undefined> {
  try {
    return (await client.claims.retrieve(claimId)).data;
  } catch (error) {
    if (error instanceof ClaimsHttpError && error.status === 404) return undefined;
    throw error;
  }
}

/** A 4xx that sending again cannot fix: refused for good (authentication, 408 and 429 are not). */
export function isRefusal(error: unknown): error is ClaimsHttpError {
  return (
    error instanceof ClaimsHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 403, 408, 429].includes(error.status)
  );
}
