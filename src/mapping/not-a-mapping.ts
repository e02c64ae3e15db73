import { fileKindOf } from '../files/file-kind.js';

/**
 * A file given as the mapping that is no mapping at all (the export itself, a workbook, an empty
 * file, a list): said in one sentence, rather than as the schema's complaints about a document it
 * was never meant to describe. The import's input comes first and the mapping after `--mapping`,
 * and the two are easily swapped.
 */

const expected =
  'not a mapping file: expected a YAML mapping of keys such as csv, claim and shared (mappings/README.md)';
const swapped = 'was the export given as the mapping (the input comes first, the mapping after --mapping)?';

/** The delimiters an issuer's export uses, as the CSV sniffer tries them. */
const delimiters = [',', ';', '\t', '|'];

/** What the first bytes say, for a file that is not text: a workbook, a journal, other binary content. */
function binaryKind(text: string): string | undefined {
  const kind = fileKindOf(Buffer.from(text.slice(0, 16), 'utf8'));
  if (kind === 'zip') return 'a workbook or other zip archive (by its first bytes)';
  if (kind === 'sqlite') return "a SQLite database, such as a job's journal (by its first bytes)";
  // NUL or undecodable bytes: no YAML file holds them.
  const head = text.slice(0, 4096);
  if (head.includes('\0') || head.includes('\uFFFD')) return 'binary content, not text';
  return undefined;
}

/** The export's header line, when the text reads as a CSV: its delimiter and column count on the first two lines. */
function csvLayout(text: string): { columns: number; delimiter: string } | undefined {
  const [first = '', second] = text.replace(/^\uFEFF/u, '').split(/\r?\n/u, 2);
  for (const delimiter of delimiters) {
    const columns = first.split(delimiter).length;
    if (columns < 3) continue;
    // One line alone, or a second with as many cells: a table, not YAML.
    if (second === undefined || second === '' || second.split(delimiter).length >= columns)
      return { columns, delimiter };
  }
  return undefined;
}

function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tabs' : `"${delimiter}"`;
}

/** What a parsed document is, when it is not a mapping of keys. */
function documentKind(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'an empty file (or comments only)';
  if (Array.isArray(value)) return `a list of ${String(value.length)} items (a JSON array or YAML sequence)`;
  if (typeof value === 'object') return undefined;
  return typeof value === 'string' ? 'plain text, with no keys' : `a single value (${typeof value}), with no keys`;
}

/**
 * The one sentence for a file that is not a mapping, or undefined when it may be one. `parsed` is
 * the YAML document's value, or undefined with `syntaxError` when YAML could not read it.
 */
export function notAMappingSentence(
  text: string,
  parsed: { value: unknown } | { syntaxError: true },
): string | undefined {
  const binary = binaryKind(text);
  if (binary !== undefined) return `${expected}, got ${binary}; ${swapped}`;
  // Only a document that is no mapping of keys is looked at as a CSV: a mapping's own lines never are.
  const kind = 'value' in parsed ? documentKind(parsed.value) : undefined;
  if ('value' in parsed && kind === undefined) return undefined;
  if (text.trim() === '') return `${expected}, got an empty file`;
  const csv = csvLayout(text);
  if (csv !== undefined)
    return (
      `${expected}, got what reads as a CSV export (a first line of ${String(csv.columns)} columns separated by ` +
      `${describeDelimiter(csv.delimiter)}); ${swapped}`
    );
  return kind === undefined ? undefined : `${expected}, got ${kind}`;
}
