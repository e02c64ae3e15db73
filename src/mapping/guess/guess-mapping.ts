import { assignRoles, type Assignments } from './assign-roles.js';
import { perFileSequence, proposeClaimKey, type ClaimKeyGuess, type SequenceRange } from './claim-key.js';
import { describeDelimiter, type DialectGuess } from '../../csv/sniff-dialect.js';
import type { EncodingGuess } from '../../csv/sniff-encoding.js';
import { cardNumberNote, maskedSample } from './card-number-column.js';
import { caseIdField, completeFields } from './draft-fields.js';
import { draftColumns, isPlaceholder, placeholderColumn, type FieldDraft } from './field-draft.js';
import { describeValues, profileColumns, type ColumnProfile } from './profile.js';
import { flow, renderSection, scalar, YamlLines } from './render-yaml.js';
import { evidenceEntries, type EvidenceDraft } from './evidence-columns.js';
import type { Decision, Sample } from './types.js';
import { renderReport, reportDecisions, type ReportLayoutGuess } from './report-layout.js';
import { renderRows } from './rows/render-rows.js';
import type { FixedWidthGuess } from './fixed-width/recognise.js';
import { fixedWidthDecisions, renderFixedWidth } from './fixed-width/render.js';

export interface GuessInput {
  readonly sample: Sample;
  readonly encoding: EncodingGuess;
  readonly dialect: DialectGuess;
  /** The export's name as the user gave it, for the comments. */
  readonly source: string;
  /** Where the table sits when the export is a report: title lines before the header, a trailer. */
  readonly report?: ReportLayoutGuess | undefined;
  /** Records that could not be read (a stray quote): counted, not guessed from. */
  readonly unreadableRows: number;
  /** Path of mappings/mapping.schema.json as seen from where the draft is written. */
  readonly schemaPath: string;
  /** The line of the sample's first row, to name repeated rows by line (default: right after the header). */
  readonly firstLine?: number | undefined;
  /** A fixed-width record file: its record types and fields; the sample's rows are its detail records. */
  readonly fixedWidth?: FixedWidthGuess | undefined;
}

export type { Decision } from './types.js';

export interface Draft {
  readonly yaml: string;
  readonly decisions: readonly Decision[];
  /** Must be done before the draft can import a row; `line` is the TODO comment's line. */
  readonly todos: readonly { line: number; field: string; message: string }[];
  /** Guesses that run but deserve a look. */
  readonly checks: readonly { line: number; field: string; message: string }[];
  readonly unplaced: readonly { column: string; note: string }[];
  /** The evidence columns mapped: the import then needs the folder their paths are relative to. */
  readonly evidence: readonly EvidenceDraft[];
}

