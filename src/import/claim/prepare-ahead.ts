import type { ClaimRecord, Journal, RowRecord } from '../journal/journal.js';
import { claimWire, type ClaimWire } from './wire-body.js';
import { checkClaimEvidence, type EvidenceCheck, type EvidenceFolder } from './evidence.js';

/**
 * A claim's local work done before its turn to be sent. At concurrency C the answers of a wave come
 * back together, and everything the import does between an answer and the next request delays that
 * request: with 32 in flight, 32 claims' rows read from the journal, bodies built and checked
 * against the wire schema (≈ 100 µs each) were 3 ms of every 50 ms cycle. The claims waiting for a
 * slot are prepared while the import waits on the network instead.
 */
export interface PreparedClaim {
  readonly rows: RowRecord[];
  /** Set when the claim can go straight to its create: no evidence to upload, nothing to settle, no row invalid. */
  readonly wire: ClaimWire | undefined;
  /**
   * Its evidence from a store or behind links, being read already: a document's round trip to the
   * store is then waited on while the claims ahead of it are in flight, not in its own turn.
   */
  readonly evidence?: Promise<EvidenceCheck> | undefined;
}

/**
 * The claim's rows and, when nothing remote comes before its create (no file to upload, not sent
 * by an earlier run), its body and the body's check: the same body createOnce would build, since
 * a claim without files has no documentation. Reads the journal; writes nothing. `stagedHere`:
 * this process staged the journal (wire-body.ts).
 */
export function prepareClaim(
  claim: ClaimRecord,
  journal: Journal,
  stagedHere = false,
  readAhead?: EvidenceFolder,
  rowsRead?: RowRecord[],
): PreparedClaim {
  const rows = rowsRead ?? journal.rowsOf(claim.claim_key);
  const fresh = claim.claim_id !== null && claim.step === 'staged' && claim.sent === 0;
  if (!fresh || !rows.every(isPlainRow))
    return {
      rows,
      wire: undefined,
      evidence: fresh && readAhead !== undefined ? readEarly(rows, readAhead) : undefined,
    };
  return { rows, wire: claimWire({ ...claim, claim_id: claim.claim_id ?? '' }, rows, new Map(), stagedHere) };
}

/**
 * A fresh claim's evidence started now, when it names any and no row is known invalid: a file of
 * the folder, an object of a store, a link. Read in the claim's own turn, a night's receipts held
 * a slot idle while they were opened, read, hashed and checked (10 ms of a claim's 170, three
 * round trips of 50 ms); read here, while the claims ahead are in flight, at most the window's
 * claims' files are held at once. A failure that stops the run (credentials refused) is the
 * claim's to throw when taken; a claim dropped untaken leaves its read unobserved, and its
 * rejection is not an unhandled one.
 */
function readEarly(rows: readonly RowRecord[], folder: EvidenceFolder): Promise<EvidenceCheck> | undefined {
  if (rows.some((row) => row.outcome === 'invalid') || rows.every(namesNoEvidence)) return undefined;
  const reading = checkClaimEvidence(rows, folder);
  reading.catch(() => undefined);
  return reading;
}

/** A row that is not known invalid and names no evidence file. */
function isPlainRow(row: RowRecord): boolean {
  return row.outcome !== 'invalid' && namesNoEvidence(row);
}

function namesNoEvidence(row: RowRecord): boolean {
  return row.evidence_json === null || row.evidence_json === '[]';
}

/** A claim waiting for its turn, prepared by then or when it is taken, whichever comes first. */
export class ClaimAhead {
  private state: { prepared: PreparedClaim } | { failed: unknown } | undefined;
  /** Taken, or dropped: the pump leaves it alone. */
  settled = false;

  constructor(
    readonly claim: ClaimRecord,
    private readonly journal: Journal,
    private readonly stagedHere = false,
    private readonly readAhead?: EvidenceFolder,
    /** Its rows as read with its page, when nothing but its own turn can change them (process-claims.ts). */
    private readonly rows?: RowRecord[],
  ) {}

  /** Whether the preparation has run (by the pump or a take). */
  get isPrepared(): boolean {
    return this.state !== undefined;
  }

  /**
   * The preparation, done now if the pump has not reached it yet. A read of the journal that
   * failed in the pump is tried again here, in the claim's turn, where it always was; a failure
   * then is thrown to the claim's caller.
   */
  take(): PreparedClaim {
    this.settled = true;
    if (this.state !== undefined && 'failed' in this.state) this.state = undefined;
    this.prepare();
    if (this.state !== undefined && 'failed' in this.state) throw this.state.failed;
    return (this.state as { prepared: PreparedClaim }).prepared;
  }

  /** Not going to be taken, or no longer: the claim's turn is over, or the run stopped before it. */
  drop(): void {
    this.settled = true;
  }

  prepare(): void {
    if (this.state !== undefined) return;
    try {
      this.state = { prepared: prepareClaim(this.claim, this.journal, this.stagedHere, this.readAhead, this.rows) };
    } catch (error) {
      this.state = { failed: error };
    }
  }
}

/**
 * Prepares scheduled claims one per turn of the event loop (setImmediate, chained), so an answer
 * arriving meanwhile waits for one claim's preparation at most, never for a queue of them.
 */
export class PrepareAhead {
  private readonly queue: ClaimAhead[] = [];
  private pumping = false;

  constructor(
    private readonly journal: Journal,
    private readonly stagedHere = false,
    /** Where the claims' evidence is: it is read ahead too. */
    private readonly readAhead?: EvidenceFolder,
  ) {}

  /** Only claims whose create is still to come are worth preparing; the others are prepared when taken, if ever. */
  schedule(claim: ClaimRecord, rows?: RowRecord[]): ClaimAhead {
    const ahead = new ClaimAhead(claim, this.journal, this.stagedHere, this.readAhead, rows);
    if (claim.step !== 'staged') return ahead;
    this.queue.push(ahead);
    if (!this.pumping) {
      this.pumping = true;
      setImmediate(this.pump);
    }
    return ahead;
  }

  private readonly pump = (): void => {
    let next = this.queue.shift();
    while (next?.settled === true) next = this.queue.shift();
    next?.prepare();
    if (this.queue.length > 0) setImmediate(this.pump);
    else this.pumping = false;
  };
}
