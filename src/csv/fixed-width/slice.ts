import type { FixedWidthLayout, RecordRole } from './layout.js';

/** One record cut by its layout, field by field with positions: what `mapping explain` shows. */
export interface SlicedRecord {
  /** The type code as written at `record_type`. */
  readonly type: string;
  /** Undefined for a type the layout does not list. */
  readonly role: RecordRole | undefined;
  readonly length: number;
  readonly fields: readonly SlicedField[];
}

export interface SlicedField {
  readonly name: string;
  /** Positions as the layout writes them (counted from `positions_from`), both inclusive. */
  readonly first: number;
  readonly last: number;
  /** The characters there, untrimmed; shorter, or empty, past a short record's end. */
  readonly text: string;
}

export function sliceRecord(layout: FixedWidthLayout, text: string): SlicedRecord {
  const base = layout.positions_from;
  const written = text.slice(layout.record_type[0] - base, layout.record_type[1] - base + 1);
  const type = layout.records[written] !== undefined ? written : written.trim();
  const record = layout.records[type];
  const fields = Object.entries(record?.fields ?? {}).map(([name, [first, last]]) => ({
    name,
    first,
    last,
    text: text.slice(first - base, last - base + 1),
  }));
  return { type, role: record?.role, length: text.length, fields };
}

/** The record as lines of text: `  se_number  6–15  "1234398429"`. */
export function describeSlices(sliced: SlicedRecord): string[] {
  const role = sliced.role === undefined ? 'a type the layout does not list' : sliced.role;
  const width = Math.max(12, ...sliced.fields.map((field) => field.name.length));
  const positions = Math.max(...sliced.fields.map((field) => `${field.first}–${field.last}`.length), 5);
  return [
    `record: type ${JSON.stringify(sliced.type)} (${role}), ${sliced.length} characters`,
    ...sliced.fields.map(
      (field) =>
        `  ${field.name.padEnd(width)}  ${`${field.first}–${field.last}`.padEnd(positions)}  ${JSON.stringify(field.text)}`,
    ),
  ];
}