/** A draft mapping for a sample of an export, with what was decided and what needs a person. */
export function guessMapping(input: GuessInput): Draft {
  const { dialect } = input;
  // Masked as the import masks it: nothing the draft quotes can hold a full card number.
  const sample = maskedSample(input.sample);
  // A fixed-width file's field names are positions, not headers: the values alone say what a field holds.
  const profiles = profileColumns(sample, dialect.header && input.fixedWidth === undefined);
  const assignments = assignRoles(sample, profiles, dialect.delimiter === ';' ? ',' : '.');
  const fields = completeFields(assignments);
  const sharedColumns = [
    ...new Set(
      fields
        .filter((field) => field.section === 'shared' && field.column !== undefined)
        .map((field) => field.column ?? ''),
    ),
  ];
  const placedColumns = new Set<string | undefined>(fields.flatMap(draftColumns));
  const cardNumbers = assignments.cardNumbers;
  const keyCandidates = profiles.filter(
    (profile) =>
      !cardNumbers.includes(profile) &&
      (assignments.named.claimKey.includes(profile) ||
        // An ARN placed as the transaction's is a key too: a claim per disputed transaction.
        profile.kind.kind === 'arn' ||
        (!placedColumns.has(profile.column) && !assignments.named.evidence.includes(profile))),
  );
  const claimKey = proposeClaimKey(sample, keyCandidates, sharedColumns);
  const keyValues = profiles.find((profile) => profile.column === claimKey.column)?.values;
  const sequence = keyValues === undefined ? undefined : perFileSequence(keyValues, sample.rows.length);
  const caseId = caseIdField(sample, assignments.named.caseId, claimKey);
  const allFields = caseId === undefined ? fields : [...fields, caseId];
  const evidence = evidenceEntries(
    assignments.named.evidence,
    profiles.filter(
      (profile) =>
        !placedColumns.has(profile.column) &&
        !cardNumbers.includes(profile) &&
        profile.column !== claimKey.column &&
        profile.column !== caseId?.column,
    ),
  );

  const used = new Set<string>([
    ...cardNumbers.map((profile) => profile.column),
    ...allFields.flatMap(draftColumns),
    claimKey.column ?? '',
    ...evidence.map((entry) => entry.column),
  ]);
  const unplaced = profiles
    .filter((profile) => !used.has(profile.column))
    .map((profile) => ({ column: profile.column, note: unplacedNote(profile, assignments) }));

  const yaml = new YamlLines();
  renderHeader(yaml, input);
  renderClaim(yaml, claimKey, sequence);
  renderSection(
    yaml,
    'shared',
    allFields.filter((field) => field.section === 'shared'),
  );
  renderSection(
    yaml,
    'case',
    allFields.filter((field) => field.section === 'case'),
  );
  renderEvidence(yaml, evidence);
  const unplacedProfiles = profiles.filter((profile) => !used.has(profile.column));
  renderRows(yaml, sample, unplacedProfiles, input.firstLine ?? (dialect.header ? 2 : 1));
  yaml.comment(
    '',
    'auto files each claim after creating it; none only creates them, chargeback files as a chargeback.',
  );
  yaml.add('file_mode: auto');
  renderCardNumbers(yaml, cardNumbers, allFields);
  renderUnplaced(yaml, unplaced);

  const decisions = decisionsOf(input, claimKey, allFields, evidence);
  return { yaml: yaml.text(), decisions, todos: yaml.todoLines, checks: yaml.checkLines, unplaced, evidence };
}

/** What was decided, field by field, with how sure each decision is: the command's table. */
function decisionsOf(
  { encoding, dialect, report, fixedWidth }: GuessInput,
  claimKey: ClaimKeyGuess,
  allFields: readonly FieldDraft[],
  evidence: readonly EvidenceDraft[],
): Decision[] {
  return [
    { subject: 'encoding', decision: encoding.encoding, confidence: encoding.confidence },
    ...(fixedWidth === undefined
      ? [
          {
            subject: 'delimiter',
            decision:
              `${describeDelimiter(dialect.delimiter)}, quote ${dialect.quote}, ${dialect.lineEnding} line endings, ` +
              (dialect.header ? 'a header line' : 'no header line'),
            confidence: dialect.confidence,
          },
        ]
      : fixedWidthDecisions(fixedWidth)),
    ...(report === undefined ? [] : reportDecisions(report)),
    { subject: 'claim.key', decision: claimKey.column ?? 'none found', confidence: claimKey.confidence },
    ...allFields.map((field) => ({
      subject: `${field.section}.${field.target}`,
      decision: isPlaceholder(field) ? 'TODO' : `column ${JSON.stringify(field.column)}`,
      confidence: field.confidence,
    })),
    ...evidence.map((entry) => ({
      subject: 'evidence',
      decision: `column ${JSON.stringify(entry.column)}, ${entry.category}`,
      confidence: entry.confidence,
    })),
  ];
}

function renderHeader(yaml: YamlLines, input: GuessInput): void {
  const { encoding, dialect, sample } = input;
  yaml.add(`# yaml-language-server: $schema=${input.schemaPath}`);
  yaml.comment(
    '',
    `Draft written by \`bulk-disputes mapping guess\` from ${input.source} (${sample.rows.length} rows ` +
      `read${input.unreadableRows > 0 ? `, ${input.unreadableRows} unreadable` : ''}).`,
  );
  yaml.comment(
    '',
    'TODO lines need a person: until each is done, `import --dry-run` reports the rows they affect as invalid.',
  );
  yaml.comment('', 'CHECK lines are guesses worth a look. Delete both kinds of comment once done.');
  yaml.add(
    `description: ${scalar(`Draft for ${input.source}, guessed from ${sample.rows.length} rows: review the TODO and CHECK comments`)}`,
  );
  yaml.add('csv:');
  if (input.fixedWidth !== undefined) {
    yaml.comment(
      '  ',
      'a fixed-width file (fixed_width, below): csv says how the results file is written and read back',
    );
    yaml.add('  encoding: utf-8');
    renderFixedWidth(yaml, input.fixedWidth, encoding);
    return;
  }
  yaml.comment('  ', `encoding: ${encoding.evidence} (confidence: ${encoding.confidence})`);
  yaml.comment('  ', `delimiter: ${dialect.evidence} (confidence: ${dialect.confidence})`);
  yaml.comment(
    '  ',
    `line endings ${dialect.lineEnding} (the reader takes CRLF and LF alike); ` +
      (!dialect.header
        ? 'no header line: columns are numbered from 1'
        : input.report?.layout?.header === undefined
          ? 'the first line names the columns'
          : `line ${input.report.headerLine} names the columns (report, below)`),
  );
  yaml.add(
    `  delimiter: ${scalar(dialect.delimiter)}`,
    `  quote: ${scalar(dialect.quote)}`,
    `  encoding: ${encoding.encoding}`,
    `  header: ${dialect.header}`,
  );
  if (input.report !== undefined) renderReport(yaml, input.report);
}

