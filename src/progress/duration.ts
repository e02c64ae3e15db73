/**
 * A duration as people read it on a progress line or in a summary, rclone's way: `2.1s` under ten
 * seconds, `42s`, `3m12s`, `1h02m`. Short enough for a line that must fit a terminal's width.
 */
export function formatDuration(durationMs: number): string {
  const ms = Math.max(0, durationMs);
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${pad(seconds % 60)}s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${pad(minutes % 60)}m`;
}

/** A rate per second: one decimal below ten (`2.5/s`), whole and grouped above (`1,204/s`). */
export function formatRate(perSecond: number): string {
  if (perSecond < 10) return perSecond.toFixed(1);
  return Math.round(perSecond).toLocaleString('en-US');
}

const pad = (value: number) => String(value).padStart(2, '0');
