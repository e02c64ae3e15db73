import type { StatusLine } from './status.js';
import { compareWork, workItemOf, type WorkItem } from './worklist.js';
import { addToSummary, emptySummary, type TrackSummary } from './summary.js';

/**
 * The status lines, one at a time, into the summary and the worklist: what a run writes and what
 * `report` of a track journal prints come from the same lines the same way. A case named by two
 * rows is counted, and listed, once.
 */
export class TrackTally {
  readonly summary: TrackSummary = emptySummary();
  private readonly items: WorkItem[] = [];
  private readonly counted = new Set<string>();
  private readonly listed = new Set<string>();

  constructor(private readonly dueWithinDays: number) {}

  add(line: StatusLine): void {
    addToSummary(this.summary, line, this.counted);
    if (this.listed.has(line.caseId)) return;
    const item = workItemOf(line, this.dueWithinDays);
    if (item === undefined) return;
    this.listed.add(line.caseId);
    this.items.push(item);
  }

  /** The worklist, soonest due first. */
  worklist(): WorkItem[] {
    this.items.sort(compareWork);
    this.summary.worklist = this.items.length;
    return this.items;
  }
}
