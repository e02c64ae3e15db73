import type { ColumnProfile } from '../profile.js';
import { flow, type YamlLines } from '../render-yaml.js';
import type { Sample } from '../types.js';
import { repeatedRows, repeatedRowsMessage } from './repeated-rows.js';
import { rowKindColumns } from './row-kind-columns.js';

/**
 * The draft's `rows` part (docs/mappings.md, "Rows not for import, and the same dispute twice"):
 * the sample's repeated rows, told as the import will report them, and a `rows.only` for a column
 * that reads as a row's kind, written as a comment with a CHECK: which rows a report's dispute is
 * on is the issuer's to say, and a filter left on by mistake would skip disputes every night.
 */
export function renderRows(
  yaml: YamlLines,
  sample: Sample,
  unplaced: readonly ColumnProfile[],
  firstLine: number,
): void {
  const repeated = repeatedRows(sample, firstLine);
  const [kind, ...otherKinds] = rowKindColumns(unplaced);
  if (repeated.length === 0 && kind === undefined) return;
  yaml.comment(
    '',
    'rows: which rows are imported, and the same dispute twice (docs/mappings.md, "Rows not for import")',
  );
  for (const lines of repeated.slice(0, 3)) yaml.check('', 'rows', repeatedRowsMessage(lines));
  if (repeated.length > 3) yaml.comment('', `  and ${repeated.length - 3} more groups of identical rows`);
  if (kind === undefined) return;
  const values = kind.keep.length > 0 ? kind.keep : kind.values;
  const seen = kind.values.map((value) => JSON.stringify(value)).join(', ');
  yaml.check(
    '',
    'rows.only',
    `${JSON.stringify(kind.column)} holds ${seen} in the sample: it reads as the kind of each row (a dispute's ` +
      'stage, or a record type); if the export has several rows per dispute, import only one kind ' +
      (kind.keep.length > 0 ? '(the first stage or the detail record, below)' : '(choose its values below)') +
      ': uncomment rows, and every other row is reported skipped',
  );
  if (otherKinds.length > 0)
    yaml.comment('', `  also of that kind: ${otherKinds.map((other) => JSON.stringify(other.column)).join(', ')}`);
  yaml.comment('', 'rows:');
  yaml.comment('', `  only: ${flow({ [kind.column]: values })}`);
}
