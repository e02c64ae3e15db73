import { isPlaceholder, type FieldDraft, type SpecObject, type SpecValue } from './field-draft.js';

/**
 * YAML text for the draft, written by hand rather than by a YAML library so that every field is
 * one flow-style line (as in mappings/generic.yaml) with its reasons in comments right above it.
 * Scalars are plain where YAML cannot misread them, JSON-quoted otherwise (a JSON string is a
 * valid YAML double-quoted scalar).
 */

/** Words YAML 1.1 readers take for booleans or null: quoted even though `yaml` (1.2) would not need it. */
const reservedWords = new Set(['true', 'false', 'yes', 'no', 'y', 'n', 'on', 'off', 'null', '~']);

export function scalar(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !reservedWords.has(value.toLowerCase())) return value;
  return JSON.stringify(value);
}

export function flow(value: SpecValue): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return scalar(value);
  if (Array.isArray(value)) return `[${(value as readonly string[]).map(scalar).join(', ')}]`;
  const entries = Object.entries(value as SpecObject).map(([key, inner]) => `${scalar(key)}: ${flow(inner)}`);
  return `{ ${entries.join(', ')} }`;
}

/** Lines of a YAML document being built, with the 1-based line of each TODO, for the summary. */
export class YamlLines {
  readonly lines: string[] = [];
  readonly todoLines: { line: number; field: string; message: string }[] = [];
  readonly checkLines: { line: number; field: string; message: string }[] = [];

  add(...lines: string[]): void {
    this.lines.push(...lines);
  }

  comment(indent: string, text: string): void {
    this.lines.push(`${indent}# ${text}`);
  }

  todo(indent: string, field: string, message: string): void {
    this.todoLines.push({ line: this.lines.length + 1, field, message });
    this.comment(indent, `TODO: ${message}`);
  }

  check(indent: string, field: string, message: string): void {
    this.checkLines.push({ line: this.lines.length + 1, field, message });
    this.comment(indent, `CHECK: ${message}`);
  }

  /** A line with a CHECK comment at its end, for one guessed entry of a map. */
  checkedLine(text: string, field: string, message: string): void {
    this.checkLines.push({ line: this.lines.length + 1, field, message });
    this.lines.push(`${text}   # CHECK: ${message}`);
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** One section's fields (`shared:` or `case:`), each with its reasons, TODO and alternatives. */
export function renderSection(yaml: YamlLines, name: 'shared' | 'case', fields: readonly FieldDraft[]): void {
  yaml.add(`${name}:`);
  if (fields.length === 0) yaml.comment('  ', 'nothing placed here');
  for (const field of fields) {
    const source =
      field.column === undefined
        ? 'no column'
        : `column ${JSON.stringify(field.column)}${isPlaceholder(field) ? ' (undecided)' : ''}`;
    yaml.comment('  ', `${source} → ${field.target} (confidence: ${field.confidence})`);
    for (const line of field.evidence) yaml.comment('  ', `  ${line}`);
    if (field.todo !== undefined) yaml.todo('  ', `${name}.${field.target}`, field.todo);
    if (field.check !== undefined) yaml.check('  ', `${name}.${field.target}`, field.check);
    for (const alternative of field.alternatives ?? []) yaml.comment('  ', `${field.target}: ${flow(alternative)}`);
    if (field.entryChecks === undefined && field.entryNotes === undefined)
      yaml.add(`  ${field.target}: ${flow(field.spec)}`);
    else renderCommentedEnum(yaml, `${name}.${field.target}`, field);
  }
}

const maxAlignedWidth = 64;

/**
 * A field whose enum entries carry comments, in block style: one entry a line, a guessed one with
 * its CHECK at the end ("Non reçu": product_not_received   # CHECK: French "non reçu" = …).
 */
function renderCommentedEnum(yaml: YamlLines, path: string, field: FieldDraft): void {
  yaml.add(`  ${field.target}:`);
  const { enum: table, ...rest } = field.spec;
  for (const [key, value] of Object.entries(rest)) yaml.add(`    ${key}: ${flow(value)}`);
  yaml.add('    enum:');
  const entries = Object.entries(table as SpecObject).map(([key, value]) => ({
    key,
    text: `      ${scalar(key)}: ${flow(value)}`,
  }));
  // The comments in one column, as far as the entries are short enough to line up.
  const width = Math.min(Math.max(...entries.map((entry) => entry.text.length)), maxAlignedWidth);
  for (const { key, text } of entries) {
    const check = field.entryChecks?.[key];
    const note = field.entryNotes?.[key];
    if (check !== undefined) yaml.checkedLine(text.padEnd(width), `${path}.${JSON.stringify(key)}`, check);
    else yaml.add(note === undefined ? text : `${text.padEnd(width)}   # ${note}`);
  }
}
