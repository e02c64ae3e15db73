import { formatDuration, formatRate } from './duration.js';

/** What one progress line shows: numbers only, worked out by Progress from its clock. */
export interface ProgressView {
  /** The phase: `staging`, `sending`, `planning`, `exporting`... */
  label: string;
  /** What is counted: rows, claims, v1 cases, events... */
  unit: string;
  done: number;
  /** Known for sending (claims to send); absent for a stream read to its end (staging, export). */
  total?: number | undefined;
  /** The share of the input read, 0 to 1, where it is known (a CSV's bytes read of its size). */
  share?: number | undefined;
  perSecond?: number | undefined;
  elapsedMs: number;
  /** Undefined: not known yet, or nothing is moving. */
  etaMs?: number | undefined;
  /** Running counts by outcome, in the order to show them; zeros are left out. */
  counts?: readonly (readonly [string, number])[];
  /** What the job waits on now: a Retry-After pause, a service failing claim after claim. */
  notices?: readonly string[];
}

/**
 * The line, e.g. (rclone's --progress: done/total, rate, elapsed, ETA)
 *   sending [#####...............] 4,512/20,000 claims 23%  150 claims/s  elapsed 30s  ETA 1m43s  paused 2.4s (429 Retry-After)  filed 4,400  invalid 100
 * Kept to `width` columns by leaving parts out, least needed first (the bar, then elapsed time,
 * the counts from the last, the notices), never by cutting the ETA off mid-word.
 */
export function progressLine(view: ProgressView, width: number): string {
  const group = (value: number) => value.toLocaleString('en-US');
  const parts: Part[] = [];
  const known = view.total !== undefined || view.share !== undefined;
  const fraction = view.total !== undefined ? (view.total === 0 ? 1 : view.done / view.total) : view.share;
  parts.push({ text: view.label, keep: 0 });
  if (fraction !== undefined) parts.push({ text: bar(fraction), keep: 6, tight: true });
  const count =
    view.total === undefined
      ? `${group(view.done)} ${view.unit}`
      : `${group(view.done)}/${group(view.total)} ${view.unit}`;
  const percent =
    fraction === undefined ? '' : ` ${Math.floor(fraction * 100)}%${view.total === undefined ? ' of the file' : ''}`;
  parts.push({ text: `${count}${percent}`, keep: 0, tight: true });
  if (view.perSecond !== undefined) parts.push({ text: `${formatRate(view.perSecond)} ${view.unit}/s`, keep: 1 });
  parts.push({ text: `elapsed ${formatDuration(view.elapsedMs)}`, keep: 5 });
  if (known) parts.push({ text: `ETA ${view.etaMs === undefined ? '?' : formatDuration(view.etaMs)}`, keep: 1 });
  for (const notice of view.notices ?? []) parts.push({ text: notice, keep: 2 });
  for (const [outcome, n] of view.counts ?? []) if (n > 0) parts.push({ text: `${outcome} ${group(n)}`, keep: 3 });
  return fit(parts, Math.max(width, 20) - 1);
}

const barWidth = 20;

function bar(fraction: number): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * barWidth);
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]`;
}

/** A part of the line; `keep` 0 is always shown, higher ones go first; a tight part follows the one before after one space, not two. */
interface Part {
  text: string;
  keep: number;
  tight?: boolean;
}

/** Leaves out the parts least needed, the last of them first, until the line fits; a line that still does not is cut. */
function fit(parts: readonly Part[], columns: number): string {
  const join = (shown: readonly Part[]) =>
    shown.map((part, position) => (position === 0 ? '' : part.tight === true ? ' ' : '  ') + part.text).join('');
  const shown = [...parts];
  while (join(shown).length > columns) {
    const least = Math.max(...shown.map((part) => part.keep));
    if (least === 0) break;
    shown.splice(
      shown.findLastIndex((part) => part.keep === least),
      1,
    );
  }
  return join(shown).slice(0, columns);
}
