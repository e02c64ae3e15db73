import { contentPolicyMeta } from '../job-files/content-policy.js';
import { escapeHtml } from '../job-files/html.js';
import { groupColours } from '../job-files/outcome-colours.js';
import { majorUnits } from '../job-files/track/status.js';
import { whyText, workTextOf, type WorkItem } from '../job-files/track/worklist.js';
import {
  formatAmounts,
  recoveryRates,
  type OutcomeGroup,
  type Tally,
  type TrackSummary,
} from '../job-files/track/summary.js';

/** The rows of the worklist the page shows; the worklist file has them all. */
const worklistRowsShown = 500;

const groupNames: Readonly<Record<OutcomeGroup, string>> = {
  won: 'won',
  lost: 'lost',
  closed: 'closed otherwise',
  open: 'still open',
  never_filed: 'never filed',
};

const style = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222;max-width:70rem}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f3f3f3}
td.n{text-align:right}.note{color:#555}.key span{display:inline-block;width:.8rem;height:.8rem;margin:0 .3rem 0 1rem;vertical-align:middle}
${Object.entries(groupColours)
  .map(([group, colour]) => `.key .${group}{background:${colour}}`)
  .join('')}`;

/**
 * The summary as a page a manager reads (docs/track.md, "What it writes"): the recovery rate,
 * outcomes by reason as bars, cases resolved by week, the worklist as a table. One self-contained
 * file: inline CSS and SVG, no script, nothing fetched; its policy lets nothing else in
 * (content-policy.ts), so the key's colours are classes of the style, not style attributes.
 */
export function renderTrackHtml(
  summary: TrackSummary,
  worklist: readonly WorkItem[],
  context: { title: string; service: string; asOf: string },
): string {
  const rates = recoveryRates(summary);
  const recovery = Object.entries(rates).map(
    ([currency, rate]) =>
      `<strong>${(rate * 100).toFixed(1)}%</strong> of ${escapeHtml(majorUnits(summary.filed[currency], currency))} ${escapeHtml(currency)} filed`,
  );
  const left = summary.neverFiled === 0 ? '' : ` (${summary.neverFiled} never filed not counted)`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
${contentPolicyMeta({ styles: [style] })}
<title>bulk-disputes track: ${escapeHtml(context.title)}</title>
<style>${style}</style>
</head>
<body>
<h1>Disputes: ${escapeHtml(context.title)}</h1>
<p>${escapeHtml(context.service)}; as of ${escapeHtml(context.asOf)}. ${summary.cases} cases of
${summary.rows} rows; ${summary.changed} changed since the last run.</p>
<p id="recovery">Recovered (won): ${recovery.length === 0 ? 'nothing filed yet' : recovery.join(', ') + left}</p>
<h2>Needs a person (${worklist.length})</h2>
${worklistTable(worklist)}
<h2>Outcomes by reason</h2>
${outcomesByReason(summary)}
<h2>Cases resolved by week</h2>
${resolvedByWeek(summary.resolvedByWeek)}
<h2>By status</h2>
${tallyTable('status', summary.byStatus)}
<h2>Decided, by how they closed</h2>
${tallyTable('closed_reason', summary.byClosedReason)}
<h2>By job</h2>
${tallyTable('job', summary.byJob)}
</body>
</html>
`;
}

