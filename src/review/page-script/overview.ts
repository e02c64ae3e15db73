/** The overview: every figure a button that shows its rows, the outcome bars, the retry command. */
export const overview = String.raw`
async function overview() {
  const data = await api('GET', '/api/overview');
  job = data;
  const figures = byId('figures');
  figures.replaceChildren();
  const figure = (count, label, filters) => {
    const made = button('', () => show(filters), 'figure');
    made.append(element('b', count.toLocaleString('en')), element('span', label));
    made.setAttribute('aria-label', count + ' ' + label + ': show them');
    figures.append(made);
  };
  figure(data.rows, 'rows', { scope: 'all' });
  figure(data.claims, 'claims', { scope: 'all' });
  figure(data.toFix, words.toFix, { scope: 'fix' });
  figure(data.mixedClaimsTotal, 'claims with mixed outcomes', { scope: 'all', mixed: true });
  if (data.kind === 'import') figure(data.edited, 'edited', { scope: 'fix', edited: true });
  const most = Math.max(1, ...data.outcomes.map((item) => item.count));
  const outcomes = byId('outcomes');
  outcomes.replaceChildren();
  const outcomeSelect = byId('outcome');
  outcomeSelect.replaceChildren(new Option('any', ''));
  for (const { outcome, count } of data.outcomes) {
    const item = element('li');
    const bar = button('', () => show({ scope: 'all', outcome }), 'bar');
    bar.setAttribute('aria-label', outcome + ': ' + count + ' rows, show them');
    const track = element('span', '', 'track');
    const fill = element('span', '', 'fill');
    fill.style.width = (100 * count) / most + '%';
    fill.style.background = colours[outcome] || '#777';
    track.append(fill);
    bar.append(element('span', outcome), track, element('span', count.toLocaleString('en'), 'count'));
    item.append(bar);
    outcomes.append(item);
    outcomeSelect.append(new Option(outcome, outcome));
  }
  const errors = byId('errors').tBodies[0];
  errors.replaceChildren();
  for (const error of data.errors) {
    const row = element('tr');
    const code = element('td');
    code.append(button(error.code, () => show({ scope: 'all', code: error.code }), 'link'));
    row.append(code, element('td', error.count.toLocaleString('en'), 'n'), element('td', error.hint));
    row.title = error.example;
    errors.append(row);
  }
  if (data.errors.length === 0) {
    const none = element('tr');
    none.append(element('td', 'No errors.', 'note'));
    errors.append(none);
  }
  byId('mixed-title').textContent = 'Claims with mixed outcomes (' + data.mixedClaimsTotal + ')';
  const mixed = byId('mixed');
  mixed.replaceChildren();
  for (const claim of data.mixedClaims) {
    const item = element('li');
    // A link, not a button: a long key and id wrap as the text around them does, never centred in a box.
    const link = element('a', claim.claimKey + (claim.claimId ? ' (' + claim.claimId + ')' : ''));
    link.href = '#rows-title';
    link.addEventListener('click', (event) => {
      event.preventDefault();
      show({ scope: 'all', claim: claim.claimKey });
    });
    item.append(link, element('span', ': ' + claim.outcomes.join(', ')));
    mixed.append(item);
  }
  if (data.mixedClaimsTotal > data.mixedClaims.length) {
    const more = element('li');
    more.append(
      button('all ' + data.mixedClaimsTotal + ' claims', () => show({ scope: 'all', mixed: true }), 'link'),
    );
    mixed.append(more);
  }
  if (data.mixedClaimsTotal === 0) mixed.append(element('li', 'None.', 'note'));
  const codes = byId('code');
  const chosen = codes.value;
  codes.replaceChildren(new Option('any', ''));
  for (const { code, count } of data.codes)
    codes.append(new Option(code + ' (' + count + ' ' + words.toFix + ')', code));
  codes.value = chosen;
  if (data.retry) {
    const retry = byId('retry');
    retry.hidden = false;
    retry.textContent = data.retryNote + '\n' + data.retry;
  }
  if (data.summaryText) {
    byId('summary-panel').hidden = false;
    byId('summary-text').textContent = data.summaryText;
  }
}

`;
