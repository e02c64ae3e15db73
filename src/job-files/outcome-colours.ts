/**
 * One colour per outcome or case status, by what it means, for every page that draws them (the
 * report's bars, the track page, the review page): green for what ended well or was done, blue for
 * a case open at the service, amber for what was never filed, orange and red for what was held back
 * or refused or lost, purple for what failed, grey for what has no outcome of its own. A case
 * never filed is never drawn in a filed case's colour.
 */
const won = '#2e7d32';
const done = '#43a047';
const wouldBeDone = '#81c784';
const open = '#1565c0';
const answered = '#5e35b1';
const neverFiled = '#f9a825';
const heldBack = '#ef6c00';
const refused = '#c62828';
const failed = '#6a1b9a';
const none = '#9e9e9e';

export const outcomeColours: Readonly<Record<string, string>> = {
  // A case's status at the service.
  won,
  lost: refused,
  closed: none,
  created: neverFiled,
  chargeback_filed: open,
  chargeback_represented: answered,
  prearb_filed: answered,
  prearb_rebutted: answered,
  arbitration_filed: answered,
  not_read: none,
  no_case: none,
  // An import's or a migration's row.
  filed: won,
  valid: wouldBeDone,
  not_filed: neverFiled,
  would_not_file: neverFiled,
  invalid: heldBack,
  rejected: refused,
  failed,
  migrated: won,
  skipped: none,
  duplicate: none,
  // A withdrawal's: taken back in greens, left as it was in amber and red.
  withdrawn: won,
  deleted: done,
  already_closed: wouldBeDone,
  not_found: neverFiled,
  refused,
  would_withdraw: wouldBeDone,
  would_delete: wouldBeDone,
};

/** An outcome this build has no colour for. */
export const unknownOutcomeColour = '#777';

/** The track page's groups: won, lost, closed otherwise, still open, never filed. */
export const groupColours = { won, lost: refused, closed: none, open, never_filed: neverFiled } as const;
