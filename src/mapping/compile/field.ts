import { evaluateField, type FieldValue } from '../evaluate-field.js';
import type { FieldSpec } from '../field-spec.js';
import { evaluateMappedField, idPrefixOf, prefixedId, withSerialDateHint } from '../map-row.js';
import type { Mapping } from '../schema.js';
import { specColumns } from '../columns-read.js';
import { identifierDamage, isIdentifierTarget } from '../spreadsheet-damage.js';
import { changeCase, lastFour, split, type TransformResult } from '../transforms/index.js';
import { cell, type GeneratedCode } from './code.js';
import { amountInCurrencyStep, enumStep, signStep, typeStep } from './steps.js';

/**
 * One field of a mapping as straight-line code: the steps evaluate-field.ts runs, in its order,
 * reading the field's cells by index. What depends on no cell (a constant, a missing column, a
 * blank required cell's message) is worked out once, by the interpreter itself, and the code only
 * hands it on; what the compiler does not know how to write exactly goes to the interpreter for
 * that field.
 */

export interface CompileContext {
  readonly code: GeneratedCode;
  readonly mapping: Mapping;
  readonly header: readonly string[];
  /** Column name → its index in a record (the last, as a header-keyed cells object keeps it). */
  readonly columnIndex: ReadonlyMap<string, number>;
  /** Every header column, blank: the row the row-independent results are worked out on. */
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
  const known = compilable(spec) ? rowIndependent(context, target) : undefined;
  if (known === undefined) return emitInterpreted(context, target);
  if (known.fixed !== undefined) {
    if (!known.fixed.ok) code.line(`${failure} = ${code.constant(known.fixed)};`);
    else if (known.fixed.value !== undefined) code.line(`${value} = ${code.constant(known.fixed.value)};`);
    return known.fixed.ok && known.fixed.value !== undefined ? 'always' : 'never';
  }
  const label = code.variable();
  code.line(`${label}: {`);
  emitDamage(context, target, label);
  const text = emitSource(context, target, label, known.blank);
  if (text === undefined) {
    code.line('}');
    return 'never';
  }
  if (spec.trim) code.line(`${text} = ${text}.trim();`);
  if (spec.default !== undefined) code.line(`if (${text} === '') ${text} = ${code.constant(spec.default)};`);
  if (known.blankReachable)
    code.line(
      `if (${text} === '') { ${known.blank.ok ? '' : `${failure} = ${code.constant(known.blank)}; `}break ${label}; }`,
    );
  emitConversion(context, target, label, text, known.currencyNone);
  code.line('}');
  emitHint(context, target);
  const prefix = idPrefixOf(field, context.mapping);
  if (prefix !== undefined)
    code.line(
      `if (${value} !== undefined) ${value} = ${code.constant(prefixedId)}(${code.constant(prefix)}, ${value});`,
    );
  return known.blankReachable && known.blank.ok ? 'maybe' : 'always';
}

/** What a field gives whatever the row's cells, worked out by the interpreter itself. */
interface RowIndependent {
  /** The whole result, for a constant (not an amount in another field's currency). */
  fixed?: TransformResult<FieldValue>;
  /** With every cell blank: a missing column's failure, else a blank text's result. */
  blank: TransformResult<FieldValue>;
  /** Whether the text can be blank after trim and default (its cells blank, any literal part too). */
  blankReachable: boolean;
  /** An amount's failure when its currency_field gave no currency. */
  currencyNone?: TransformResult<FieldValue>;
}

/** Undefined when a result is not what the code expects of it: the field then goes to the interpreter. */
function rowIndependent(context: CompileContext, target: FieldTarget): RowIndependent | undefined {
  const { field, spec } = target;
  const blank = evaluateMappedField(field, spec, context.mapping, context.blankCells, nothingResolved);
  // A text constant read with a sign column depends on the row's sign cell.
  const readsRow = readsCurrencyField(spec) || (typeof spec.constant === 'string' && readsSignColumn(spec));
  if (spec.constant !== undefined && !readsRow) return { fixed: blank, blank, blankReachable: false };
  const parts = sourceParts(spec);
  const missing = parts.some((part) => typeof part !== 'string' && !context.columnIndex.has(part.column));
  const literalText = parts.filter((part) => typeof part === 'string').join('');
  const blankReachable = !missing && canBeBlank(spec, literalText);
  // A missing column fails the field; a blank text is required_missing or leaves the field out.
  if (missing && blank.ok) return undefined;
  if (blankReachable && (blank.ok ? blank.value !== undefined : blank.code !== 'required_missing')) return undefined;
  if (spec.type !== 'amount' || spec.amount?.currency !== undefined) return { blank, blankReachable };
  const currencyNone = currencyNoneOf(spec);
  return currencyNone === undefined ? undefined : { blank, blankReachable, currencyNone };
}

