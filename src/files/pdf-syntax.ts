/**
 * Just enough of the PDF object syntax (ISO 32000-1 §7.2, §7.3) to read the few objects a page
 * count needs: the trailer, the catalog and the page tree's nodes. Values are plain: numbers,
 * names, references, arrays and dictionaries; strings, booleans, null and reals are kept only as
 * "something else", since the page tree never needs their content.
 *
 * Anything unusual makes the reading give up (NotPlainPdf) rather than guess: the caller then
 * hands the whole file to pdf-lib, which is slower but knows every repair trick and gives the
 * error messages. So this reader must never accept what pdf-lib would read differently.
 */

export interface PdfName {
  readonly kind: 'name';
  readonly name: string;
}
export interface PdfRef {
  readonly kind: 'ref';
  readonly objectNumber: number;
  readonly generation: number;
}
export interface PdfOther {
  readonly kind: 'other';
}
export type PdfDictionary = Map<string, PdfValue>;
export type PdfValue = number | PdfName | PdfRef | PdfOther | PdfValue[] | PdfDictionary;

/** The bytes are not the plain PDF this reader handles: pdf-lib must decide. */
export class NotPlainPdf extends Error {
  constructor(reason: string) {
    super(`pdf: not plain enough to read quickly (${reason})`);
    this.name = 'NotPlainPdf';
  }
}

/** The window ended inside the value: read again with a longer one. */
export class WindowTooShort extends Error {
  constructor() {
    super('pdf: the window ended inside a value');
    this.name = 'WindowTooShort';
  }
}

const other: PdfOther = { kind: 'other' };
/** Nested arrays and dictionaries beyond this are refused, not recursed into (no stack overflow). */
const maxDepth = 32;

const isWhitespace = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
// ( ) < > [ ] { } / %
const isDelimiter = (byte: number) =>
  byte === 0x28 ||
  byte === 0x29 ||
  byte === 0x3c ||
  byte === 0x3e ||
  byte === 0x5b ||
  byte === 0x5d ||
  byte === 0x7b ||
  byte === 0x7d ||
  byte === 0x2f ||
  byte === 0x25;
const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;

/**
 * A cursor over `bytes`, a window into the file. `atFileEnd` says whether the window ends where
 * the file does: running out of bytes then means a broken file, otherwise a window too short.
 */
