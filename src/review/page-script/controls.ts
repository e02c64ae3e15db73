/** The list of rows and the page controls: filters, paging, save and send. */
export const controls = String.raw`
async function rows() {
  const query = new URLSearchParams({
    scope: state.scope,
    outcome: state.outcome,
    code: state.code,
    claim: state.claim,
    q: state.q,
    page: String(state.page),
  });
  if (state.mixed) query.set('mixed', '1');
  if (state.edited) query.set('edited', '1');
  const data = await api('GET', '/api/rows?' + query);
  byId('rows').replaceChildren(
    ...data.rows.map((row) => (row.editable ? editableRow(row) : readonlyRow(row))),
  );
  if (data.rows.length === 0) byId('rows').append(element('p', 'No rows match.', 'note'));
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  byId('pageinfo').textContent =
    'page ' + data.page + ' of ' + pages + ' (' + data.total.toLocaleString('en') + ' rows)';
  byId('previous').disabled = data.page <= 1;
  byId('next').disabled = data.page >= pages;
}
async function updateEdited() {
  const data = await api('GET', '/api/overview');
  const figure = [...byId('figures').children].find((item) => item.textContent.endsWith('edited'));
  if (figure) figure.querySelector('b').textContent = data.edited.toLocaleString('en');
}

byId('filters').addEventListener('submit', (event) => {
  event.preventDefault();
  state = {
    scope: byId('scope').value,
    outcome: byId('outcome').value,
    code: byId('code').value,
    claim: byId('claim').value.trim(),
    q: byId('q').value,
    mixed: byId('mixedonly').checked,
    edited: byId('editedonly').checked,
    page: 1,
  };
  if (state.scope === 'fix' && state.outcome && job.fixOutcomes && !job.fixOutcomes.includes(state.outcome))
    state.scope = 'all';
  syncForm();
  rows();
});
byId('clear').addEventListener('click', () => show({}));
byId('previous').addEventListener('click', () => {
  state.page--;
  rows();
});
byId('next').addEventListener('click', () => {
  state.page++;
  rows();
});
byId('save').addEventListener('click', async () => {
  const out = byId('saved');
  out.hidden = false;
  try {
    const saved = await api('POST', '/api/save');
    out.textContent =
      'Saved ' + saved.rows + ' row(s) to ' + saved.file + '\nFeed it back:\n' + saved.command;
  } catch (error) {
    out.textContent = String(error.message);
  }
});
const sendButton = byId('send');
fetch('/api/send', { credentials: 'same-origin' }).then((response) => {
  sendButton.hidden = !response.ok;
});
sendButton.addEventListener('click', async () => {
  const out = byId('saved');
  out.hidden = false;
  sendButton.disabled = true;
  try {
    await api('POST', '/api/send');
    for (;;) {
      const sent = await api('GET', '/api/send');
      out.textContent = 'Sending: ' + sent.progress;
      if (sent.status === 'done') {
        out.textContent =
          'Sent: ' +
          Object.entries(sent.outcomes || {})
            .filter(([, count]) => count > 0)
            .map(([outcome, count]) => outcome + ' ' + count)
            .join(', ') +
          (sent.error ? ' (stopped: ' + sent.error + ')' : '') +
          '\nresults: ' +
          sent.results;
        break;
      }
      if (sent.status === 'failed') {
        out.textContent = 'Send failed: ' + sent.error;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } catch (error) {
    out.textContent = String(error.message);
  } finally {
    sendButton.disabled = false;
  }
});
overview().then(rows);
`;
