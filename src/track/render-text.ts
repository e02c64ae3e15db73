import { whyText, workReasons, type WorkItem } from '../job-files/track/worklist.js';

/** Shown on the worklist's first lines, this many; the file has them all. */
const worklistShown = 20;

/**
 * The worklist on stdout (what a cron mail shows): the count by why, then the first cases in the
 * order a person works them, each named by the operator's claim key beside the service's case id,
 * a case never filed with what its job recorded.
 */
export function formatWorklist(items: readonly WorkItem[]): string {
  if (items.length === 0) return 'nothing needs a person today\n';
  const rows = items
    .slice(0, worklistShown)
    .map((item) => [
      item.line.claimKey,
      item.line.caseId,
      whyText[item.why],
      item.line.state?.resolutionDueDate.slice(0, 10) ?? '',
      item.line.daysLeft === undefined ? '' : String(item.line.daysLeft),
      item.line.state?.status ?? '',
      item.why === 'not_filed' ? item.line.jobError : '',
    ]);
  const header = ['claim key', 'case', 'why', 'due', 'days left', 'status', 'not filed because'];
  const used = header.map((_, column) => column < header.length - 1 || rows.some((row) => row[column] !== ''));
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const format = (cells: readonly string[]) =>
    cells
      .filter((_, column) => used[column])
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const more = items.length > worklistShown ? `… and ${items.length - worklistShown} more in the worklist file\n` : '';
  const title = `${items.length} ${items.length === 1 ? 'case needs' : 'cases need'} a person: ${countsByWhy(items)}`;
  return `${title}\n${[format(header), ...rows.map(format)].join('\n')}\n${more}`;
}

/** `2 merchant answered, 1 needs review, 1,640 never filed`, in the worklist's order. */
function countsByWhy(items: readonly WorkItem[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.why, (counts.get(item.why) ?? 0) + 1);
  return workReasons
    .flatMap((why) => {
      const count = counts.get(why);
      return count === undefined ? [] : [`${count} ${whyText[why]}`];
    })
    .join(', ');
}