export class PdfReader {
  position = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly atFileEnd: boolean,
  ) {}

  /** Skips whitespace and comments (a comment runs to the end of its line). */
  skipSpace(): void {
    const { bytes } = this;
    while (this.position < bytes.length) {
      const byte = bytes[this.position] ?? 0;
      if (isWhitespace(byte)) this.position++;
      else if (byte === 0x25) {
        while (this.position < bytes.length && bytes[this.position] !== 0x0a && bytes[this.position] !== 0x0d)
          this.position++;
      } else return;
    }
  }

  /** The byte at the cursor; running out is the window's fault or the file's (see atFileEnd). */
  peek(): number {
    const byte = this.bytes[this.position];
    if (byte === undefined)
      throw this.atFileEnd ? new NotPlainPdf('the file ends inside an object') : new WindowTooShort();
    return byte;
  }

  /** A run of regular characters (a keyword or a number), the cursor after it. */
  token(): string {
    const start = this.position;
    while (
      this.position < this.bytes.length &&
      !isWhitespace(this.bytes[this.position] ?? 0) &&
      !isDelimiter(this.bytes[this.position] ?? 0)
    )
      this.position++;
    // A token cut by the window's end may go on in the file.
    if (this.position === this.bytes.length && !this.atFileEnd) throw new WindowTooShort();
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + start, this.position - start).toString('latin1');
  }

  /** The keyword `word` at the cursor (after space), or NotPlainPdf. */
  expectKeyword(word: string): void {
    this.skipSpace();
    const found = this.token();
    if (found !== word) throw new NotPlainPdf(`expected ${word}, got ${JSON.stringify(found.slice(0, 20))}`);
  }

  /** A non-negative integer written plainly (object numbers, offsets, counts), or NotPlainPdf. */
  unsignedInteger(): number {
    this.skipSpace();
    const text = this.token();
    if (!/^\d{1,15}$/.test(text))
      throw new NotPlainPdf(`expected an unsigned integer, got ${JSON.stringify(text.slice(0, 20))}`);
    return Number(text);
  }

  /** The object at the cursor, after space. */
  value(depth = 0): PdfValue {
    if (depth > maxDepth) throw new NotPlainPdf('values nested too deeply');
    this.skipSpace();
    const byte = this.peek();
    if (byte === 0x2f) return this.name();
    if (byte === 0x5b) return this.array(depth);
    if (byte === 0x28) return this.literalString();
    if (byte === 0x3c) {
      this.position++;
      if (this.peek() === 0x3c) {
        this.position++;
        return this.dictionaryBody(depth);
      }
      return this.hexString();
    }
    if (isDigit(byte) || byte === 0x2b || byte === 0x2d || byte === 0x2e) return this.numberOrRef();
    const word = this.token();
    if (word === 'true' || word === 'false' || word === 'null') return other;
    throw new NotPlainPdf(
      `an unexpected ${word === '' ? `byte ${byte}` : `keyword ${JSON.stringify(word.slice(0, 20))}`}`,
    );
  }

  /** `<< … >>` at the cursor, after space. */
  dictionary(): PdfDictionary {
    this.skipSpace();
    if (this.peek() !== 0x3c) throw new NotPlainPdf('expected a dictionary');
    this.position++;
    if (this.peek() !== 0x3c) throw new NotPlainPdf('expected a dictionary');
    this.position++;
    return this.dictionaryBody(0);
  }

  private dictionaryBody(depth: number): PdfDictionary {
    const dictionary: PdfDictionary = new Map();
    for (;;) {
      this.skipSpace();
      if (this.peek() === 0x3e) {
        this.position++;
        if (this.peek() !== 0x3e) throw new NotPlainPdf('a dictionary closed by a single >');
        this.position++;
        return dictionary;
      }
      const key = this.value(depth + 1);
      if (typeof key !== 'object' || !('kind' in key) || key.kind !== 'name')
        throw new NotPlainPdf('a dictionary key that is not a name');
      // A repeated key: the last one counts, as in pdf-lib's parser.
      dictionary.set(key.name, this.value(depth + 1));
    }
  }

  private array(depth: number): PdfValue[] {
    this.position++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.peek() === 0x5d) {
        this.position++;
        return items;
      }
      items.push(this.value(depth + 1));
    }
  }

  /** A name, its `#xx` escapes decoded (§7.3.5); the whole name as its identity. */
  private name(): PdfName {
    this.position++;
    const text = this.token();
    return {
      kind: 'name',
      name: text.includes('#')
        ? text.replace(/#([0-9A-Fa-f]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : text,
    };
  }

  /** An integer, or `N G R`: a reference. Reals and signed numbers count as "something else". */
  private numberOrRef(): number | PdfRef | PdfOther {
    const text = this.token();
    if (!/^\d{1,15}$/.test(text)) {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text))
        throw new NotPlainPdf(`a malformed number ${JSON.stringify(text.slice(0, 20))}`);
      return other;
    }
    const afterNumber = this.position;
    this.skipSpace();
    const next = this.byteAt(this.position);
    if (next !== undefined && isDigit(next)) {
      const generation = this.token();
      this.skipSpace();
      if (/^\d{1,5}$/.test(generation) && this.byteAt(this.position) === 0x52 && this.endsToken(this.position + 1)) {
        this.position++;
        return { kind: 'ref', objectNumber: Number(text), generation: Number(generation) };
      }
    }
    this.position = afterNumber;
    return Number(text);
  }

  /** The byte at `position`; undefined past the file's end, WindowTooShort past the window's. */
  private byteAt(position: number): number | undefined {
    const byte = this.bytes[position];
    if (byte === undefined && !this.atFileEnd) throw new WindowTooShort();
    return byte;
  }

  private endsToken(position: number): boolean {
    const byte = this.byteAt(position);
    return byte === undefined || isWhitespace(byte) || isDelimiter(byte);
  }

  /** `( … )` with balanced parentheses and backslash escapes (§7.3.4.2), skipped. */
  private literalString(): PdfOther {
    this.position++;
    let depth = 1;
    while (depth > 0) {
      const byte = this.peek();
      this.position++;
      if (byte === 0x5c) {
        this.peek();
        this.position++;
      } else if (byte === 0x28) depth++;
      else if (byte === 0x29) depth--;
    }
    return other;
  }

  /** `< … >`, the `<` already read, skipped. */
  private hexString(): PdfOther {
    while (this.peek() !== 0x3e) this.position++;
    this.position++;
    return other;
  }
}
