import { outcomeColours } from '../../job-files/outcome-colours.js';

/** The page's state and its small helpers: colours by outcome, the filters, the API call, elements made as text. */
export const basics = String.raw`
'use strict';
const colours = ${JSON.stringify(outcomeColours)};
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
