/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell starting with `=`, `+`, `-`, `@`,
 * tab or carriage return is run as a formula by Excel, LibreOffice and Google Sheets. Such cells
 * get a leading apostrophe, which spreadsheets show as text. Plain numbers such as `-12.50` are
 * left alone: they cannot run, and a fixed file fed back in must still parse.
 *
 * A cell that already starts with apostrophes before such a start (`'=literal`, typed so by the
 * bank) gets one more, so that `restore` gives back exactly what the source held: the two are
 * inverses for every cell, and a results file fed back sends what the export said.
 */

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?\d+(?:[.,]\d+)*$/;
const apostrophe = 0x27;

export function neutralise(cell: string): string {
  return needsPrefix(cell) ? `'${cell}` : cell;
}

/** Undoes `neutralise` for a results file fed back in, so the source cells are the originals. */
export function restore(cell: string): string {
  return cell.startsWith("'") && needsPrefix(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Whether the cell, past any leading apostrophes, starts like a formula. */
function needsPrefix(cell: string): boolean {
  let start = 0;
  while (cell.charCodeAt(start) === apostrophe) start++;
  const rest = start === 0 ? cell : cell.slice(start);
  return formulaStart.test(rest) && !plainNumber.test(rest);
}
