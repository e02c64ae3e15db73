import type { FieldSpec } from './field-spec.js';
import { fieldSteps, type FieldValue, type Interpreting, type TableStepName } from './steps/index.js';
import type { TransformResult } from './transforms/index.js';

/**
 * One field of one row, through the steps of steps/index.ts in their order. Pure. A blank,
 * optional cell gives `undefined` (the field is left out of the body); every failure is a value.
 */

export type { FieldValue };

export interface FieldContext {
  cells: Readonly<Record<string, string>>;
  /** Values of other targets already evaluated (an amount's `currency_field`). */
  resolved: (target: string) => FieldValue;
  /** Told each step's result as it runs (`mapping explain`); the evaluation never depends on it. */
  trace?: (step: FieldStep) => void;
}

/**
 * The steps of the table (a source, the text steps, the type); for a mapped claim or case id,
 * last, the mapping's `claim.id_prefix` (map-row.ts).
 */
export type FieldStepName = TableStepName | 'id_prefix';

/** One step a field went through, with what it gave: a value, or the failure that ended the field. */
export interface FieldStep {
  readonly step: FieldStepName;
  readonly result: TransformResult<FieldValue>;
}

export function evaluateField(spec: FieldSpec, context: FieldContext): TransformResult<FieldValue> {
  const { trace } = context;
  const field: Interpreting = {
    spec,
    cells: context.cells,
    resolved: context.resolved,
    text: '',
    traced(step, result) {
      // Every name a step tells is its own, from the table.
      trace?.({ step: step as TableStepName, result });
      return result;
    },
  };
  for (const step of fieldSteps) {
    if (!step.applies(spec)) continue;
    const result = step.interpret(field);
    if (result !== undefined) return result;
  }
  return { ok: true, value: field.text };
}
