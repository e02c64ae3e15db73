import type { EncodingGuess } from '../../../csv/sniff-encoding.js';
import type { Decision } from '../types.js';
import { flow, scalar, type YamlLines } from '../render-yaml.js';
import type { FieldKind } from './field-runs.js';
import type { FixedWidthField, FixedWidthGuess } from './recognise.js';
import type { RecordTypeGuess } from './record-types.js';

/**
 * The draft's `fixed_width` and `controls` sections (docs/mappings.md, "mapping guess and
 * fixed-width files"): the record types with what showed each one's role, the fields seen across
 * the records, each a CHECK (digits: numbers, dates, amounts) or a TODO (text, whose ends only the
 * published layout knows), and the trailer's record count when its digits say it.
 */

/** Field names of the trailer: one for the count, read by `controls.record_count.field`. */
export const recordCountField = 'record_count';

const kindWords: Record<FieldKind, string> = {
  amount: 'an amount',
  date: 'a date yyyyMMdd',
  julian_date: 'a Julian date yyyyDDD (date format "yyyyooo")',
  number: 'digits',
  text: 'text',
};

const roleWords: Record<RecordTypeGuess['role'], string> = {
  header: 'opens the blocks: header',
  detail: 'the most frequent between them: detail (the rows)',
  trailer: 'closes the blocks: trailer',
  ignore: 'neither: ignore (read and counted, never a row)',
};

/** "H 137 characters, 2 records": a record type as the output and the draft name it. */
export function describeType(type: RecordTypeGuess): string {
  return `${JSON.stringify(type.code)}: ${type.length} characters, ${type.count} record${type.count === 1 ? '' : 's'}`;
}

export function renderFixedWidth(yaml: YamlLines, guess: FixedWidthGuess, encoding: EncodingGuess): void {
  const { records } = guess;
  const blocks = records.blocks.length;
  yaml.add('fixed_width:');
  yaml.comment(
    '  ',
    `a fixed-width record file (${guess.linesRead} lines read): no delimiter splits its lines as a CSV's, and every ` +
      `record of a type, its code at [${records.recordType.join(', ')}], is as long as the others of its type ` +
      `(confidence: ${guess.confidence})`,
  );
  for (const type of records.types) yaml.comment('  ', `  ${describeType(type)}: ${roleWords[type.role]}`);
  yaml.comment(
    '  ',
    `${blocks} block${blocks === 1 ? '' : 's'} (header … trailer)${blocks > 1 ? ', one after another: a concatenated file reads the same' : ''}`,
  );
  if (records.shortLastLine !== undefined)
    yaml.comment(
      '  ',
      `line ${records.shortLastLine.line}, the last, is shorter than its type's records: its trailing spaces were cut (read as if padded)`,
    );
  if (guess.blankLines > 0) yaml.comment('  ', `${guess.blankLines} blank lines: skipped, never records`);
  yaml.comment('  ', `encoding: ${encoding.evidence} (confidence: ${encoding.confidence})`);
  yaml.add(
    `  encoding: ${encoding.encoding}`,
    '  positions_from: 0',
    `  record_type: [${records.recordType.join(', ')}]`,
    '  records:',
  );
  for (const type of records.types) {
    yaml.add(`    ${scalar(type.code)}:`, `      role: ${type.role}`);
    const path = `fixed_width.records.${type.code}.fields`;
    if (type.role === 'detail') renderFields(yaml, path, guess.detailFields, true);
    if (type.role === 'header') {
      yaml.comment(
        '      ',
        "carry: [NAME] gives each row of a block one of its header's fields (the file's date, its sequence number)",
      );
      renderFields(yaml, path, guess.headerFields, false);
    }
    if (type.role === 'trailer' && guess.recordCount !== undefined) {
      yaml.add('      fields:');
      yaml.add(`        ${recordCountField}: [${guess.recordCount.first}, ${guess.recordCount.last}]`);
    }
  }
  renderControls(yaml, guess);
}

/**
 * A record type's fields: digits a CHECK at the end of their line, text a TODO above it. The
 * header's text is only commented: a person adds the fields a row carries.
 */
