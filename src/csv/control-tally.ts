import { maskCardNumbers } from '../card-numbers/mask.js';
import type { Controls } from './controls.js';

/**
 * The control figures checked block by block (docs/mappings.md, "Fixed-width files and control
 * records"): a reader tells the tally each record of a block as it reads it, and the trailer's
 * figures; when the block closes, what the trailer says is compared with what was read. Only the
 * mismatches are kept, so a file of many blocks costs no memory.
 */

/** A trailer that disagrees with its block, or a block without its trailer. */
export interface ControlMismatch {
  readonly code: 'TRAILER_MISMATCH' | 'TRAILER_MISSING';
  /** The trailer's line, or the block's last line when it has none. */
  readonly line: number;
  readonly block: number;
  /** The block's lines, first to last: its rows are the ones the mismatch is about. */
  readonly firstLine: number;
  readonly lastLine: number;
  /** One sentence, without the code: `the trailer on line 4 says 5 records, …`. */
  readonly message: string;
}

/** What the trailer states, as written, and the line it is on. */
interface Figure {
  readonly text: string;
  readonly line: number;
}

interface OpenBlock {
  readonly number: number;
  readonly firstLine: number;
  lastLine: number;
  trailerLine: number | undefined;
  detailRecords: number;
  allRecords: number;
  count: Figure | undefined;
  amount: Figure | undefined;
  /** The detail amounts' sum, scaled by 10^figureScale. */
  sum: bigint;
  unreadableAmount: Figure | undefined;
}

/** Decimals kept when adding amounts up: more than any currency or implied_decimals has. */
const figureScale = 12;
/** Mismatches kept; a file whose every block disagrees says the first ones and how many. */
const mostMismatches = 100;

export class ControlTally {
  readonly mismatches: ControlMismatch[] = [];
  mismatchCount = 0;
  private block: OpenBlock | undefined;
  private blocks = 0;

  constructor(
    private readonly controls: Controls | undefined,
    /** Whether each block must end with a trailer: the layout has one. */
    private readonly trailerExpected: boolean,
  ) {}

  /** A header record: a new block, the open one closed first. */
  header(line: number): void {
    this.close();
    this.block = this.openBlock(line);
    this.block.allRecords++;
    this.block.lastLine = line;
  }

  /** Any record of the block that is not its header or trailer: an ignored type, or (with `detail`) a row. */
  record(line: number): void {
    const block = (this.block ??= this.openBlock(line));
    block.allRecords++;
    block.lastLine = line;
  }

  /** A detail record (after `record`), and its cell the total adds up, when there is one. */
  detail(line: number, amount: string | undefined): void {
    const block = (this.block ??= this.openBlock(line));
    block.detailRecords++;
    if (amount === undefined || block.unreadableAmount !== undefined) return;
    const value = readFigure(amount, this.controls?.amount_total?.implied_decimals ?? 0);
    if (value === undefined) block.unreadableAmount = { text: amount, line };
    else block.sum += value;
  }

  /** A trailer line and the figures it states (undefined where it states none). */
  trailer(line: number, figures: { count?: string | undefined; amount?: string | undefined }): void {
    const block = (this.block ??= this.openBlock(line));
    block.trailerLine ??= line;
    block.allRecords++;
    block.lastLine = line;
    if (block.count === undefined && figures.count !== undefined) block.count = { text: figures.count, line };
    if (block.amount === undefined && figures.amount !== undefined) block.amount = { text: figures.amount, line };
  }

  /** Whether the open block has seen its trailer: a header after it opens the next block. */
  get trailerSeen(): boolean {
    return this.block?.trailerLine !== undefined;
  }

  /** The input's end: the last block closes. */
  end(): void {
    this.close();
  }

  private openBlock(line: number): OpenBlock {
    return {
      number: ++this.blocks,
      firstLine: line,
      lastLine: line,
      trailerLine: undefined,
      detailRecords: 0,
      allRecords: 0,
      count: undefined,
      amount: undefined,
      sum: 0n,
      unreadableAmount: undefined,
    };
  }

  private close(): void {
    const block = this.block;
    this.block = undefined;
    if (block === undefined) return;
    for (const mismatch of this.check(block)) {
      this.mismatchCount++;
      if (this.mismatches.length < mostMismatches) this.mismatches.push(mismatch);
    }
  }

