/** The spans the filing rules count in (docs/sandbox.md, "Filing validation"). */

export const dayMs = 24 * 60 * 60 * 1000;

/** The filing window of the reasons that have one, counted from the transaction date; the sandbox's due date spans it too. */
export const filingWindowDays = 120;
