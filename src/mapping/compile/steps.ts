import type { FieldValue } from '../evaluate-field.js';
import type { FieldSpec } from '../field-spec.js';
import {
  mapEnum,
  signOfColumn,
  toBoolean,
  toDateTime,
  toInteger,
  toMinorUnits,
  toYear,
  defaultTwoDigitWindowStart,
  type AmountOptions,
  type ColumnSign,
  type TransformResult,
} from '../transforms/index.js';

/**
 * The transforms a compiled field calls, with their options worked out once per mapping instead of
 * once per cell. Each is the transform of src/mapping/transforms/ itself, called with exactly the
 * options evaluate-field.ts passes it; nothing here parses a cell.
 */

export type Step = (text: string) => TransformResult<FieldValue>;

/**
 * A pure transform with its answers kept for the values a column repeats (a reason code, a
 * date): enum builds its lookup table on every call, dates go through several checks. The
 * answer for a text never changes, so a kept one is the same answer; the bound keeps a column
 * of distinct values (or junk) from growing memory, and those are simply computed each time.
 */
export function remembered(step: Step, bound = 2048): Step {
  const answers = new Map<string, TransformResult<FieldValue>>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = step(text);
      if (answers.size < bound) answers.set(text, answer);
    }
    return answer;
  };
}

export function enumStep(spec: FieldSpec & { enum: Record<string, string> }): Step {
  const table = spec.enum;
  const options = { caseSensitive: spec.enum_case_sensitive };
  return remembered((text) => mapEnum(text, table, options));
}

/** The type step of a field whose type needs no other field (every type but an amount read in a currency_field). */
export function typeStep(spec: FieldSpec): Step | undefined {
  switch (spec.type) {
    case 'integer':
      return toInteger;
    case 'boolean':
      return toBoolean;
    case 'year': {
      const options = { twoDigitWindowStart: spec.year?.two_digit_window_start ?? defaultTwoDigitWindowStart };
      return (text) => toYear(text, options);
    }
    case 'date': {
      const options = { format: spec.date?.format ?? '', timeZone: spec.date?.time_zone ?? 'UTC' };
      return remembered((text) => toDateTime(text, options));
    }
    case 'amount': {
      const currency = spec.amount?.currency;
      // A sign column is a second cell: emitConversion reads it and calls amountInCurrencyStep.
      if (currency === undefined || spec.amount?.sign_column !== undefined) return undefined;
      const options = amountOptions(spec, currency);
      return (text) => toMinorUnits(text, options);
    }
    case 'string':
      return undefined;
  }
}

/**
 * An amount read in the currency another field mapped (or its own, with a sign column): the
 * options kept per currency seen; `columnSign`, the row's sign column as signStep read it.
 */
export function amountInCurrencyStep(
  spec: FieldSpec,
): (text: string, currency: string, columnSign?: ColumnSign) => TransformResult<FieldValue> {
  const optionsByCurrency = new Map<string, AmountOptions>();
  return (text, currency, columnSign) => {
    let options = optionsByCurrency.get(currency);
    if (options === undefined) {
      options = amountOptions(spec, currency);
      if (optionsByCurrency.size < 64) optionsByCurrency.set(currency, options);
    }
    return toMinorUnits(text, columnSign === undefined ? options : { ...options, columnSign });
  };
}

/** The sign a field's sign_column gives the row, read from its cell (evaluate-field.ts). */
export function signStep(spec: FieldSpec): ((cell: string) => TransformResult<ColumnSign>) | undefined {
  const signColumn = spec.amount?.sign_column;
  if (signColumn === undefined) return undefined;
  return (cell) => signOfColumn(cell, signColumn);
}

function amountOptions(spec: FieldSpec, currency: string): AmountOptions {
  const impliedDecimals = spec.amount?.implied_decimals;
  return {
    currency,
    ...(impliedDecimals === undefined
      ? { decimalSeparator: spec.amount?.decimal_separator ?? '.' }
      : { impliedDecimals }),
    groupSeparator: spec.amount?.group_separator ?? '',
    negative: spec.amount?.negative ?? 'refuse',
  };
}
