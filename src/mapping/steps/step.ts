import { cell, type GeneratedCode } from '../compile/code.js';
import type { FieldSpec } from '../field-spec.js';
import type { TransformResult } from '../transforms/index.js';

/**
 * What one step of a field is (steps/index.ts lists them in order): when it applies to a field,
 * what it does to the field's text when interpreted, and the code it writes when compiled. Both
 * halves are required fields, so a step cannot be added to the table without its code; the
 * helpers below derive both halves from one function, so that they call the same code.
 */

export type FieldValue = string | number | boolean | undefined;

/** One field being interpreted: its spec, its row, and the text the steps so far left. */
export interface Interpreting {
  readonly spec: FieldSpec;
  readonly cells: Readonly<Record<string, string>>;
  /** Values of other targets already evaluated (an amount's `currency_field`). */
  readonly resolved: (target: string) => FieldValue;
  text: string;
  /** Reports a step's result (`mapping explain`) and hands it on unchanged. */
  traced<Result extends TransformResult<FieldValue>>(step: string, result: Result): Result;
}

/** One field being compiled, inside the block `label: { … }` that a failure or an early value breaks out of. */
export interface Emitting {
  readonly code: GeneratedCode;
  readonly spec: FieldSpec;
  /** Column name → its index in a record. */
  readonly columnIndex: ReadonlyMap<string, number>;
  /** The value variables of the fields evaluated before this one, by field name (an amount's currency_field). */
  readonly earlier: ReadonlyMap<string, string>;
  /** The variable holding the field's text, declared by the source step. */
  readonly text: string;
  readonly value: string;
  readonly failure: string;
  readonly label: string;
  /** The statement that ends the field with a result known when compiling (a constant, a missing column). */
  end(result: TransformResult<FieldValue>): string;
}

/** What a step's emit leaves: the next step's code runs after it (`next`), or none does (`settled`: the field has its value or failure). */
export type Flow = 'next' | 'settled';

export interface FieldStepDefinition<Name extends string = string> {
  readonly name: Name;
  /** Whether the step runs for a field with this spec. */
  applies(spec: FieldSpec): boolean;
  /** Whether it reads the row (a cell, another field's value): a field whose steps read none is worked out once. */
  readsRow(spec: FieldSpec): boolean;
  /** The interpreter's half: a result ends the field with it, undefined goes on to the next step. */
  interpret(field: Interpreting): TransformResult<FieldValue> | undefined;
  /** The generator's half: the same step as code. */
  emit(field: Emitting): Flow;
}

/** What a step reads of the row besides the field's text: a cell (blank if the file lacks it) or another target's value. */
export type StepInput = { readonly cell: string } | { readonly target: string };

/** A step's function over the text, made once per spec; its inputs come in the order `inputs` lists them. */
export type StepFunction<Value> = (text: string, ...inputs: FieldValue[]) => TransformResult<Value>;

interface ConversionStep<Name extends string, Value> {
  readonly name: Name;
  applies(spec: FieldSpec): boolean;
  /** Made once per spec (options worked out, lookups built): the interpreter and the generated code both call it. */
  prepare(spec: FieldSpec): StepFunction<Value>;
  inputs?(spec: FieldSpec): readonly StepInput[];
}

/**
 * A step from text to text (last4, split, case, enum): a failure ends the field, a value is the
 * text of the next step. Both halves call `prepare(spec)`'s function.
 */
export function textStep<Name extends string>(step: ConversionStep<Name, string>): FieldStepDefinition<Name> {
  return conversion(step, {
    interpreted: (field, value) => {
      field.text = value;
      return undefined;
    },
    emitted: (field, result) => `${field.text} = ${result}.value;`,
    flow: 'next',
  });
}

/** The type step, last: its result is the field's. */
export function typeStep<Name extends string>(
  step: ConversionStep<Name, Exclude<FieldValue, undefined>>,
): FieldStepDefinition<Name> {
  return conversion(step, {
    interpreted: (_field, value) => ({ ok: true, value }),
    emitted: (field, result) => `${field.value} = ${result}.value;`,
    flow: 'settled',
  });
}

/** What a conversion's value becomes, in each half: the next step's text, or the field's value. */
interface Then<Value> {
  interpreted(field: Interpreting, value: Value): TransformResult<FieldValue> | undefined;
  emitted(field: Emitting, result: string): string;
  readonly flow: Flow;
}

function conversion<Name extends string, Value extends FieldValue>(
  step: ConversionStep<Name, Value>,
  then: Then<Value>,
): FieldStepDefinition<Name> {
  // A spec never changes once parsed (compile/index.ts), so its function is made once.
  const prepared = new WeakMap<FieldSpec, StepFunction<Value>>();
  const functionOf = (spec: FieldSpec) => {
    let made = prepared.get(spec);
    if (made === undefined) {
      made = step.prepare(spec);
      prepared.set(spec, made);
    }
    return made;
  };
  const inputsOf = (spec: FieldSpec) => step.inputs?.(spec) ?? [];
  return {
    name: step.name,
    applies: (spec) => step.applies(spec),
    readsRow: (spec) => inputsOf(spec).length > 0,
    interpret(field) {
      const inputs = inputsOf(field.spec).map((input) =>
        'cell' in input ? (field.cells[input.cell] ?? '') : field.resolved(input.target),
      );
      const result = field.traced(step.name, functionOf(field.spec)(field.text, ...inputs));
      return result.ok ? then.interpreted(field, result.value) : result;
    },
    emit(field) {
      const { code } = field;
      const inputs = inputsOf(field.spec).map((input) => {
        if ('cell' in input) {
          const index = field.columnIndex.get(input.cell);
          return index === undefined ? "''" : cell(index);
        }
        // resolved(target): the case field's value, else the shared one's, of the fields already evaluated.
        const candidates = [`case.${input.target}`, `shared.${input.target}`].flatMap(
          (name) => field.earlier.get(name) ?? [],
        );
        return candidates.length === 0 ? 'undefined' : `(${candidates.join(' ?? ')})`;
      });
      const result = code.variable();
      const call = `${code.constant(functionOf(field.spec))}(${[field.text, ...inputs].join(', ')})`;
      code.line(
        `{ const ${result} = ${call}; if (!${result}.ok) { ${field.failure} = ${result}; break ${field.label}; } ` +
          `${then.emitted(field, result)} }`,
      );
      return then.flow;
    },
  };
}
