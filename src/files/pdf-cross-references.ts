import { BytePieces } from './byte-pieces.js';
import { countPageLeaves } from './pdf-page-tree.js';
import {
  NotPlainPdf,
  PdfReader,
  WindowTooShort,
  type PdfDictionary,
  type PdfRef,
  type PdfValue,
} from './pdf-syntax.js';

/**
 * A PDF's page count read the way PDF readers find their way in (ISO 32000-1 §7.5.4, §7.5.5):
 * `startxref` near the end, the cross-reference table and trailer it points at (and the older
 * ones their /Prev names), then only the catalog and the page tree's nodes, each read at the
 * offset the table gives. A few kilobytes of a 4 MB file, no document model: pdf-lib parsed every
 * object and copied every stream to count the same pages.
 *
 * This reads classic, well-formed files only. A cross-reference stream (PDF 1.5, pages in
 * compressed object streams), offsets that do not land on the object named, leading junk, a page
 * tree that is not a tree: any of these gives `undefined`, and the caller asks pdf-lib, whose
 * answer (or error message) is then the one given. On well-formed files both agree; on a crafted
 * one whose table points at objects a front-to-back parse does not see (hidden in a string, say),
 * the table's reading is the one given, as PDF readers give it. The client's checks and the
 * sandbox count with this same module, so they still agree with each other.
 */

/** Where `startxref` is looked for: "the last line of the file" is within this many bytes in practice. */
const tailBytes = 2048;
/** The first read at an offset; a value that runs past it is read again with a window 8 times longer. */
const firstWindowBytes = 4096;
/** Revisions of an incrementally updated file followed through /Prev, at most. */
const maxSections = 64;

interface Entry {
  offset: number;
  generation: number;
}

/** One revision's cross-reference section; null marks a free entry. */
interface Section {
  entries: Map<number, Entry | null>;
  trailer: PdfDictionary;
}

/** The number of page leaves, or undefined when the file is not one this reading handles. */
export function pageCountFromCrossReferences(pieces: readonly Uint8Array[]): number | undefined {
  const content = new BytePieces(pieces);
  try {
    const file = new CrossReferencedFile(content);
    return countPages(file);
  } catch {
    // NotPlainPdf, or anything this shortcut did not foresee: it only ever saves time, so whatever
    // goes wrong in it is pdf-lib's to decide, never a reason to stop an import.
    return undefined;
  }
}

/**
 * What the quick reading may look at in all, in multiples of the file's size: a crafted file (a
 * long chain of /Prev sections, each a huge table) costs no more than a few passes over its bytes
 * before pdf-lib gets it, whose parse is linear.
 */
const readingBudgetPerFileByte = 3;

/** The bytes still allowed to be read; spent by what each read parsed, refused when gone. */
class ReadingBudget {
  constructor(private leftBytes: number) {}

  spend(bytes: number): void {
    this.leftBytes -= bytes;
    if (this.leftBytes < 0) throw new NotPlainPdf('more reading than a few passes over the file');
  }
}

/**
 * Reads with `read` at `offset`, in a window long enough for what it reads: what was parsed is
 * spent from `budget`, and a whole window when it proved too short (it was scanned to its end).
 */
function readAt<T>(content: BytePieces, budget: ReadingBudget, offset: number, read: (reader: PdfReader) => T): T {
  for (let length = firstWindowBytes; ; length *= 8) {
    const atFileEnd = offset + length >= content.size;
    const reader = new PdfReader(content.window(offset, length), atFileEnd);
    try {
      const result = read(reader);
      budget.spend(reader.position);
      return result;
    } catch (error) {
      if (!(error instanceof WindowTooShort) || atFileEnd) throw error;
      budget.spend(length);
    }
  }
}

class CrossReferencedFile {
  /** Newest revision first: the first entry found for an object number is its current one; null = free. */
  private readonly entries = new Map<number, Entry | null>();
  private readonly objects = new Map<number, PdfValue>();
  private readonly budget: ReadingBudget;
  readonly root: PdfRef;

  constructor(private readonly content: BytePieces) {
    this.budget = new ReadingBudget(readingBudgetPerFileByte * content.size + firstWindowBytes);
    let root: PdfRef | undefined;
    const visited = new Set<number>();
    for (let offset: number | undefined = startOfLastSection(content); offset !== undefined;) {
      if (visited.has(offset) || visited.size >= maxSections)
        throw new NotPlainPdf('cross-reference sections that loop or never end');
      visited.add(offset);
      const { entries, trailer }: Section = readAt(content, this.budget, offset, readSection);
      for (const [objectNumber, entry] of entries)
        if (!this.entries.has(objectNumber)) this.entries.set(objectNumber, entry);
      // A hybrid file (§7.5.8.4) keeps some objects in a cross-reference stream only.
      if (trailer.has('XRefStm')) throw new NotPlainPdf('a hybrid-reference file');
      const rootValue = trailer.get('Root');
      if (rootValue !== undefined && !isRef(rootValue))
        throw new NotPlainPdf('a trailer /Root that is not a reference');
      root ??= rootValue;
      const previous: PdfValue | undefined = trailer.get('Prev');
      if (previous !== undefined && typeof previous !== 'number')
        throw new NotPlainPdf('a trailer /Prev that is not an offset');
      offset = previous;
    }
    if (root === undefined) throw new NotPlainPdf('no trailer /Root');
    this.root = root;
  }

