import { workbookLimits } from './limits.js';
import { counted, tooLarge, unreadable } from './too-large.js';

/**
 * An element every occurrence of which is bounded as stored: a sheet's `row` (its bytes, its
 * cells), the shared-strings table's `si` (its bytes, and how many there are).
 */
export interface ItemBounds {
  readonly name: string;
  /** What one is, in a message: `a row`, `a string`. */
  readonly what: string;
  readonly bytes: number;
  readonly most?: { readonly count: number; readonly what: string } | undefined;
  readonly child?: { readonly name: string; readonly most: number; readonly what: string } | undefined;
}

type State = 'text' | 'open' | 'name' | 'bang' | 'special' | 'itemTag';

const lessThan = 0x3c;
const greaterThan = 0x3e;
const slash = 0x2f;
const bang = 0x21;
const question = 0x3f;

const commentStart = '--';
const cdataStart = '[CDATA[';

/**
 * Watches a part's XML as it streams to exceljs's parser (saxes), which holds a text node, a tag,
 * a comment or a CDATA section whole before it hands it on, and exceljs a row or a string whole:
 * each is refused as it passes its bound, before the parser holds it. A cheap scan: text is
 * skipped with `indexOf('<')`; only tag names, comments and the item's own tags are read byte by
 * byte. Text split by comments counts as one piece (exceljs joins it); a DTD is refused (saxes
 * reads none, and an Open XML part has none).
 */
export class XmlBounds {
  private state: State = 'text';
  /** Bytes since the last element tag began. */
  private run = 0;
  private nameLength = 0;
  private closing = false;
  private mayBeItem = false;
  private mayBeChild = false;
  private opened = '';
  private terminator = '';
  private matched = 0;
  private inItem = false;
  private itemBytes = 0;
  private items = 0;
  private children = 0;
  private quote = 0;
  private lastMark = 0;

  constructor(
    private readonly part: string,
    private readonly item?: ItemBounds,
  ) {}

  /** Throws `xlsx_too_large` (or `workbook_unreadable`, a DTD) at the chunk that goes past a bound. */
  check(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === 'text') {
        const next = chunk.indexOf(lessThan, at);
        if (next === -1) {
          this.add(chunk.length - at);
          return;
        }
        this.add(next - at + 1);
        at = next + 1;
        this.state = 'open';
        continue;
      }
      at = this.step(chunk[at] ?? 0, at);
    }
  }

  /** One byte of anything but text: returns where the scan goes on. */
  private step(byte: number, at: number): number {
    switch (this.state) {
      case 'open':
        if (byte === bang || byte === question) {
          this.add(1);
          this.opened = '';
          if (byte === question) this.enterSpecial('?>');
          else this.state = 'bang';
          return at + 1;
        }
        {
          // An element's tag begins: the piece between two tags starts again.
          this.run = 1;
          const closing = byte === slash;
          this.startName(closing);
          if (!closing) return at;
          this.add(1);
          return at + 1;
        }
      case 'name':
        if (isNameEnd(byte)) {
          this.nameEnded();
          return at;
        }
        this.nameByte(byte);
        this.add(1);
        return at + 1;
      case 'bang':
        this.add(1);
        this.opened += String.fromCharCode(byte);
        if (this.opened === commentStart) this.enterSpecial('-->');
        else if (this.opened === cdataStart) this.enterSpecial(']]>');
        else if (!commentStart.startsWith(this.opened) && !cdataStart.startsWith(this.opened))
          throw unreadable(this.part, 'no DTD or declaration (an Open XML part has none)', `<!${this.opened}`);
        return at + 1;
      case 'special':
        this.add(1);
        this.matchTerminator(byte);
        return at + 1;
      case 'itemTag':
        this.add(1);
        this.itemTagByte(byte);
        return at + 1;
      default:
        return at + 1;
    }
  }

  private add(bytes: number): void {
    this.run += bytes;
    if (this.inItem && this.item !== undefined) {
      this.itemBytes += bytes;
      if (this.itemBytes > this.item.bytes)
        throw tooLarge(
          this.part,
          `${this.item.what} of at most ${counted(this.item.bytes)} bytes as stored`,
          `more in ${this.item.what} ${counted(this.items)} (counting from the part's first)`,
        );
    }
    if (this.run > workbookLimits.xmlRunBytes)
      throw tooLarge(
        this.part,
        `at most ${counted(workbookLimits.xmlRunBytes)} bytes of text or markup between two tags ` +
          `(a cell holds at most ${counted(workbookLimits.cellCharacters)} characters)`,
        'more',
      );
  }

  private startName(closing: boolean): void {
    this.state = 'name';
    this.closing = closing;
    this.nameLength = 0;
    this.mayBeItem = this.item !== undefined;
    this.mayBeChild = this.item?.child !== undefined && this.inItem && !closing;
  }

  private nameByte(byte: number): void {
    const at = this.nameLength++;
    if (this.mayBeItem) this.mayBeItem = this.item?.name.charCodeAt(at) === byte;
    if (this.mayBeChild) this.mayBeChild = this.item?.child?.name.charCodeAt(at) === byte;
  }

  private nameEnded(): void {
    this.state = 'text';
    const item = this.item;
    if (item === undefined) return;
    const isItem = this.mayBeItem && this.nameLength === item.name.length;
    if (isItem && this.closing) {
      this.inItem = false;
      return;
    }
    if (isItem) {
      this.openItem(item);
      return;
    }
    const child = item.child;
    if (child !== undefined && this.mayBeChild && this.nameLength === child.name.length) {
      this.children++;
      if (this.children > child.most)
        throw tooLarge(
          this.part,
          `${item.what} of at most ${counted(child.most)} ${child.what}`,
          `more in ${item.what} ${counted(this.items)} (counting from the part's first)`,
        );
    }
  }

  private openItem(item: ItemBounds): void {
    this.items++;
    if (item.most !== undefined && this.items > item.most.count)
      throw tooLarge(this.part, `at most ${counted(item.most.count)} ${item.most.what}`, 'more');
    this.inItem = true;
    this.itemBytes = this.nameLength + 1;
    this.children = 0;
    // The tag is read to its end: `<row r="3"/>` is an empty row, closed where it opens.
    this.state = 'itemTag';
    this.quote = 0;
    this.lastMark = 0;
  }

  private itemTagByte(byte: number): void {
    if (this.quote !== 0) {
      if (byte === this.quote) this.quote = 0;
      return;
    }
    if (byte === 0x22 || byte === 0x27) {
      this.quote = byte;
      return;
    }
    if (byte === greaterThan) {
      if (this.lastMark === slash) this.inItem = false;
      this.state = 'text';
      return;
    }
    if (!isSpace(byte)) this.lastMark = byte;
  }

  private enterSpecial(terminator: string): void {
    this.state = 'special';
    this.terminator = terminator;
    this.matched = 0;
  }

  /** The terminators (`-->`, `]]>`, `?>`) repeat only their first character: a run of it keeps the match. */
  private matchTerminator(byte: number): void {
    const expected = this.terminator.charCodeAt(this.matched);
    if (byte === expected) {
      this.matched++;
      if (this.matched === this.terminator.length) this.state = 'text';
      return;
    }
    const first = this.terminator.charCodeAt(0);
    const repeats = this.terminator.length > 2 && this.terminator.charCodeAt(1) === first;
    if (byte === first && repeats && this.matched === 2) return;
    this.matched = byte === first ? 1 : 0;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function isNameEnd(byte: number): boolean {
  return isSpace(byte) || byte === slash || byte === greaterThan;
}
