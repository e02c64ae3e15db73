/** One claim the sources name, with the cases they name in it. */
export interface WithdrawTarget {
  /** '' when the source names only a case id (a plain list of case ids): the run looks the claim up by the case. */
  claimId: string;
  /** The claim key as the results show it ('' when the source does not know it). */
  claimKey: string;
  /** The cases the source names, in source order (for --scope case); empty when it names the claim only. */
  caseIds: string[];
  /**
   * How the run proves the claim is the job's own before taking it back:
   * 'import': each case as the import sent it (its `transaction` as mapped, the claim's card last4), from the journal;
   * 'migrate': the case ids of the migration's group;
   * undefined: the source vouches for it (results files, plain lists).
   */
  proof?:
    | {
        kind: 'import';
        cases: { caseId: string; line: number; transaction: Record<string, unknown>; last4: string | undefined }[];
      }
    | { kind: 'migrate'; caseIds: string[] };
}
