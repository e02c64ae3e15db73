/** The requests of a run, by kind: what the closing record and the bench count. */
export interface TrackRequests {
  casePages: number;
  caseReads: number;
  claimReads: number;
  eventPages: number;
}
