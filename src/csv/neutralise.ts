/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell starting with `=`, `+`, `-`, `@`,
 * tab or carriage return is run as a formula by Excel, LibreOffice and Google Sheets. Such cells
 * get a leading apostrophe, which spreadsheets show as text. Plain numbers such as `-12.50` are
 * left alone: they cannot run, and a fixed file fed back in must still parse.
 */

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?\d+(?:[.,]\d+)*$/;

export function neutralise(cell: string): string {
  return formulaStart.test(cell) && !plainNumber.test(cell) ? `'${cell}` : cell;
}

/** Undoes `neutralise` for a results file fed back in, so the source cells are the originals. */
export function restore(cell: string): string {
  return cell.startsWith("'") && formulaStart.test(cell.slice(1)) && !plainNumber.test(cell.slice(1))
    ? cell.slice(1)
    : cell;
}