/** What the code writes: one source, and the sections its type needs (the schema's refinements). */
function compilable(spec: FieldSpec): boolean {
  const sources = [spec.column, spec.template, spec.constant].filter((source) => source !== undefined).length;
  if (sources !== 1) return false;
  if (!['string', 'integer', 'boolean', 'year', 'date', 'amount'].includes(spec.type)) return false;
  if (spec.type === 'amount')
    return (
      spec.amount !== undefined && (spec.amount.currency !== undefined || spec.amount.currency_field !== undefined)
    );
  return spec.type !== 'date' || spec.date !== undefined;
}

function readsSignColumn(spec: FieldSpec): boolean {
  return spec.type === 'amount' && spec.amount?.sign_column !== undefined;
}

function readsCurrencyField(spec: FieldSpec): boolean {
  return typeof spec.constant === 'string' && spec.type === 'amount' && spec.amount?.currency === undefined;
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

/** The source text into a new variable; undefined when a column is missing (the field's failure is then set). */
function emitSource(
  context: CompileContext,
  target: FieldTarget,
  label: string,
  blank: TransformResult<FieldValue>,
): string | undefined {
  const { code, columnIndex } = context;
  const { spec, failure } = target;
  const pieces: string[] = [];
  for (const part of sourceParts(spec)) {
    if (typeof part === 'string') {
      pieces.push(code.constant(part));
      continue;
    }
    const index = columnIndex.get(part.column);
    if (index === undefined) {
      // Missing from the file: the interpreter's failure (on blank cells) names the first such column.
      code.line(`${failure} = ${code.constant(blank)}; break ${label};`);
      return undefined;
    }
    // A column source is the cell as it is; a template's placeholders are trimmed (evaluate-field.ts).
    pieces.push(spec.column !== undefined ? cell(index) : `${cell(index)}.trim()`);
  }
  const text = code.variable();
  code.line(`let ${text} = ${pieces.length === 0 ? "''" : pieces.join(' + ')};`);
  return text;
}

function sourceParts(spec: FieldSpec): (string | { column: string })[] {
  if (spec.column !== undefined) return [{ column: spec.column }];
  if (spec.template !== undefined) return templateParts(spec.template);
  return [typeof spec.constant === 'string' ? spec.constant : ''];
}

/**
 * `"CLM-{dispute_ref}"` → `["CLM-", {column: "dispute_ref"}]`, split as evaluate-field.ts splits it (the property test holds the two together).
 */
function templateParts(template: string): (string | { column: string })[] {
  return template
    .split(/\{([^{}]+)\}/)
    .map((part, index) => (index % 2 === 1 ? { column: part } : part))
    .filter((part) => part !== '');
}

/** Whether the text can be blank after trim and default: only when every literal part is (its cells blank). */
function canBeBlank(spec: FieldSpec, literalText: string): boolean {
  let text = spec.trim ? literalText.trim() : literalText;
  if (text === '' && spec.default !== undefined) text = spec.default;
  return text === '';
}

/** last4 → split → case → enum → type, each ending the field on a failure. */
function emitConversion(
  context: CompileContext,
  target: FieldTarget,
  label: string,
  text: string,
  currencyNone: TransformResult<FieldValue> | undefined,
): void {
  const { code } = context;
  const { spec, value, failure, earlier } = target;
  const result = code.variable();
  const step = (call: string, then: string) => {
    code.line(`{ const ${result} = ${call}; if (!${result}.ok) { ${failure} = ${result}; break ${label}; } ${then} }`);
  };
  if (spec.last4) step(`${code.constant(lastFour)}(${text})`, `${text} = ${result}.value;`);
  if (spec.split)
    step(
      `${code.constant(split)}(${text}, ${code.constant(spec.split.separator)}, ${code.constant(spec.split.index)})`,
      `${text} = ${result}.value.trim();`,
    );
  if (spec.case)
    step(`${code.constant(changeCase)}(${text}, ${code.constant(spec.case)})`, `${text} = ${result}.value;`);
  if (spec.enum)
    step(`${code.constant(enumStep({ ...spec, enum: spec.enum }))}(${text})`, `${text} = ${result}.value;`);
  if (spec.type === 'string') {
    code.line(`${value} = ${text};`);
    return;
  }
  const settle = `if (${result}.ok) ${value} = ${result}.value; else ${failure} = ${result};`;
  const fixedType = typeStep(spec);
  if (fixedType !== undefined) {
    code.line(`{ const ${result} = ${code.constant(fixedType)}(${text}); ${settle} }`);
    return;
  }
  const fixedCurrency = spec.amount?.currency;
  const currency = code.variable();
  if (fixedCurrency !== undefined) code.line(`{ const ${currency} = ${code.constant(fixedCurrency)};`);
  else {
    // rowIndependent gives an amount read in a currency_field its failure, or leaves the field to the interpreter.
    if (currencyNone === undefined)
      throw new Error(`compiled mapping: expected the currency failure of ${target.field}, got none`);
    // resolved(target): the case field's value, else the shared one's, of the fields already evaluated.
    const currencyTarget = spec.amount?.currency_field ?? '';
    const candidates = [`case.${currencyTarget}`, `shared.${currencyTarget}`].flatMap(
      (name) => earlier.get(name) ?? [],
    );
    code.line(`{ const ${currency} = ${candidates.length === 0 ? 'undefined' : candidates.join(' ?? ')};`);
    code.line(
      `  if (typeof ${currency} !== 'string') { ${failure} = ${code.constant(currencyNone)}; break ${label}; }`,
    );
  }
  const sign = emitSign(context, target, label);
  code.line(
    `  const ${result} = ${code.constant(amountInCurrencyStep(spec))}(${text}, ${currency}${sign === undefined ? '' : `, ${sign}`}); ${settle} }`,
  );
}

/** The row's sign column read into a variable (ending the field on a cell in neither list); undefined without one. */
function emitSign(context: CompileContext, target: FieldTarget, label: string): string | undefined {
  const { code, columnIndex } = context;
  const step = signStep(target.spec);
  const column = target.spec.amount?.sign_column?.column;
  if (step === undefined || column === undefined) return undefined;
  const index = columnIndex.get(column);
  const sign = code.variable();
  code.line(`  const ${sign} = ${code.constant(step)}(${index === undefined ? "''" : cell(index)});`);
  code.line(`  if (!${sign}.ok) { ${target.failure} = ${sign}; break ${label}; }`);
  return `${sign}.value`;
}

/** The interpreter's failure for an amount whose currency_field gave no currency (the same for any row). */
function currencyNoneOf(spec: FieldSpec): TransformResult<FieldValue> | undefined {
  const probe: FieldSpec = {
    type: 'amount',
    amount: spec.amount,
    constant: '0',
    trim: false,
    required: false,
    enum_case_sensitive: true,
  };
  const result = evaluateField(probe, { cells: {}, resolved: nothingResolved });
  return result.ok ? undefined : result;
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

/**
 * The field through mapRow's own evaluation, on the row's cells as a header-keyed object: for
 * what the compiler does not write (a spec the schema would refuse), so that it never differs.
 */
function emitInterpreted(context: CompileContext, target: FieldTarget): Presence {
  const { code, mapping, header } = context;
  const { field, spec, value, failure, earlier } = target;
  const names = [...earlier.keys()];
  const valueOf = (values: readonly FieldValue[], name: string) => {
    const index = names.indexOf(name);
    return index === -1 ? undefined : values[index];
  };
  const interpreted = (raw: readonly string[], values: readonly FieldValue[]) => {
    const cells: Record<string, string> = Object.create(null) as Record<string, string>;
    for (let position = 0; position < header.length; position++) cells[header[position] ?? ''] = raw[position] ?? '';
    return evaluateMappedField(
      field,
      spec,
      mapping,
      cells,
      (name) => valueOf(values, `case.${name}`) ?? valueOf(values, `shared.${name}`),
    );
  };
  const result = code.variable();
  code.line(`{ const ${result} = ${code.constant(interpreted)}(raw, [${[...earlier.values()].join(', ')}]);`);
  code.line(`  if (${result}.ok) ${value} = ${result}.value; else ${failure} = ${result}; }`);
  return 'maybe';
}
