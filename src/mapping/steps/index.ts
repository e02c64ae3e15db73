import { defaultStep, requiredStep, trimStep } from './blank.js';
import { columnStep, constantStep, templateStep } from './source.js';
import { caseStep, enumStep, lastFourStep, splitStep } from './text.js';
import type { FieldStepDefinition } from './step.js';
import { amountStep, booleanStep, dateStep, integerStep, yearStep } from './types.js';

/**
 * The steps of a field (field-spec.ts), in the order they run: the one source, trim, default,
 * the blank check, last4, split, case, enum, then the type. The interpreter (evaluate-field.ts)
 * and the code generator (compile/field.ts) both walk this list, each step's own half of it; a
 * step without either half is not a FieldStepDefinition, which the list must hold.
 */
export const fieldSteps = [
  columnStep,
  templateStep,
  constantStep,
  trimStep,
  defaultStep,
  requiredStep,
  lastFourStep,
  splitStep,
  caseStep,
  enumStep,
  integerStep,
  booleanStep,
  yearStep,
  amountStep,
  dateStep,
] as const satisfies readonly FieldStepDefinition[];

export type TableStepName = (typeof fieldSteps)[number]['name'];

export type { Emitting, FieldStepDefinition, FieldValue, Flow, Interpreting } from './step.js';
export { describeSource, sourceName, templateParts } from './source.js';