function renderClaim(yaml: YamlLines, claimKey: ClaimKeyGuess, sequence: SequenceRange | undefined): void {
  yaml.add('claim:');
  yaml.comment('  ', `key: ${claimKey.evidence} (confidence: ${claimKey.confidence})`);
  if (claimKey.column === undefined)
    yaml.todo('  ', 'claim.key', 'name the column (or columns) whose values say which claim a row belongs to');
  else if (claimKey.confidence === 'low')
    yaml.check('  ', 'claim.key', `is ${JSON.stringify(claimKey.column)} the dispute reference?`);
  // A key that restarts in every file gives the next file's claims this file's ids.
  if (sequence !== undefined) {
    yaml.check(
      '  ',
      'claim.key',
      `${JSON.stringify(claimKey.column)} looks like a per-file sequence (${sequence.first} to ` +
        `${sequence.last}) that restarts in every file, so two files' claims would meet at one claim id: key ` +
        `on a column unique across files (or add one that tells files apart, e.g. a batch date), or give each ` +
        `file its own claim.id_prefix (below)`,
    );
  }
  yaml.add(`  key: ${flow([claimKey.column ?? placeholderColumn])}`);
  yaml.comment('  ', 'id: left out, so each claim id derives from the key and a re-run never duplicates a claim');
  // The prefix is stated once per mapping: with a per-file key, each file needs its own (kept for its re-runs).
  if (sequence !== undefined)
    yaml.comment(
      '  ',
      "id_prefix: SOURCE-2026-03  (this file's own name, e.g. source and date: the same for every re-run of this file, another for the next file)",
    );
}

function renderEvidence(yaml: YamlLines, evidence: readonly EvidenceDraft[]): void {
  if (evidence.length === 0) return;
  yaml.add('evidence:');
  for (const entry of evidence) {
    yaml.comment('  ', `${entry.evidence} (confidence: ${entry.confidence})`);
    if (entry.check !== undefined) yaml.check('  ', 'evidence', entry.check);
    yaml.add(
      `  - ${flow({ column: entry.column, category: entry.category, ...(entry.separator === undefined ? {} : { separator: entry.separator }) })}`,
    );
  }
}

/** The card-number columns card.last4 does not read: said to hold cardholder data, and that none of it is sent. */
function renderCardNumbers(
  yaml: YamlLines,
  cardNumbers: readonly ColumnProfile[],
  allFields: readonly FieldDraft[],
): void {
  const lastFour = allFields.find((field) => field.target === 'card.last4')?.column;
  for (const profile of cardNumbers)
    if (profile.column !== lastFour) yaml.comment('', cardNumberNote(profile.column, lastFour));
}

function renderUnplaced(yaml: YamlLines, unplaced: readonly { column: string; note: string }[]): void {
  if (unplaced.length === 0) {
    yaml.comment('', 'Every column is placed.');
    return;
  }
  yaml.comment('', 'Columns not placed (the results CSV carries them through unchanged; map them under');
  yaml.comment('', 'shared, case or custom_fields if the claims need them):');
  for (const { column, note } of unplaced) yaml.comment('', `  ${JSON.stringify(column)}: ${note}`);
}

function unplacedNote(profile: ColumnProfile, assignments: Assignments): string {
  const note = assignments.notes.get(profile.column);
  return note === undefined ? describeValues(profile) : `${describeValues(profile)}; ${note}`;
}
