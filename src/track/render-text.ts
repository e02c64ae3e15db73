import { whyText, type WorkItem } from '../job-files/track/status.js';

/** Shown on the worklist's first lines, this many; the file has them all. */
const worklistShown = 20;

/** The worklist on stdout: a short table naming each case, soonest due first. */
export function formatWorklist(items: readonly WorkItem[]): string {
  if (items.length === 0) return 'nothing needs a person today\n';
  const rows = items
    .slice(0, worklistShown)
    .map((item) => [
      item.line.caseId,
      whyText[item.why],
      item.line.state?.resolutionDueDate.slice(0, 10) ?? '',
      item.line.daysLeft === undefined ? '' : String(item.line.daysLeft),
      item.line.state?.status ?? '',
    ]);
  const header = ['case', 'why', 'due', 'days left', 'status'];
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const more = items.length > worklistShown ? `… and ${items.length - worklistShown} more in the worklist file\n` : '';
  return `${items.length} ${items.length === 1 ? 'case needs' : 'cases need'} a person:\n${[format(header), ...rows.map(format)].join('\n')}\n${more}`;
}