  /** The messages reach the log, the journal and the results: a text quoted in them has its card numbers masked. */
  private check(block: OpenBlock): ControlMismatch[] {
    const where = `block ${block.number} (lines ${block.firstLine}–${block.lastLine})`;
    if (block.trailerLine === undefined) {
      if (!this.trailerExpected && this.controls === undefined) return [];
      return [
        {
          code: 'TRAILER_MISSING',
          line: block.lastLine,
          block: block.number,
          firstLine: block.firstLine,
          lastLine: block.lastLine,
          message: `${where} ends on line ${block.lastLine} without its trailer: a file cut short?`,
        },
      ];
    }
    const found: ControlMismatch[] = [];
    const mismatch = (message: string): void => {
      found.push({
        code: 'TRAILER_MISMATCH',
        line: block.trailerLine ?? block.lastLine,
        block: block.number,
        firstLine: block.firstLine,
        lastLine: block.lastLine,
        message,
      });
    };
    const countSetting = this.controls?.record_count;
    if (countSetting !== undefined) {
      const trailer = `the trailer on line ${block.trailerLine}`;
      const stated = block.count === undefined ? undefined : readCount(block.count.text);
      const holds =
        countSetting.counts === 'all_records'
          ? `${where} holds ${block.allRecords}, its header and trailer included`
          : `${where} holds ${block.detailRecords} between its header and trailer`;
      const actual = countSetting.counts === 'all_records' ? block.allRecords : block.detailRecords;
      const noun = countSetting.counts === 'all_records' ? 'records' : 'detail records';
      if (block.count === undefined)
        mismatch(`${trailer} states no record count (${describeSource(countSetting)}), ${holds}`);
      else if (stated === undefined)
        mismatch(
          `${trailer} says ${JSON.stringify(maskCardNumbers(block.count.text))} where its record count is, expected digits`,
        );
      else if (stated !== actual) mismatch(`${trailer} says ${stated} ${noun}, ${holds}: a file cut short or joined?`);
    }
    const amountSetting = this.controls?.amount_total;
    if (amountSetting !== undefined) {
      const trailer = `the trailer on line ${block.trailerLine}`;
      const stated =
        block.amount === undefined ? undefined : readFigure(block.amount.text, amountSetting.implied_decimals);
      if (block.amount === undefined) mismatch(`${trailer} states no amount total (${describeSource(amountSetting)})`);
      else if (stated === undefined)
        mismatch(
          `${trailer} says ${JSON.stringify(maskCardNumbers(block.amount.text))} where its amount total is, expected a number`,
        );
      else if (block.unreadableAmount !== undefined)
        mismatch(
          `${trailer}'s amount total cannot be checked: ${amountSetting.sums} on line ${block.unreadableAmount.line} ` +
            `reads ${JSON.stringify(maskCardNumbers(block.unreadableAmount.text))}, expected a number`,
        );
      else if (stated !== block.sum)
        mismatch(
          `${trailer} says a total of ${formatFigure(stated)}, the ${amountSetting.sums} amounts of ${where} add up ` +
            `to ${formatFigure(block.sum)}: a file cut short or joined?`,
        );
    }
    return found;
  }
}

function describeSource(setting: { field?: string | undefined; matches?: string | undefined }): string {
  return setting.field !== undefined
    ? `its field ${setting.field} is blank`
    : `no trailer line matches ${JSON.stringify(setting.matches)}`;
}

function readCount(text: string): number | undefined {
  const match = /^\s*\+?(\d{1,15})\s*$/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/**
 * A control figure or an amount as written, scaled to `figureScale` decimals: signs before or
 * after the digits, zero padding, a decimal point or `impliedDecimals` digits of decimals.
 */
export function readFigure(text: string, impliedDecimals: number): bigint | undefined {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?([+-]?)\s*$/.exec(text);
  if (match === null) return undefined;
  const [, before = '', whole = '', fraction, after = ''] = match;
  if (before !== '' && after !== '') return undefined;
  if (whole === '' && (fraction ?? '') === '') return undefined;
  let integer = whole;
  let decimals = fraction ?? '';
  if (fraction === undefined && impliedDecimals > 0) {
    const padded = whole.padStart(impliedDecimals + 1, '0');
    integer = padded.slice(0, -impliedDecimals);
    decimals = padded.slice(-impliedDecimals);
  }
  if (decimals.length > figureScale) return undefined;
  const scaled = BigInt((integer === '' ? '0' : integer) + decimals.padEnd(figureScale, '0'));
  return before === '-' || after === '-' ? -scaled : scaled;
}

/** A scaled figure as a decimal: `-89.95`, `4`. */
function formatFigure(value: bigint): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(figureScale + 1, '0');
  const whole = digits.slice(0, -figureScale);
  const fraction = digits.slice(-figureScale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