function worklistTable(worklist: readonly WorkItem[]): string {
  if (worklist.length === 0) return '<p>Nothing needs a person today.</p>';
  const rows = worklist.slice(0, worklistRowsShown).map((item) => {
    const { line } = item;
    const state = line.state;
    const cells = [
      line.claimKey,
      line.caseId,
      whyText[item.why],
      state?.resolutionDueDate.slice(0, 10) ?? '',
      line.daysLeft === undefined ? '' : String(line.daysLeft),
      state?.status ?? '',
      state === undefined ? '' : `${majorUnits(state.amount, state.currency)} ${state.currency}`,
      state?.reason ?? '',
      line.job,
      workTextOf(item),
    ];
    return `<tr>${cells.map((cell, column) => `<td${column === 4 ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`;
  });
  const more =
    worklist.length > worklistRowsShown
      ? `<p class="note">The first ${worklistRowsShown} of ${worklist.length}, in the worklist's order; the worklist file has them all.</p>\n`
      : '';
  return `<table id="worklist"><thead><tr><th>claim key</th><th>case</th><th>why</th><th>due</th><th>days left</th>
  <th>status</th><th>amount</th><th>reason</th><th>job</th><th>what to do</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${more}`;
}

/** One stacked bar per reason code: won, lost, closed otherwise, still open. */
function outcomesByReason(summary: TrackSummary): string {
  const reasons = Object.entries(summary.outcomesByReason).sort((a, b) => total(b[1]) - total(a[1]));
  if (reasons.length === 0) return '<p>No case read yet.</p>';
  const groups: OutcomeGroup[] = ['won', 'lost', 'closed', 'open', 'never_filed'];
  const widest = Math.max(...reasons.map(([, counts]) => total(counts)));
  const barHeight = 22;
  const labelWidth = 200;
  const barWidth = 520;
  const bars = reasons.map(([reason, counts], index) => {
    let x = labelWidth;
    const y = index * (barHeight + 6);
    const parts = groups.map((group) => {
      const width = (counts[group] / widest) * barWidth;
      const part =
        width > 0
          ? `<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${barHeight}" ` +
            `fill="${groupColours[group]}">` +
            `<title>${escapeHtml(`${reason || '(none)'}: ${counts[group]} ${groupNames[group]}`)}</title></rect>`
          : '';
      x += width;
      return part;
    });
    return (
      `<text x="0" y="${y + 15}">${escapeHtml(reason || '(none)')}</text>${parts.join('')}<text ` +
      `x="${(x + 6).toFixed(1)}" y="${y + 15}">${total(counts)}</text>`
    );
  });
  const height = reasons.length * (barHeight + 6);
  const key = groups.map((group) => `<span class="${group}"></span>${groupNames[group]}`).join('');
  return `<svg id="outcomes" width="${labelWidth + barWidth + 60}" height="${height}" role="img" aria-label="outcomes by reason">${bars.join('')}</svg>
<p class="key">${key}</p>`;
}

function resolvedByWeek(byWeek: Record<string, number>): string {
  const weeks = Object.entries(byWeek).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (weeks.length === 0) return '<p>No case decided yet.</p>';
  const most = Math.max(...weeks.map(([, count]) => count));
  const columnWidth = 28;
  const height = 160;
  const columns = weeks.map(([week, count], index) => {
    const barHeight = (count / most) * height;
    const x = index * (columnWidth + 4);
    return (
      `<rect x="${x}" y="${(height - barHeight).toFixed(1)}" width="${columnWidth}" ` +
      `height="${barHeight.toFixed(1)}" fill="#2e7d32">` +
      `<title>${escapeHtml(`week of ${week}: ${count} decided`)}</title></rect>` +
      `<text x="${x}" y="${height + 14}" font-size="10">${escapeHtml(week.slice(5))}</text>`
    );
  });
  return `<svg id="weeks" width="${weeks.length * (columnWidth + 4)}" height="${height + 20}" role="img"
  aria-label="cases resolved by week">${columns.join('')}</svg>
<p class="note">By the week each case was first seen decided: the time of the event that moved it, else the run that read it.</p>`;
}

function tallyTable(name: string, groups: Record<string, Tally>): string {
  const entries = Object.entries(groups).sort((a, b) => b[1].cases - a[1].cases);
  if (entries.length === 0) return '<p>None.</p>';
  const rows = entries.map(
    ([key, group]) =>
      `<tr><td>${escapeHtml(key || '(none)')}</td><td class="n">${group.cases}</td><td>${escapeHtml(formatAmounts(group.amounts))}</td></tr>`,
  );
  return `<table><thead><tr><th>${escapeHtml(name)}</th><th>cases</th><th>amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

const total = (counts: Record<OutcomeGroup, number>) =>
  counts.won + counts.lost + counts.closed + counts.open + counts.never_filed;
