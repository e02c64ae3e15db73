import type { RowMapping } from '../map-row.js';
import type { Mapping } from '../schema.js';
import { compileRow } from './row.js';
import { withAbsentOptionalColumns } from '../optional-columns.js';

/**
 * A compiled mapping (docs/decisions/0005-staging-worker-and-compiled-mapping.md; what it saves:
 * BENCHMARKS.md, "Compiled mapping"): the mapping turned once,
 * for one header, into generated code that reads a record's cells by index and builds the new_claim
 * fragments directly. It gives exactly what mapRow gives for the same cells (values, key order,
 * errors with their order, codes, messages and fields); mapRow stays the reference, and what
 * `mapping explain` runs. A field's steps are the step table's (src/mapping/steps/), each of
 * which writes its own code, so the two cannot run different steps; tests hold them together
 * (test/mapping/compiled-mapping.property.test.ts, test/mapping/steps/).
 */
export interface CompiledMapping {
  readonly header: readonly string[];
  /** mapRow of the record's cells under the header (a cell past the end of a short record is blank). */
  map(raw: readonly string[]): RowMapping;
  /** The claim key as mapRow makes it, or undefined when a key cell is blank or its column missing. */
  claimKey(raw: readonly string[]): string | undefined;
}

/** The compiled mappings of one mapping, by header: the same array, else the same names. */
interface Compiled {
  readonly byArray: WeakMap<readonly string[], CompiledMapping>;
  readonly byNames: Map<string, CompiledMapping>;
}

const compiledByMapping = new WeakMap<Mapping, Compiled>();

/**
 * The mapping compiled for records with this header, made once per (mapping, header): staging
 * asks for every row with the same header array, the review page with its rows' column names.
 * A mapping must not be changed once compiled (mapRow's plan assumes the same).
 */
export function compileMapping(mapping: Mapping, header: readonly string[]): CompiledMapping {
  let compiled = compiledByMapping.get(mapping);
  if (compiled === undefined) {
    compiled = { byArray: new WeakMap(), byNames: new Map() };
    compiledByMapping.set(mapping, compiled);
  }
  const same = compiled.byArray.get(header);
  if (same !== undefined) return same;
  const names = JSON.stringify(header);
  let made = compiled.byNames.get(names);
  if (made === undefined) {
    made = build(mapping, [...header]);
    // A process maps a few headers per mapping; the bound only keeps a long-lived one from growing.
    if (compiled.byNames.size >= 64) compiled.byNames.clear();
    compiled.byNames.set(names, made);
  }
  compiled.byArray.set(header, made);
  return made;
}

/**
 * mapRow through the compiled mapping, for a caller that holds a header-keyed cells object (the
 * review page): its column names are the header.
 */
export function mapCells(cells: Readonly<Record<string, string>>, mapping: Mapping): RowMapping {
  return compileMapping(mapping, Object.keys(cells)).map(Object.values(cells));
}

function build(mapping: Mapping, header: readonly string[]): CompiledMapping {
  // An absent optional column is read past the record's end: a blank cell (optional-columns.ts).
  const readable = withAbsentOptionalColumns(mapping, header);
  const map = compileRow(mapping, readable);
  const columnIndex = new Map(readable.map((column, index) => [column, index]));
  const keyIndexes = mapping.claim.key.map((column) => columnIndex.get(column));
  return {
    header,
    map,
    claimKey(raw) {
      const values: string[] = [];
      for (const index of keyIndexes) {
        const value = index === undefined ? '' : (raw[index] ?? '').trim();
        if (value === '') return undefined;
        values.push(value);
      }
      return JSON.stringify(values);
    },
  };
}
