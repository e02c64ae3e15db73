import { cell } from '../compile/code.js';
import type { FieldSpec } from '../field-spec.js';
import type { TransformResult } from '../transforms/index.js';
import type { FieldStepDefinition } from './step.js';

/**
 * The field's source, its first step: a column's cell as it is, a template's text with its
 * placeholders' cells trimmed, or a constant (a number or boolean constant is the value itself:
 * no text step applies). Exactly one applies to a spec, as `sourceName` picks it.
 */

export type SourceName = 'column' | 'template' | 'constant';

/** The one source a spec reads: the schema allows exactly one; a number or boolean constant wins over any other. */
export function sourceName(spec: FieldSpec): SourceName {
  if (typeof spec.constant === 'number' || typeof spec.constant === 'boolean') return 'constant';
  if (spec.column !== undefined) return 'column';
  return spec.template !== undefined ? 'template' : 'constant';
}

export const columnStep: FieldStepDefinition<'column'> = {
  name: 'column',
  applies: (spec) => sourceName(spec) === 'column',
  readsRow: () => true,
  interpret(field) {
    const column = field.spec.column ?? '';
    const text = field.cells[column];
    if (text === undefined) return field.traced('column', missingColumn(column));
    field.text = text;
    field.traced('column', { ok: true, value: text });
    return undefined;
  },
  emit(field) {
    const column = field.spec.column ?? '';
    const index = field.columnIndex.get(column);
    if (index === undefined) {
      field.code.line(field.end(missingColumn(column)));
      return 'settled';
    }
    field.code.line(`let ${field.text} = ${cell(index)};`);
    return 'next';
  },
};

export const templateStep: FieldStepDefinition<'template'> = {
  name: 'template',
  applies: (spec) => sourceName(spec) === 'template',
  readsRow: (spec) => templateParts(spec.template ?? '').some((part) => typeof part !== 'string'),
  interpret(field) {
    let missing: string | undefined;
    let text = '';
    for (const part of templateParts(field.spec.template ?? '')) {
      if (typeof part === 'string') {
        text += part;
        continue;
      }
      const cellText = field.cells[part.column];
      if (cellText === undefined) missing ??= part.column;
      text += (cellText ?? '').trim();
    }
    if (missing !== undefined) return field.traced('template', missingColumn(missing));
    field.text = text;
    field.traced('template', { ok: true, value: text });
    return undefined;
  },
  emit(field) {
    const { code, columnIndex } = field;
    const pieces: string[] = [];
    for (const part of templateParts(field.spec.template ?? '')) {
      if (typeof part === 'string') {
        pieces.push(code.constant(part));
        continue;
      }
      const index = columnIndex.get(part.column);
      if (index === undefined) {
        // The interpreter's failure names the first column the file lacks, as this one is.
        code.line(field.end(missingColumn(part.column)));
        return 'settled';
      }
      pieces.push(`${cell(index)}.trim()`);
    }
    code.line(`let ${field.text} = ${pieces.length === 0 ? "''" : pieces.join(' + ')};`);
    return 'next';
  },
};

export const constantStep: FieldStepDefinition<'constant'> = {
  name: 'constant',
  applies: (spec) => sourceName(spec) === 'constant',
  readsRow: () => false,
  interpret(field) {
    const { constant } = field.spec;
    if (typeof constant === 'number' || typeof constant === 'boolean')
      return field.traced('constant', { ok: true, value: constant });
    field.text = constant ?? '';
    field.traced('constant', { ok: true, value: field.text });
    return undefined;
  },
  emit(field) {
    const { constant } = field.spec;
    if (typeof constant === 'number' || typeof constant === 'boolean') {
      field.code.line(field.end({ ok: true, value: constant }));
      return 'settled';
    }
    field.code.line(`let ${field.text} = ${field.code.constant(constant ?? '')};`);
    return 'next';
  },
};

/** What a blank required field's message calls its source. */
export function describeSource(spec: FieldSpec): string {
  if (spec.column !== undefined) return `cell in column ${JSON.stringify(spec.column)}`;
  if (spec.template !== undefined) return `template ${JSON.stringify(spec.template)}`;
  return 'constant';
}

function missingColumn(column: string): TransformResult<string> {
  return {
    ok: false,
    code: 'required_missing',
    message: `expected a column ${JSON.stringify(column)} in the file, got none`,
  };
}

/**
 * `"CLM-{dispute_ref}"` → `["CLM-", {column: "dispute_ref"}]`: a template is split once, not on
 * every row (a template is evaluated for each row of files of millions of rows).
 */
const templates = new Map<string, readonly (string | { column: string })[]>();
export function templateParts(template: string): readonly (string | { column: string })[] {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template
      .split(/\{([^{}]+)\}/)
      .map((part, index) => (index % 2 === 1 ? { column: part } : part))
      .filter((part) => part !== '');
    // A mapping has a few templates; the bound only keeps a long-lived process from growing.
    if (templates.size < 1000) templates.set(template, parts);
  }
  return parts;
}
