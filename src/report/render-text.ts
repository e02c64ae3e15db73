import { hintFor } from '../job-files/hints.js';
import type { Summary } from '../job-files/summarise.js';

/** The report on stdout: counts, the top errors with their fix hints, claims with mixed outcomes. */
export function renderText(summary: Summary, source: string, service?: string): string {
  const lines = [
    `report: ${source}`,
    ...(service === undefined ? [] : [service]),
    `rows ${summary.rows}, claims ${summary.claims}${summary.unreadable === 0 ? '' : `, ${summary.unreadable} unreadable`}`,
    '',
    'outcomes:',
  ];
  lines.push(...table(summary.byOutcome.map(([outcome, count]) => [outcome, count])));
  lines.push('', 'error codes:');
  lines.push(
    ...(summary.byErrorCode.length === 0
      ? ['  (none)']
      : table(summary.byErrorCode.map((error) => [error.code, error.count]))),
  );
  lines.push('', `top errors (${summary.topErrors.length} of ${summary.byErrorCode.length}):`);
  for (const error of summary.topErrors) {
    lines.push(
      `  ${error.code} (${error.count})`,
      `    e.g.  ${oneLine(error.example)}`,
      `    fix:  ${hintFor(error.code)}`,
    );
  }
  if (summary.topErrors.length === 0) lines.push('  (none)');
  lines.push('', `claims with mixed outcomes: ${summary.mixedClaimsTotal}`);
  for (const claim of summary.mixedClaims) lines.push(`  ${claimLabel(claim)} -> ${claim.outcomes.join(', ')}`);
  const rest = summary.mixedClaimsTotal - summary.mixedClaims.length;
  if (rest > 0) lines.push(`  … and ${rest} more`);
  return `${lines.join('\n')}\n`;
}

export function claimLabel(claim: { claimKey: string; claimId: string }): string {
  return claim.claimId === '' ? `(no claim id; key ${claim.claimKey})` : claim.claimId;
}

function table(entries: readonly (readonly [string, number])[]): string[] {
  const width = Math.max(...entries.map(([name]) => name.length), 0);
  return entries.map(([name, count]) => `  ${name.padEnd(width)}  ${String(count).padStart(7)}`);
}

/** A message may hold line breaks (from a source cell); the report keeps one line per entry. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}
