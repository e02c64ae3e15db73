import type { FieldSpec } from '../field-spec.js';
import type { TransformResult } from '../transforms/index.js';
import { describeSource } from './source.js';
import type { FieldStepDefinition, FieldValue } from './step.js';

/** The steps between the source and the conversions: trim, a blank cell's default, and what a blank text means. */

export const trimStep: FieldStepDefinition<'trim'> = {
  name: 'trim',
  applies: (spec) => spec.trim,
  readsRow: () => false,
  interpret(field) {
    field.text = field.text.trim();
    field.traced('trim', { ok: true, value: field.text });
    return undefined;
  },
  emit(field) {
    field.code.line(`${field.text} = ${field.text}.trim();`);
    return 'next';
  },
};

/** Told only when it applied: the text was blank. */
export const defaultStep: FieldStepDefinition<'default'> = {
  name: 'default',
  applies: (spec) => spec.default !== undefined,
  readsRow: () => false,
  interpret(field) {
    if (field.text === '') field.text = field.traced('default', { ok: true, value: field.spec.default ?? '' }).value;
    return undefined;
  },
  emit(field) {
    field.code.line(`if (${field.text} === '') ${field.text} = ${field.code.constant(field.spec.default ?? '')};`);
    return 'next';
  },
};

/**
 * A blank text (after trim and default) ends every field: a required one with required_missing,
 * any other left out of the body. So it applies to every spec; it is told (`mapping explain`)
 * only for a required field.
 */
export const requiredStep: FieldStepDefinition<'required'> = {
  name: 'required',
  applies: () => true,
  readsRow: () => false,
  interpret(field) {
    if (field.text === '')
      return field.spec.required ? field.traced('required', blankText(field.spec)) : blankText(field.spec);
    if (field.spec.required) field.traced('required', { ok: true, value: field.text });
    return undefined;
  },
  emit(field) {
    field.code.line(`if (${field.text} === '') { ${field.end(blankText(field.spec))} }`);
    return 'next';
  },
};

function blankText(spec: FieldSpec): TransformResult<FieldValue> {
  if (!spec.required) return { ok: true, value: undefined };
  return { ok: false, code: 'required_missing', message: `expected a value, got a blank ${describeSource(spec)}` };
}
