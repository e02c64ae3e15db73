import { hintFor } from '../job-files/hints.js';
import { outcomeColours, unknownOutcomeColour } from '../job-files/outcome-colours.js';
import { contentPolicyMeta } from '../job-files/content-policy.js';
import { escapeHtml } from '../job-files/html.js';
import { claimLabel } from './render-text.js';
import type { ResultLine } from '../job-files/read/read-results.js';
import { maxFailedRows, type Summary } from '../job-files/summarise.js';

const failedColumns: readonly (readonly [string, (row: ResultLine) => string])[] = [
  ['line', (row) => row.line],
  ['claim_key', (row) => row.claimKey],
  ['claim_id', (row) => row.claimId],
  ['case_id', (row) => row.caseId],
  ['outcome', (row) => row.outcome],
  ['error_code', (row) => row.errorCode],
  ['error_message', (row) => row.errorMessage],
  ['error_field', (row) => row.errorField],
];

const style = `body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}#failed th{cursor:pointer;user-select:none}
#failed th[aria-sort=ascending]::after{content:" \\25B2"}#failed th[aria-sort=descending]::after{content:" \\25BC"}
td.n{text-align:right}.note{color:#555}`;

// Sorts the failed rows by the clicked column; numbers (the line column) as numbers.
const sortScript = `document.querySelectorAll('#failed th').forEach(function(th,i){th.addEventListener('click',function(){
var body=document.querySelector('#failed tbody');var up=th.getAttribute('aria-sort')!=='ascending';
document.querySelectorAll('#failed th').forEach(function(o){o.removeAttribute('aria-sort')});th.setAttribute('aria-sort',up?'ascending':'descending');
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=a.cells[i].textContent,y=b.cells[i].textContent;
var d=(x!==''&&y!==''&&!isNaN(x)&&!isNaN(y))?x-y:x.localeCompare(y);return up?d:-d});rows.forEach(function(r){body.appendChild(r)})})});`;

/**
 * One self-contained page: inline CSS, SVG and script; nothing is fetched, and its policy allows
 * nothing else to run (content-policy.ts).
 */
export function renderHtml(summary: Summary, source: string, service?: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
${contentPolicyMeta({ styles: [style], scripts: [sortScript] })}
<title>bulk-disputes report: ${escapeHtml(source)}</title>
<style>${style}</style>
</head>
<body>
<h1>bulk-disputes report</h1>
<p>${escapeHtml(source)}: ${summary.rows} rows, ${summary.claims} claims${summary.unreadable === 0 ? '' : `, ${summary.unreadable} unreadable lines`}</p>
${service === undefined ? '' : `<p id="service">${escapeHtml(service)}</p>\n`}<h2>Outcomes</h2>
${outcomeChart(summary.byOutcome)}
<h2>Most frequent errors</h2>
${topErrors(summary)}
<h2>Claims with mixed outcomes (${summary.mixedClaimsTotal})</h2>
${mixedClaims(summary)}
<h2>Failed rows (${summary.failedRowsTotal})</h2>
${failedTable(summary)}
<script>${sortScript}</script>
</body>
</html>
`;
}

function outcomeChart(byOutcome: Summary['byOutcome']): string {
  const barHeight = 24;
  const labelWidth = 90;
  const barWidth = 400;
  const max = Math.max(1, ...byOutcome.map(([, count]) => count));
  const bars = byOutcome.map(([outcome, count], position) => {
    const y = position * (barHeight + 6);
    const width = Math.max(1, Math.round((count / max) * barWidth));
    return (
      `<text x="0" y="${y + 17}">${escapeHtml(outcome)}</text>` +
      `<rect x="${labelWidth}" y="${y}" width="${width}" height="${barHeight}" ` +
      `fill="${outcomeColours[outcome] ?? unknownOutcomeColour}"><title>${escapeHtml(outcome)}: ${count}</title></rect>` +
      `<text x="${labelWidth + width + 6}" y="${y + 17}">${count}</text>`
    );
  });
  const height = Math.max(1, byOutcome.length) * (barHeight + 6);
  return `<svg role="img" aria-label="rows per outcome" width="${labelWidth + barWidth + 80}" height="${height}" font-size="13">${bars.join('')}</svg>`;
}

function topErrors(summary: Summary): string {
  if (summary.topErrors.length === 0) return '<p class="note">No errors.</p>';
  const rows = summary.topErrors.map(
    (error) =>
      `<tr><td>${escapeHtml(error.code)}</td><td class="n">${error.count}</td>` +
      `<td>${escapeHtml(hintFor(error.code))}</td><td>${escapeHtml(error.example)}</td></tr>`,
  );
  return (
    `<table id="errors"><thead><tr><th>error_code</th><th>rows</th><th>how to fix</th>` +
    `<th>example message</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function mixedClaims(summary: Summary): string {
  if (summary.mixedClaimsTotal === 0) return '<p class="note">None.</p>';
  const items = summary.mixedClaims.map(
    (claim) => `<li>${escapeHtml(claimLabel(claim))}: ${escapeHtml(claim.outcomes.join(', '))}</li>`,
  );
  const rest = summary.mixedClaimsTotal - summary.mixedClaims.length;
  return `<ul>${items.join('')}</ul>${rest > 0 ? `<p class="note">… and ${rest} more.</p>` : ''}`;
}

function failedTable(summary: Summary): string {
  if (summary.failedRowsTotal === 0) return '<p class="note">No failed rows.</p>';
  const head = failedColumns.map(([name]) => `<th>${name}</th>`).join('');
  const body = summary.failedRows.map(
    (row) =>
      `<tr>${failedColumns.map(([name, cell]) => `<td${name === 'line' ? ' class="n"' : ''}>${escapeHtml(cell(row))}</td>`).join('')}</tr>`,
  );
  const note =
    summary.failedRowsTotal > summary.failedRows.length
      ? `<p class="note">Showing the first ${maxFailedRows} of ${summary.failedRowsTotal} failed rows; the results CSV has them all.</p>`
      : '';
  return (
    `${note}<p class="note">Click a column heading to sort.</p><table id="failed"><thead><tr>${head}</tr>` +
    `</thead><tbody>\n${body.join('\n')}\n</tbody></table>`
  );
}
