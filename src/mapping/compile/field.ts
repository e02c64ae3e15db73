import type { FieldValue } from '../evaluate-field.js';
import type { FieldSpec } from '../field-spec.js';
import { evaluateMappedField, idPrefixOf, prefixedId, withSerialDateHint } from '../map-row.js';
import type { Mapping } from '../schema.js';
import { specColumns } from '../columns-read.js';
import { identifierDamage, isIdentifierTarget } from '../spreadsheet-damage.js';
import { fieldSteps, type Emitting, type Flow } from '../steps/index.js';
import type { TransformResult } from '../transforms/index.js';
import { cell, type GeneratedCode } from './code.js';

/**
 * One field of a mapping as straight-line code: each step of the table (steps/index.ts) that
 * applies to its spec writes its own code, in the table's order, reading the field's cells by
 * index. A field that reads no cell at all (a constant) is worked out once, by the interpreter
 * itself, and the code only hands its result on.
 */

export interface CompileContext {
  readonly code: GeneratedCode;
  readonly mapping: Mapping;
  readonly header: readonly string[];
  /** Column name → its index in a record (the last, as a header-keyed cells object keeps it). */
  readonly columnIndex: ReadonlyMap<string, number>;
  /** Every header column, blank: the row a field that reads none is worked out on. */
  readonly blankCells: Readonly<Record<string, string>>;
}

export interface FieldTarget {
  /** `shared.card.last4`, `claim.id`, `custom_fields.ref`. */
  readonly field: string;
  readonly spec: FieldSpec;
  /** The variables the code leaves the value (or undefined) and the failure (or undefined) in. */
  readonly value: string;
  readonly failure: string;
  /** The value variables of the fields evaluated before this one, by field name (an amount's currency_field). */
  readonly earlier: ReadonlyMap<string, string>;
}

/** Whether a row without errors can still leave the field's value out. */
export type Presence = 'always' | 'maybe' | 'never';

const nothingResolved = (): FieldValue => undefined;

export function emitField(context: CompileContext, target: FieldTarget): Presence {
  const { code } = context;
  const { field, spec, value, failure } = target;
  code.line(`let ${value}, ${failure};`);
  const steps = fieldSteps.filter((step) => step.applies(spec));
  // Nothing read from the row: no step reads it, and no column is named for the damage check or a date's hint.
  if (!steps.some((step) => step.readsRow(spec)) && specColumns(spec).length === 0) {
    const fixed = evaluateMappedField(field, spec, context.mapping, context.blankCells, nothingResolved);
    if (!fixed.ok) code.line(`${failure} = ${code.constant(fixed)};`);
    else if (fixed.value !== undefined) code.line(`${value} = ${code.constant(fixed.value)};`);
    return fixed.ok && fixed.value !== undefined ? 'always' : 'never';
  }
  const label = code.variable();
  // The results the code ends the field with that are known when compiling (a blank text's, a missing column's).
  const ends: TransformResult<FieldValue>[] = [];
  const emitting: Emitting = {
    code,
    spec,
    columnIndex: context.columnIndex,
    earlier: target.earlier,
    text: code.variable(),
    value,
    failure,
    label,
    end(result: TransformResult<FieldValue>) {
      ends.push(result);
      if (!result.ok) return `${failure} = ${code.constant(result)}; break ${label};`;
      if (result.value === undefined) return `break ${label};`;
      return `${value} = ${code.constant(result.value)}; break ${label};`;
    },
  };
  code.line(`${label}: {`);
  emitDamage(context, target, label);
  let flow: Flow = 'next';
  for (const step of steps) {
    flow = step.emit(emitting);
    if (flow === 'settled') break;
  }
  // No type step: the text is the value.
  if (flow === 'next') code.line(`${value} = ${emitting.text};`);
  code.line('}');
  emitHint(context, target);
  const prefix = idPrefixOf(field, context.mapping);
  if (prefix !== undefined)
    code.line(
      `if (${value} !== undefined) ${value} = ${code.constant(prefixedId)}(${code.constant(prefix)}, ${value});`,
    );
  return ends.some((result) => result.ok && result.value === undefined) ? 'maybe' : 'always';
}

/** What a spreadsheet did to an identifier's cells, checked before the field is read (map-row.ts). */
function emitDamage(context: CompileContext, target: FieldTarget, label: string): void {
  const { code, columnIndex } = context;
  const { field, spec, failure } = target;
  if (!isIdentifierTarget(field) || spec.type !== 'string') return;
  for (const column of specColumns(spec)) {
    const index = columnIndex.get(column);
    const cellText = index === undefined ? "''" : cell(index);
    const readsLastFour = spec.last4 === true;
    const splitsCell = spec.split !== undefined;
    if (index === undefined && identifierDamage(field, column, '', readsLastFour, splitsCell) === undefined) continue;
    const damage = code.variable();
    code.line(
      `{ const ${damage} = ${code.constant(identifierDamage)}(${code.constant(field)}, ${code.constant(column)}, ` +
        `${cellText}, ${String(readsLastFour)}, ${String(splitsCell)});`,
    );
    code.line(
      `  if (${damage} !== undefined) { ${failure} = { ok: false, code: ${damage}.code, message: ${damage}.message }; break ${label}; } }`,
    );
  }
}

/** A date that did not read, whose cell is a spreadsheet's serial number: the message says so (map-row.ts). */
function emitHint(context: CompileContext, target: FieldTarget): void {
  const { code, columnIndex } = context;
  const { spec, failure } = target;
  const column = spec.column;
  if (spec.type !== 'date' || column === undefined) return;
  const index = columnIndex.get(column);
  // A missing column reads as blank, which is no serial number.
  if (index === undefined) return;
  const hinted = (result: TransformResult<FieldValue>, cellText: string) =>
    withSerialDateHint(result, spec, { [column]: cellText });
  code.line(`if (${failure} !== undefined) ${failure} = ${code.constant(hinted)}(${failure}, ${cell(index)});`);
}
