import { v1CaseStatuses } from '../../api/schemas/known-values.js';

/**
 * The moves the card network makes after filing, driven through the control prefix: each status and
 * where it may go next. Outcomes `won` and `lost` end the case.
 */
export const networkMoves: Record<string, readonly string[]> = {
  chargeback_filed: ['chargeback_represented', 'won', 'lost'],
  chargeback_represented: ['prearb_filed', 'won', 'lost'],
  prearb_filed: ['prearb_rebutted', 'arbitration_filed', 'won', 'lost'],
  prearb_rebutted: ['arbitration_filed', 'won', 'lost'],
  arbitration_filed: ['won', 'lost'],
};

/** Every status a move can reach, in the order the statuses are listed (what the advance body accepts). */
export const advanceTargets = v1CaseStatuses.filter((status) =>
  Object.values(networkMoves).some((next) => next.includes(status)),
);

export function canAdvance(from: string, to: string): boolean {
  return networkMoves[from]?.includes(to) ?? false;
}

/** Event type of a move: `case.<status>` (the service names most; the rest follow its pattern). */
export function eventTypeFor(status: string): string {
  return `case.${status}`;
}
