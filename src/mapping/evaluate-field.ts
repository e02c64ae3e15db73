import type { FieldSpec } from './field-spec.js';
import {
  changeCase,
  defaultTwoDigitWindowStart,
  lastFour,
  mapEnum,
  signOfColumn,
  split,
  toBoolean,
  toDateTime,
  toInteger,
  toMinorUnits,
  toYear,
  type TransformResult,
} from './transforms/index.js';

/**
 * One field of one row, through the steps of field-spec.ts in their fixed order. Pure. A blank,
 * optional cell gives `undefined` (the field is left out of the body); every failure is a value.
 */

export type FieldValue = string | number | boolean | undefined;

export interface FieldContext {
  cells: Readonly<Record<string, string>>;
  /** Values of other targets already evaluated (an amount's `currency_field`). */
  resolved: (target: string) => FieldValue;
  /** Told each step's result as it runs (`mapping explain`); the evaluation never depends on it. */
  trace?: (step: FieldStep) => void;
}

/**
 * The source (`column`, `template`, `constant`), then the steps of field-spec.ts, then the type;
 * for a mapped claim or case id, last, the mapping's `claim.id_prefix` (map-row.ts).
 */
export type FieldStepName =
  | 'column'
  | 'template'
  | 'constant'
  | 'trim'
  | 'default'
  | 'required'
  | 'last4'
  | 'split'
  | 'case'
  | 'enum'
  | Exclude<FieldSpec['type'], 'string'>
  | 'id_prefix';

/** One step a field went through, with what it gave: a value, or the failure that ended the field. */
export interface FieldStep {
  readonly step: FieldStepName;
  readonly result: TransformResult<FieldValue>;
}

export function evaluateField(spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  // A number or boolean constant is the value itself: no text steps apply.
  if (typeof spec.constant === 'number' || typeof spec.constant === 'boolean')
    return traced(context, 'constant', { ok: true, value: spec.constant });
  const source = traced(context, sourceStep(spec), sourceText(spec, context.cells));
  if (!source.ok) return source;
  let text = spec.trim ? source.value.trim() : source.value;
  if (spec.trim) traced(context, 'trim', { ok: true, value: text });
  if (text === '' && spec.default !== undefined)
    text = traced(context, 'default', { ok: true, value: spec.default }).value;
  if (text === '') {
    return spec.required
      ? traced(context, 'required', {
          ok: false,
          code: 'required_missing',
          message: `expected a value, got a blank ${describeSource(spec)}`,
        })
      : { ok: true, value: undefined };
  }
  if (spec.required) traced(context, 'required', { ok: true, value: text });
  return convert(text, spec, context);
}

function convert(text: string, spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  let value = text;
  if (spec.last4) {
    const digits = traced(context, 'last4', lastFour(value));
    if (!digits.ok) return digits;
    value = digits.value;
  }
  if (spec.split) {
    const part = split(value, spec.split.separator, spec.split.index);
    if (!part.ok) return traced(context, 'split', part);
    value = traced(context, 'split', { ok: true, value: part.value.trim() }).value;
  }
  if (spec.case) {
    const cased = traced(context, 'case', changeCase(value, spec.case));
    if (!cased.ok) return cased;
    value = cased.value;
  }
  if (spec.enum) {
    const mapped = traced(context, 'enum', mapEnum(value, spec.enum, { caseSensitive: spec.enum_case_sensitive }));
    if (!mapped.ok) return mapped;
    value = mapped.value;
  }
  return spec.type === 'string' ? { ok: true, value } : traced(context, spec.type, convertType(value, spec, context));
}

function convertType(value: string, spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  switch (spec.type) {
    case 'integer':
      return toInteger(value);
    case 'boolean':
      return toBoolean(value);
    case 'year':
      return toYear(value, { twoDigitWindowStart: spec.year?.two_digit_window_start ?? defaultTwoDigitWindowStart });
    case 'date':
      return toDateTime(value, { format: spec.date?.format ?? '', timeZone: spec.date?.time_zone ?? 'UTC' });
    case 'amount': {
      const currency = spec.amount?.currency ?? context.resolved(spec.amount?.currency_field ?? '');
      if (typeof currency !== 'string') {
        return {
          ok: false,
          code: 'currency_unknown',
          message: `amount: expected a currency from ${spec.amount?.currency_field ?? 'the mapping'}, got none`,
        };
      }
      const signColumn = spec.amount?.sign_column;
      const columnSign =
        signColumn === undefined ? undefined : signOfColumn(context.cells[signColumn.column] ?? '', signColumn);
      if (columnSign !== undefined && !columnSign.ok) return columnSign;
      const impliedDecimals = spec.amount?.implied_decimals;
      return toMinorUnits(value, {
        currency,
        ...(impliedDecimals === undefined
          ? { decimalSeparator: spec.amount?.decimal_separator ?? '.' }
          : { impliedDecimals }),
        groupSeparator: spec.amount?.group_separator ?? '',
        negative: spec.amount?.negative ?? 'refuse',
        ...(columnSign === undefined ? {} : { columnSign: columnSign.value }),
      });
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
    let value = '';
    for (const part of templateParts(spec.template)) {
      if (typeof part === 'string') {
        value += part;
        continue;
      }
      const cell = cells[part.column];
      if (cell === undefined) missing ??= part.column;
      value += (cell ?? '').trim();
    }
    return missing === undefined ? { ok: true, value } : missingColumn(missing);
  }
  return { ok: true, value: typeof spec.constant === 'string' ? spec.constant : '' };
}

/**
 * `"CLM-{dispute_ref}"` → `["CLM-", {column: "dispute_ref"}]`: a template is split once, not on
 * every row (a template is evaluated for each row of files of millions of rows).
 */
const templates = new Map<string, readonly (string | { column: string })[]>();
function templateParts(template: string): readonly (string | { column: string })[] {
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

function missingColumn(column: string): TransformResult<string> {
  return {
    ok: false,
    code: 'required_missing',
    message: `expected a column ${JSON.stringify(column)} in the file, got none`,
  };
}

function describeSource(spec: FieldSpec): string {
  if (spec.column !== undefined) return `cell in column ${JSON.stringify(spec.column)}`;
  if (spec.template !== undefined) return `template ${JSON.stringify(spec.template)}`;
  return 'constant';
}

/** Reports a step to the context's trace, if any, and hands its result on unchanged. */
function traced<Result extends TransformResult<FieldValue>>(
  context: FieldContext,
  step: FieldStepName,
  result: Result,
): Result {
  context.trace?.({ step, result });
  return result;
}

function sourceStep(spec: FieldSpec): FieldStepName {
  if (spec.column !== undefined) return 'column';
  return spec.template !== undefined ? 'template' : 'constant';
}
