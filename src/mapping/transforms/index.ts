/** Pure cell transforms for mapping files: each returns a value, none throws. */
export {
  readAmount,
  toMinorUnits,
  type AmountOptions,
  type ColumnSign,
  type DecimalSeparator,
  type GroupSeparator,
  type NegativeAmounts,
  type WrittenAmount,
} from './amount.js';
export { signOfColumn, type SignColumnOptions } from './sign-column.js';
export { lastFour } from './card-number.js';
export { minorUnitExponent } from './currency.js';
export { toDateTime, type DateOptions } from './date.js';
export {
  changeCase,
  mapEnum,
  required,
  split,
  splitAll,
  toBoolean,
  toInteger,
  trim,
  withDefault,
  type Cell,
  type EnumOptions,
  type SplitOptions,
} from './scalars.js';
export { defaultTwoDigitWindowStart, toYear, type YearOptions } from './year.js';
export {
  TRANSFORM_ERROR_CODES,
  fail,
  ok,
  quote,
  type TransformErrorCode,
  type TransformFailure,
  type TransformResult,
  type TransformSuccess,
} from './result.js';
