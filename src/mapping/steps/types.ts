import type { FieldSpec } from '../field-spec.js';
import {
  defaultTwoDigitWindowStart,
  signOfColumn,
  toBoolean,
  toDateTime,
  toInteger,
  toMinorUnits,
  toYear,
  type AmountOptions,
  type TransformResult,
} from '../transforms/index.js';
import { remembered } from './remembered.js';
import { typeStep, type StepFunction, type StepInput } from './step.js';

/** The type steps, one per `type` but string, last: their result is the field's value. */

export const integerStep = typeStep({
  name: 'integer',
  applies: (spec) => spec.type === 'integer',
  prepare: () => toInteger,
});

export const booleanStep = typeStep({
  name: 'boolean',
  applies: (spec) => spec.type === 'boolean',
  prepare: () => toBoolean,
});

export const yearStep = typeStep({
  name: 'year',
  applies: (spec) => spec.type === 'year',
  prepare(spec) {
    const options = { twoDigitWindowStart: spec.year?.two_digit_window_start ?? defaultTwoDigitWindowStart };
    return (text) => toYear(text, options);
  },
});

export const dateStep = typeStep({
  name: 'date',
  applies: (spec) => spec.type === 'date',
  prepare(spec) {
    const options = { format: spec.date?.format ?? '', timeZone: spec.date?.time_zone ?? 'UTC' };
    return remembered((text) => toDateTime(text, options));
  },
});

/**
 * An amount, in its fixed currency or the one its currency_field's target gave (a field
 * evaluated before it: map-row.ts evaluates amounts last), signed by its sign column if it has
 * one. Its inputs: the currency_field's value when it has no fixed currency, then the sign cell.
 */
export const amountStep = typeStep({
  name: 'amount',
  applies: (spec) => spec.type === 'amount',
  inputs: (spec): StepInput[] => [
    ...(spec.amount?.currency === undefined ? [{ target: spec.amount?.currency_field ?? '' }] : []),
    ...(spec.amount?.sign_column === undefined ? [] : [{ cell: spec.amount.sign_column.column }]),
  ],
  prepare(spec): StepFunction<number> {
    const fixed = spec.amount?.currency;
    const signColumn = spec.amount?.sign_column;
    if (fixed !== undefined) {
      const options = amountOptions(spec, fixed);
      if (signColumn === undefined) return (text) => toMinorUnits(text, options);
      return (text, signCell) => {
        const columnSign = signOfColumn(String(signCell), signColumn);
        return columnSign.ok ? toMinorUnits(text, { ...options, columnSign: columnSign.value }) : columnSign;
      };
    }
    const optionsIn = optionsByCurrency(spec);
    const none: TransformResult<number> = {
      ok: false,
      code: 'currency_unknown',
      message: `amount: expected a currency from ${spec.amount?.currency_field ?? 'the mapping'}, got none`,
    };
    return (text, currency, signCell) => {
      if (typeof currency !== 'string') return none;
      if (signColumn === undefined) return toMinorUnits(text, optionsIn(currency));
      const columnSign = signOfColumn(String(signCell), signColumn);
      return columnSign.ok ? toMinorUnits(text, { ...optionsIn(currency), columnSign: columnSign.value }) : columnSign;
    };
  },
});

/** The options of an amount read in a currency another field gave, kept per currency seen. */
function optionsByCurrency(spec: FieldSpec): (currency: string) => AmountOptions {
  const kept = new Map<string, AmountOptions>();
  return (currency) => {
    let options = kept.get(currency);
    if (options === undefined) {
      options = amountOptions(spec, currency);
      // A file has a few currencies; the bound keeps a column of junk from growing memory.
      if (kept.size < 64) kept.set(currency, options);
    }
    return options;
  };
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
