import type { FieldSpec } from './field-spec.js';
import { changeCase, mapEnum, split, toBoolean, toDateTime, toInteger, toMinorUnits, type TransformResult } from './transforms/index.js';

/**
 * One field of one row, through the steps of field-spec.ts in their fixed order. Pure. A blank,
 * optional cell gives `undefined` (the field is left out of the body); every failure is a value.
 */

export type FieldValue = string | number | boolean | undefined;

export interface FieldContext {
  cells: Readonly<Record<string, string>>;
  /** Values of other targets already evaluated (an amount's `currency_field`). */
  resolved: (target: string) => FieldValue;
}

export function evaluateField(spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  // A number or boolean constant is the value itself: no text steps apply.
  if (typeof spec.constant === 'number' || typeof spec.constant === 'boolean') return { ok: true, value: spec.constant };
  const source = sourceText(spec, context.cells);
  if (!source.ok) return source;
  let text = spec.trim ? source.value.trim() : source.value;
  if (text === '' && spec.default !== undefined) text = spec.default;
  if (text === '') {
    return spec.required ? { ok: false, code: 'required_missing', message: `expected a value, got a blank ${describeSource(spec)}` } : { ok: true, value: undefined };
  }
  return convert(text, spec, context);
}

function convert(text: string, spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  let value = text;
  if (spec.split) {
    const part = split(value, spec.split.separator, spec.split.index);
    if (!part.ok) return part;
    value = part.value.trim();
  }
  if (spec.case) {
    const cased = changeCase(value, spec.case);
    if (!cased.ok) return cased;
    value = cased.value;
  }
  if (spec.enum) {
    const mapped = mapEnum(value, spec.enum, { caseSensitive: spec.enum_case_sensitive });
    if (!mapped.ok) return mapped;
    value = mapped.value;
  }
  switch (spec.type) {
    case 'integer':
      return toInteger(value);
    case 'boolean':
      return toBoolean(value);
    case 'date':
      return toDateTime(value, { format: spec.date?.format ?? '', timeZone: spec.date?.time_zone ?? 'UTC' });
    case 'amount': {
      const currency = spec.amount?.currency ?? context.resolved(spec.amount?.currency_field ?? '');
      if (typeof currency !== 'string') {
        return { ok: false, code: 'currency_unknown', message: `amount: expected a currency from ${spec.amount?.currency_field ?? 'the mapping'}, got none` };
      }
      return toMinorUnits(value, { currency, decimalSeparator: spec.amount?.decimal_separator ?? '.', groupSeparator: spec.amount?.group_separator ?? '' });
    }
    case 'string':
      return { ok: true, value };
  }
}

function sourceText(spec: FieldSpec, cells: Readonly<Record<string, string>>): TransformResult<string> {
  if (spec.column !== undefined) {
    const cell = cells[spec.column];
    return cell === undefined ? missingColumn(spec.column) : { ok: true, value: cell };
  }
  if (spec.template !== undefined) {
    let missing: string | undefined;
    const value = spec.template.replace(/\{([^{}]+)\}/g, (_match, column: string) => {
      const cell = cells[column];
      if (cell === undefined) missing ??= column;
      return (cell ?? '').trim();
    });
    return missing === undefined ? { ok: true, value } : missingColumn(missing);
  }
  return { ok: true, value: typeof spec.constant === 'string' ? spec.constant : '' };
}

function missingColumn(column: string): TransformResult<string> {
  return { ok: false, code: 'required_missing', message: `expected a column ${JSON.stringify(column)} in the file, got none` };
}

function describeSource(spec: FieldSpec): string {
  if (spec.column !== undefined) return `cell in column ${JSON.stringify(spec.column)}`;
  if (spec.template !== undefined) return `template ${JSON.stringify(spec.template)}`;
  return 'constant';
}