function renderFields(yaml: YamlLines, path: string, fields: readonly FixedWidthField[], rows: boolean): void {
  if (fields.length === 0) {
    yaml.comment('      ', 'no field seen: every column blank in the records read');
    return;
  }
  yaml.add('      fields:');
  for (const field of fields) {
    const line = `        ${field.name}: [${field.first}, ${field.last}]`;
    const seen = `${kindWords[field.kind]} in every record, e.g. ${JSON.stringify(field.example)}`;
    if (field.kind !== 'text') yaml.checkedLine(line, `${path}.${field.name}`, `${seen}; name it as the layout does`);
    else if (rows) {
      yaml.todo(
        '        ',
        `${path}.${field.name}`,
        `${seen}: take the positions from the file's published layout (fields side by side without a space read as one) and name it as the layout does`,
      );
      yaml.add(line);
    } else yaml.add(`${line}   # ${seen}`);
  }
}

function renderControls(yaml: YamlLines, guess: FixedWidthGuess): void {
  const count = guess.recordCount;
  if (guess.trailer === undefined) return;
  if (count === undefined) {
    yaml.comment(
      '',
      'controls: no digits of the trailer equal the records of its block (all, or the detail records): ' +
        "the trailer's count, if it has one, is for a person to name from the layout",
    );
    return;
  }
  const whole = count.agreeing + count.disagreeing.length;
  const what = count.counts === 'all_records' ? 'all its records, header and trailer included' : 'its detail records';
  yaml.add('controls:');
  yaml.comment(
    '  ',
    `record_count: the trailer's digits at [${count.first}, ${count.last}] equal, in ${count.agreeing} of ${whole} ` +
      `whole block${whole === 1 ? '' : 's'} read, ${what}`,
  );
  yaml.check('  ', 'controls.record_count', recordCountCheck(guess));
  yaml.add(`  record_count: ${flow({ field: recordCountField, counts: count.counts })}`);
}

function recordCountCheck(guess: FixedWidthGuess): string {
  const disagreeing = guess.recordCount?.disagreeing ?? [];
  if (disagreeing.length === 0)
    return 'is this the count the layout gives? the import stops at a block whose trailer disagrees';
  return `${disagreements(guess).join('; ')}: a damaged or edited file, or not the count; the import stops at such a block (TRAILER_MISMATCH)`;
}

/** "block 2's trailer says 4, the block holds 3", for each whole block whose trailer disagrees. */
export function disagreements(guess: FixedWidthGuess): string[] {
  return (guess.recordCount?.disagreeing ?? []).map(
    (entry) => `block ${entry.block}'s trailer says ${entry.says}, the block holds ${entry.holds}`,
  );
}

/** The `decided:` lines of a fixed-width file: its record types and the trailer's count. */
export function fixedWidthDecisions(guess: FixedWidthGuess): Decision[] {
  const decisions: Decision[] = [
    {
      subject: 'fixed_width',
      decision: `record types at [${guess.records.recordType.join(', ')}]: ${guess.records.types.map((type) => `${type.code} ${type.role}`).join(', ')}`,
      confidence: guess.confidence,
    },
  ];
  const count = guess.recordCount;
  if (count !== undefined)
    decisions.push({
      subject: 'controls.record_count',
      decision: `trailer [${count.first}, ${count.last}], ${count.counts}`,
      confidence: count.disagreeing.length === 0 && count.agreeing > 1 ? 'medium' : 'low',
    });
  return decisions;
}

/** What the summary says before the decisions: the record types, the blocks, and trailers that disagree. */
export function fixedWidthSummaryLines(guess: FixedWidthGuess): string[] {
  const blocks = guess.records.blocks.length;
  return [
    `a fixed-width record file: ${blocks} block${blocks === 1 ? '' : 's'}, record types at [${guess.records.recordType.join(', ')}]:`,
    ...guess.records.types.map((type) => `  ${describeType(type)}, ${type.role}`),
    ...disagreements(guess).map((line) => `  ${line}`),
  ];
}
