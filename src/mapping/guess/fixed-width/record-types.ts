import type { RecordRole } from '../../../csv/fixed-width/layout.js';
import type { FileLine, HeadLines } from './read-lines.js';

/**
 * The record types of a fixed-width file, found from its head (docs/mappings.md, "mapping guess and
 * fixed-width files"): a type code in a fixed place (the first character, or the first two as in
 * `01`/`05`/`09`), and every record of one type as long as the others of its type. The type that
 * opens the blocks is the header, the one that closes them the trailer, the most frequent one
 * between them the detail (the rows); any other is ignored.
 */
export interface RecordTypeGuess {
  readonly code: string;
  /** Characters in each record of the type. */
  readonly length: number;
  /** Records of the type in the head. */
  readonly count: number;
  readonly role: RecordRole;
}

/** One header … trailer stretch of the file; a file of several (concatenated) is normal. */
export interface Block {
  /** 1-based, in file order. */
  readonly number: number;
  readonly firstLine: number;
  readonly lines: readonly FileLine[];
  /** Records of the detail type. */
  readonly details: number;
  /** Whether the head holds the whole block, its header (when the file has one) to its trailer. */
  readonly complete: boolean;
}

export interface RecordsGuess {
  /** Where the type code is, 0-based inclusive. */
  readonly recordType: readonly [number, number];
  readonly types: readonly RecordTypeGuess[];
  readonly blocks: readonly Block[];
  /** A last line shorter than its type's records, trimmed of its trailing spaces: read padded. */
  readonly shortLastLine: FileLine | undefined;
}

/** What "long" means: shorter records are more likely a one-column CSV than a fixed-width layout. */
export const shortestRecord = 40;
/** Published layouts have a handful of record types; more codes in one place are data, not types. */
const mostRecordTypes = 8;
/** Fewer records than this say too little about a layout to call it one. */
const fewestRecords = 3;
/** Type codes one or two characters wide, from the first character: where CBNOT, NACHA and banks' files keep them. */
const typePlaces: readonly (readonly [number, number])[] = [
  [0, 0],
  [0, 1],
];

export function recogniseRecordTypes(head: HeadLines): RecordsGuess | undefined {
  const { lines } = head;
  if (lines.length < fewestRecords) return undefined;
  const found = typePlaces
    .map((place) => typesAt(head, place))
    .filter((guess) => guess !== undefined)
    // More types read is more of the layout seen; at a tie, the narrower code.
    .sort((left, right) => right.lengths.size - left.lengths.size);
  const best = found[0];
  if (best === undefined) return undefined;
  const codeOf = (line: FileLine) => line.text.slice(best.place[0], best.place[1] + 1);
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(codeOf(line), (counts.get(codeOf(line)) ?? 0) + 1);
  const roles = assignRoles(lines.map(codeOf), counts);
  const types = [...best.lengths].map(([code, length]) => ({
    code,
    length,
    count: counts.get(code) ?? 0,
    role: roles.get(code) ?? 'ignore',
  }));
  return {
    recordType: best.place,
    types,
    blocks: blocksOf(lines, codeOf, types, head.complete),
    shortLastLine: best.shortLastLine,
  };
}

/**
 * The types' lengths with the code at `place`, when every record of a type is as long as the
 * others (the file's last line may be shorter when only trailing spaces were cut) and each code is
 * plain (no space inside it) and few; undefined when the lines do not read so.
 */
function typesAt(
  head: HeadLines,
  place: readonly [number, number],
): { place: readonly [number, number]; lengths: Map<string, number>; shortLastLine: FileLine | undefined } | undefined {
  const lengths = new Map<string, number>();
  const last = head.complete ? head.lines.at(-1) : undefined;
  for (const line of head.lines) {
    if (line === last) continue;
    const code = line.text.slice(place[0], place[1] + 1);
    if (code.length !== place[1] - place[0] + 1 || /\s/.test(code)) return undefined;
    const length = lengths.get(code);
    if (length === undefined) lengths.set(code, line.text.length);
    else if (length !== line.text.length) return undefined;
    if (lengths.size > mostRecordTypes) return undefined;
  }
  let shortLastLine: FileLine | undefined;
  if (last !== undefined) {
    const code = last.text.slice(place[0], place[1] + 1);
    if (code.length !== place[1] - place[0] + 1 || /\s/.test(code)) return undefined;
    const length = lengths.get(code) ?? last.text.length;
    if (last.text.length > length || (last.text.length < length && last.text !== last.text.trimEnd())) return undefined;
    if (last.text.length < length) shortLastLine = last;
    lengths.set(code, length);
  }
  if (lengths.size > mostRecordTypes || Math.max(...lengths.values()) < shortestRecord) return undefined;
  return { place, lengths, shortLastLine };
}

/**
 * The opener (the first record's type) is the header and the closer (the last record's) the
 * trailer when they are not the most frequent type; the most frequent of the others is the
 * detail. A file of one type is all detail.
 */
function assignRoles(codes: readonly string[], counts: ReadonlyMap<string, number>): Map<string, RecordRole> {
  const roles = new Map<string, RecordRole>();
  const byCount = [...counts].sort((left, right) => right[1] - left[1]);
  const most = byCount[0]?.[0];
  const opener = codes[0];
  const closer = codes.at(-1);
  if (opener !== undefined && opener !== most) roles.set(opener, 'header');
  if (closer !== undefined && closer !== most && !roles.has(closer)) roles.set(closer, 'trailer');
  const detail = byCount.find(([code]) => !roles.has(code))?.[0];
  if (detail !== undefined) roles.set(detail, 'detail');
  return roles;
}

/** The blocks: each opens at a header (or, without one, at the line after a trailer) and closes at a trailer. */
function blocksOf(
  lines: readonly FileLine[],
  codeOf: (line: FileLine) => string,
  types: readonly RecordTypeGuess[],
  complete: boolean,
): Block[] {
  const roleOf = new Map(types.map((type) => [type.code, type.role]));
  const hasHeader = types.some((type) => type.role === 'header');
  const hasTrailer = types.some((type) => type.role === 'trailer');
  const blocks: Block[] = [];
  let current: FileLine[] = [];
  const close = (closed: boolean) => {
    if (current.length === 0) return;
    const opened = !hasHeader || roleOf.get(codeOf(current[0] as FileLine)) === 'header';
    blocks.push({
      number: blocks.length + 1,
      firstLine: current[0]?.line ?? 0,
      lines: current,
      details: current.filter((line) => roleOf.get(codeOf(line)) === 'detail').length,
      complete: opened && closed,
    });
    current = [];
  };
  for (const line of lines) {
    const role = roleOf.get(codeOf(line));
    if (role === 'header') close(!hasTrailer);
    current.push(line);
    if (role === 'trailer') close(true);
  }
  close(!hasTrailer && complete);
  return blocks;
}
