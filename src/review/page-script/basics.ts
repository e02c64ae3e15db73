/** The page's state and its small helpers: colours by outcome, the filters, the API call, elements made as text. */
export const basics = String.raw`
'use strict';
const colours = {
  won: '#2e7d32',
  chargeback_filed: '#66bb6a',
  chargeback_represented: '#f9a825',
  prearb_filed: '#ef6c00',
  prearb_rebutted: '#ef6c00',
  arbitration_filed: '#6a1b9a',
  lost: '#c62828',
  closed: '#9e9e9e',
  not_read: '#9e9e9e',
  no_case: '#9e9e9e',
  filed: '#2e7d32',
  created: '#66bb6a',
  valid: '#81c784',
  not_filed: '#f9a825',
  would_not_file: '#f9a825',
  invalid: '#ef6c00',
  rejected: '#c62828',
  failed: '#6a1b9a',
  migrated: '#2e7d32',
  skipped: '#9e9e9e',
  withdrawn: '#2e7d32',
  deleted: '#66bb6a',
  already_closed: '#9e9e9e',
  not_found: '#f9a825',
  refused: '#c62828',
  would_withdraw: '#81c784',
  would_delete: '#81c784',
};
const blank = { scope: 'fix', outcome: '', code: '', claim: '', q: '', mixed: false, edited: false, page: 1 };
let state = Object.assign({}, blank);
let job = { columns: [], evidence: [] };
const byId = (id) => document.getElementById(id);
// A track journal's rows are cases and its rows to fix the worklist (page.ts names them the same way).
const tracked = document.body.dataset.kind === 'track';
const words = tracked
  ? { toFix: 'on the worklist', toFixTitle: 'Worklist', all: 'Every case', hint: 'what to do: ' }
  : { toFix: 'to fix', toFixTitle: 'Rows to fix', all: 'Rows', hint: 'fix: ' };
async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'same-origin',
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || String(response.status));
  return data;
}
function element(tag, content, className) {
  const made = document.createElement(tag);
  if (content !== undefined) made.textContent = content;
  if (className) made.className = className;
  return made;
}
function button(label, onClick, className) {
  const made = element('button', label, className);
  made.type = 'button';
  made.addEventListener('click', onClick);
  return made;
}
/** Shows the rows a figure stands for, and moves there. */
function show(filters) {
  state = Object.assign({}, blank, filters);
  syncForm();
  rows().then(() => byId('rows-title').focus());
}
function syncForm() {
  byId('scope').value = state.scope;
  byId('outcome').value = state.outcome;
  byId('code').value = state.code;
  byId('claim').value = state.claim;
  byId('q').value = state.q;
  byId('mixedonly').checked = state.mixed;
  byId('editedonly').checked = state.edited;
  byId('rows-title').textContent = state.scope === 'all' ? words.all : words.toFixTitle;
}

`;