  /** The value itself, or for a reference the object it names. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    return value !== undefined && isRef(value) ? this.object(value) : value;
  }

  private object(ref: PdfRef): PdfValue {
    const cached = this.objects.get(ref.objectNumber);
    if (cached !== undefined) return cached;
    const entry = this.entries.get(ref.objectNumber);
    if (entry === undefined || entry === null || entry.generation !== ref.generation)
      throw new NotPlainPdf('a reference to an object the table does not list');
    const value = readAt(this.content, this.budget, entry.offset, (reader) => {
      const objectNumber = reader.unsignedInteger();
      const generation = reader.unsignedInteger();
      reader.expectKeyword('obj');
      if (objectNumber !== ref.objectNumber || generation !== ref.generation)
        throw new NotPlainPdf('an offset that lands on another object');
      const read = reader.value();
      // A stream (or anything but a plain object) is not a page tree node: pdf-lib decides.
      reader.expectKeyword('endobj');
      return read;
    });
    this.objects.set(ref.objectNumber, value);
    return value;
  }
}

/** The offset after the last `startxref`. */
function startOfLastSection(content: BytePieces): number {
  const tailStart = Math.max(0, content.size - tailBytes);
  const tail = content.window(tailStart, tailBytes);
  const keyword = tail.lastIndexOf('startxref');
  if (keyword < 0) throw new NotPlainPdf('no startxref near the end');
  const reader = new PdfReader(tail, true);
  reader.position = keyword + 'startxref'.length;
  return reader.unsignedInteger();
}

/** `xref`, its subsections of 20-byte entries (§7.5.4), then `trailer` and its dictionary. */
function readSection(reader: PdfReader): Section {
  // A cross-reference stream starts `N G obj` instead: not read here.
  reader.expectKeyword('xref');
  const entries = new Map<number, Entry | null>();
  for (;;) {
    reader.skipSpace();
    const next = reader.peek();
    if (next < 0x30 || next > 0x39) break;
    const first = reader.unsignedInteger();
    const count = reader.unsignedInteger();
    for (let index = 0; index < count; index++) {
      const offset = reader.unsignedInteger();
      const generation = reader.unsignedInteger();
      reader.skipSpace();
      const kind = reader.token();
      if (kind !== 'n' && kind !== 'f') throw new NotPlainPdf('a cross-reference entry neither in use nor free');
      entries.set(first + index, kind === 'n' ? { offset, generation } : null);
    }
  }
  reader.expectKeyword('trailer');
  return { entries, trailer: reader.dictionary() };
}

/**
 * The page tree walked as pdf-pages.ts walks pdf-lib's (same rules: a node is a leaf when its
 * /Type says Page or it has no /Kids), but anything pdf-lib would refuse or repair is left to it.
 */
function countPages(file: CrossReferencedFile): number {
  const catalog = file.resolve(file.root);
  // pdf-lib looks for another catalog when /Root names none; that search is pdf-lib's to make.
  if (!(catalog instanceof Map) || !isName(file.resolve(catalog.get('Type')), 'Catalog'))
    throw new NotPlainPdf('a /Root that is not a catalog');
  const root = file.resolve(catalog.get('Pages'));
  if (!(root instanceof Map)) throw new NotPlainPdf('no page tree');

  return countPageLeaves(root, {
    kidsOf(node) {
      const kids = file.resolve(node.get('Kids'));
      if (isName(file.resolve(node.get('Type')), 'Page') || kids === undefined) return undefined;
      if (!Array.isArray(kids)) throw new NotPlainPdf('a /Kids that is not an array');
      return kids.map((kid) => {
        const child = file.resolve(kid);
        if (!(child instanceof Map)) throw new NotPlainPdf('a page tree kid that is not a dictionary');
        return child;
      });
    },
    refusal: (reason) => new NotPlainPdf(reason),
  });
}

function isRef(value: PdfValue): value is PdfRef {
  return typeof value === 'object' && 'kind' in value && value.kind === 'ref';
}

function isName(value: PdfValue | undefined, name: string): boolean {
  return typeof value === 'object' && 'kind' in value && value.kind === 'name' && value.name === name;
}
