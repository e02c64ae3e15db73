import { basename } from 'node:path';
import { escapeHtml } from '../job-files/html.js';
import type { ReviewJob } from './job-types.js';

/** What the page calls things: a track journal's rows are cases, its rows to fix the worklist. */
const jobWords = {
  outcomes: 'Outcomes',
  outcome: 'outcome',
  errors: 'Most frequent errors',
  code: 'error code',
  hint: 'how to fix',
  toFix: 'to fix',
  toFixTitle: 'Rows to fix',
};
const trackWords = {
  outcomes: 'Statuses',
  outcome: 'status',
  errors: 'Why on the worklist',
  code: 'why',
  hint: 'what to do',
  toFix: 'worklist',
  toFixTitle: 'Worklist',
};

/**
 * The review page: server-rendered, one small script (page-script.ts) and its style (page-style.ts),
 * each served as a file of its own so that the page's policy allows no inline script or style
 * (response-headers.ts); no build step, nothing from a CDN. The overview draws the report's figures with every figure a button that shows its rows;
 * the rows are labelled native inputs and buttons in reading order, so keyboard only is enough.
 */
export function reviewPage(job: ReviewJob): string {
  const what =
    job.kind === 'import'
      ? `mapping: ${escapeHtml(job.mappingFile)}`
      : job.kind === 'track'
        ? "a track journal: the cases' states as last read, the worklist first; shown, not edited"
        : `a ${job.kind} journal: its cases are shown, not edited`;
  const words = job.kind === 'track' ? trackWords : jobWords;
  const journals =
    job.journals.length === 1
      ? escapeHtml(job.journal)
      : `${job.journals.length} shards: ${job.journals.map((file) => escapeHtml(basename(file))).join(', ')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bulk-disputes review: ${escapeHtml(basename(job.journal))}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/review.css"></head>
<body data-kind="${job.kind}">
<header><h1>bulk-disputes review</h1><p class="muted">${journals} · service: ${escapeHtml(job.service)} · ${what}</p></header>
<section aria-labelledby="overview-title"><h2 id="overview-title">Overview</h2>
<div class="figures" id="figures"></div>
<div class="charts">
<div class="panel"><h3>${words.outcomes}</h3><ul class="bars" id="outcomes" aria-label="rows per ${words.outcome}"></ul></div>
<div class="panel"><h3>${words.errors}</h3><table id="errors"><thead><tr><th>${words.code}</th><th>rows</th>
<th>${words.hint}</th></tr></thead><tbody></tbody></table></div>
<div class="panel wide"><h3 id="mixed-title">Claims with mixed outcomes</h3><ul id="mixed"></ul></div>
<div class="panel" id="summary-panel" hidden><h3>Summary</h3><pre id="summary-text"></pre></div>
</div></section>
<section aria-labelledby="rows-title"><h2 id="rows-title" tabindex="-1">${words.toFixTitle}</h2>
<form class="filters" id="filters" role="search">
  <div><label for="scope">rows</label><select id="scope"><option value="fix">${words.toFix}</option><option value="all">every row</option></select></div>
  <div><label for="outcome">${words.outcome}</label><select id="outcome"><option value="">any</option></select></div>
  <div><label for="code">${words.code}</label><select id="code"><option value="">any</option></select></div>
  <div><label for="claim">claim</label><input id="claim" type="search" placeholder="a claim key"></div>
  <div><label for="q">search</label><input id="q" type="search" placeholder="a reference, a name, a message"></div>
  <div><label><input type="checkbox" id="mixedonly"> mixed claims only</label><label><input type="checkbox" id="editedonly"> edited only</label></div>
  <button type="submit">Show</button> <button type="button" id="clear">Clear filters</button>
  <button type="button" class="primary" id="save"${job.kind === 'import' ? '' : ' hidden'}>Save fix file</button>
  <button type="button" class="primary" id="send" hidden>Send fixes</button>
</form>
<div id="retry" hidden role="note"></div>
<div id="saved" hidden role="status"></div>
<datalist id="evidence-files"></datalist>
<div id="rows" aria-live="polite"></div>
<nav aria-label="pages"><button type="button" id="previous">Previous page</button> <span id="pageinfo">
</span> <button type="button" id="next">Next page</button></nav>
</section>
<script src="/review.js"></script>
</body></html>
`;
}
