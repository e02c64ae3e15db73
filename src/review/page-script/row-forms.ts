/** One row drawn: a row to fix as labelled inputs checked on the server as the reviewer types, any other row read-only. */
export const rowForms = String.raw`
function problemOf(container, column) {
  return container.querySelector('[data-column="' + CSS.escape(column) + '"]');
}
function showCheck(container, check) {
  const status = container.querySelector('.status');
  if (!status) return;
  status.replaceChildren();
  for (const cell of container.querySelectorAll('.cell')) {
    cell.classList.remove('bad');
    cell.querySelector('.problem').textContent = '';
    cell.querySelector('.mapped').textContent = '';
  }
  if (!check) return;
  for (const [column, value] of Object.entries(check.mapped)) {
    const cell = problemOf(container, column);
    if (cell) cell.querySelector('.mapped').textContent = '→ ' + value;
  }
  for (const problem of check.problems)
    for (const column of problem.columns) {
      const cell = problemOf(container, column);
      if (cell) {
        cell.classList.add('bad');
        cell.querySelector('.problem').textContent = problem.code + ': ' + problem.message;
      }
    }
  status.append(
    check.ok
      ? element('span', '✓ maps: ready to feed back', 'ok')
      : element(
          'span',
          check.problems.length +
            ' problem(s): ' +
            check.problems.map((p) => p.field + ' ' + p.code).join(', '),
          'error',
        ),
  );
}
function heading(row) {
  const title = element(
    'h3',
    (tracked && row.caseId ? 'Case ' + row.caseId : 'Line ' + row.line) +
      ' · ' +
      row.outcome +
      (row.claimKey ? ' · claim ' + row.claimKey : ''),
  );
  if (row.mixed) {
    const badge = element('span', 'mixed claim', 'badge');
    badge.style.background = '#5b6776';
    title.append(badge);
  }
  return title;
}
/** A not_filed row: the claim exists; what the service said, and an evidence file to attach. */
function filing(row, container) {
  const box = element('div', '', 'filing');
  box.setAttribute('role', 'note');
  box.append(
    element(
      'strong',
      'The service created this claim' +
        (row.claimId ? ' (' + row.claimId + (row.caseId ? ', case ' + row.caseId : '') + ')' : '') +
        ' but did not file it.',
    ),
    element('div', 'It said: ' + row.errorCode + ': ' + row.errorMessage),
    element(
      'div',
      'Attach what it asks for, or correct the cells: fed back, the claim is updated and filed again, never created again.',
      'hint',
    ),
  );
  container.append(box);
}
function attach(row, container) {
  if (job.evidence.length === 0) return;
  const set = element('fieldset', '', 'attach');
  set.append(element('legend', 'Attach an evidence file'));
  const id = 'e' + row.line;
  const columnLabel = element('label', 'to column');
  columnLabel.htmlFor = id + '-column';
  const select = element('select');
  select.id = id + '-column';
  for (const item of job.evidence)
    select.append(new Option(item.column + ' (' + item.category + ')', item.column));
  const pathLabel = element('label', 'file in the evidence folder');
  pathLabel.htmlFor = id + '-path';
  const path = element('input');
  path.id = id + '-path';
  path.setAttribute('list', 'evidence-files');
  path.autocomplete = 'off';
  let timer;
  // Asked again when a request fails (a busy machine, a dropped connection): the offer would
  // otherwise stay empty until the reviewer types again.
  const offer = async (attempt) => {
    try {
      const found = await api('GET', '/api/evidence?q=' + encodeURIComponent(path.value));
      byId('evidence-files').replaceChildren(...found.files.map((file) => new Option(file, file)));
    } catch {
      if (attempt < 3) timer = setTimeout(() => offer(attempt + 1), 500);
    }
  };
  path.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => offer(0), 200);
  });
  const add = button('Attach', () => {
    const value = path.value.trim();
    if (!value) return;
    const spec = job.evidence.find((item) => item.column === select.value);
    const input = problemOf(container, select.value)?.querySelector('input');
    if (!input) return;
    input.value = input.value.trim() && spec.separator ? input.value.trim() + spec.separator + value : value;
    path.value = '';
    input.dispatchEvent(new Event('input'));
    input.focus();
  });
  const left = element('div');
  left.append(columnLabel, select);
  const right = element('div');
  right.append(pathLabel, path);
  set.append(left, right, add);
  container.append(set);
}
function editableRow(row) {
  const container = element('article', '', 'row');
  container.dataset.line = row.line;
  container.append(heading(row));
  if (row.outcome === 'not_filed') filing(row, container);
  else container.append(element('p', 'the import said: ' + row.errorCode + ': ' + row.errorMessage, 'error'));
  if (row.hint) container.append(element('p', 'fix: ' + row.hint, 'hint'));
  const cells = element('div', '', 'cells');
  let timer;
  job.columns.forEach((column, position) => {
    const cell = element('div', '', 'cell');
    cell.dataset.column = column;
    const id = 'c' + row.line + '-' + position;
    const label = element('label', column);
    label.htmlFor = id;
    const input = element('input');
    input.id = id;
    input.value = row.cells[column] ?? '';
    if (row.errorColumns.includes(column) && !row.edited) cell.classList.add('bad');
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const edited = {};
        for (const field of cells.querySelectorAll('input'))
          edited[field.parentElement.dataset.column] = field.value;
        try {
          const saved = await api('PUT', '/api/rows/' + row.line, { cells: edited });
          showCheck(container, saved.check);
          for (const sibling of saved.siblings) {
            const other = document.querySelector('article[data-line="' + sibling.line + '"]');
            if (other) showCheck(other, sibling.check);
          }
          updateEdited();
        } catch (error) {
          container
            .querySelector('.status')
            .replaceChildren(element('span', 'not saved: ' + error.message, 'error'));
        }
      }, 300);
    });
    cell.append(label, input, element('div', '', 'problem'), element('div', '', 'mapped'));
    cells.append(cell);
  });
  container.append(cells);
  if (row.outcome === 'not_filed' || row.errorField.startsWith('evidence.')) attach(row, container);
  container.append(element('div', '', 'status'));
  // Back to the cells the import read: the edit leaves the review's store.
  container.append(
    button(
      'Undo my edits to line ' + row.line,
      async () => {
        const original = await api('DELETE', '/api/rows/' + row.line);
        container.replaceWith(editableRow(original));
        updateEdited();
      },
      'link',
    ),
  );
  // A claim's rows may be far apart in the input: shown together, they are fixed together.
  if (row.claimKey && state.claim !== row.claimKey) {
    container.append(document.createTextNode(' · '));
    container.append(
      button(
        'Show every row of claim ' + row.claimKey,
        () => show({ scope: 'all', claim: row.claimKey }),
        'link',
      ),
    );
  }
  if (row.check) showCheck(container, row.check);
  else
    for (const column of row.errorColumns) {
      const cell = problemOf(container, column);
      if (cell) cell.querySelector('.problem').textContent = row.errorCode + ': ' + row.errorMessage;
    }
  return container;
}
function readonlyRow(row) {
  const container = element('article', '', 'row readonly');
  container.dataset.line = row.line;
  container.append(heading(row));
  if (row.errorCode) {
    container.append(element('p', row.errorCode + ': ' + row.errorMessage, 'error'));
    if (row.hint) container.append(element('p', words.hint + row.hint, 'hint'));
  }
  const cells = element('dl', '', 'cells');
  for (const column of job.columns) {
    const cell = element('div', '', 'cell');
    cell.append(element('dt', column, 'label'), element('dd', row.cells[column] ?? ''));
    cells.append(cell);
  }
  container.append(cells);
  if (row.claimKey && state.claim !== row.claimKey)
    container.append(
      button('Show every row of claim ' + row.claimKey, () => show({ scope: 'all', claim: row.claimKey })),
    );
  return container;
}
`;
