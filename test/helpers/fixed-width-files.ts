/**
 * Fixed-width record files for the guess tests, written by the tests themselves: a file shaped as
 * American Express's chargeback notification file (CBNOT: header 137 characters, detail 2114,
 * trailer 129, fields at the positions its published layout gives, counted from 0), and a simpler
 * 80-character layout of our own (type codes "01"/"05"/"09", implied-decimal amounts, Julian dates).
 */

/** A record of `length` spaces with `fields` (ASCII) written at their 0-based first positions. */
function record(length: number, fields: readonly (readonly [number, string])[]): string {
  let text = ' '.repeat(length);
  for (const [first, value] of fields) text = text.slice(0, first) + value + text.slice(first + value.length);
  return text;
}

const pad = (value: number | string, width: number, filler = '0') => String(value).padStart(width, filler);

/** `-0000000000089.95`: a sign, then the amount zero-padded to 16 characters with two decimals. */
export function cbnotAmount(cents: number): string {
  return `${cents < 0 ? '-' : '0'}${pad((Math.abs(cents) / 100).toFixed(2), 16)}`;
}

export interface CbnotOptions {
  /** Detail records per block: one block each. */
  readonly blocks: readonly number[];
  /** What each block's trailer states at [35, 43]; default: the block's records, header and trailer included. */
  readonly trailerCounts?: readonly number[];
  /** The last line without its trailing spaces, as some transfers leave it. */
  readonly trimLastLine?: boolean;
  readonly lineEnding?: string;
}

const names = ['JOHN SMITH', 'MARIA DA SILVA', 'LI WEI', 'ANNE-MARIE O NEILL', 'PETER VAN DER BERG', 'SAM'];
const reasons = ['R13', 'F29', 'C08', 'F24'];
const caseTypes = ['FRAUD', 'NAXMG'];

/** A CBNOT-shaped file: each block a header, its detail records and a trailer counting them. */
export function cbnotFile(options: CbnotOptions): string {
  const lines: string[] = [];
  let serial = 0;
  options.blocks.forEach((details, block) => {
    const julian = `2026${pad(60 + block, 3)}`;
    const control = (type: string, length: number, count?: number) =>
      record(length, [
        [0, type],
        ...(count === undefined ? [] : ([[35, pad(count, 9)]] as const)),
        [101, 'SUB042'],
        [107, 'CBNOT'],
        [112, julian],
        [119, pad(143012 + block, 7)],
      ]);
    lines.push(control('H', 137));
    for (let index = 0; index < details; index++, serial++) {
      const cents = -(8995 + serial * 137);
      lines.push(
        record(2114, [
          [0, 'D'],
          [6, pad(3791000001 + (serial % 3), 10)],
          [26, `372522XXXXX${pad(1000 + ((serial * 37) % 9000), 4)}`],
          [46, `C26${pad(4100000 + serial, 8)}`],
          [57, pad(1 + (serial % 2), 2)],
          [76, `202603${pad(1 + (serial % 28), 2)}`],
          [84, `202602${pad(1 + ((serial * 3) % 28), 2)}`],
          [104, caseTypes[serial % caseTypes.length] ?? 'FRAUD'],
          [125, reasons[serial % reasons.length] ?? 'R13'],
          [128, cbnotAmount(cents)],
          [182, cbnotAmount(cents - 100)],
          [247, names[serial % names.length] ?? 'SAM'],
        ]),
      );
    }
    lines.push(control('T', 129, options.trailerCounts?.[block] ?? details + 2));
  });
  if (options.trimLastLine === true) lines.push((lines.pop() ?? '').trimEnd());
  const ending = options.lineEnding ?? '\n';
  return `${lines.join(ending)}${ending}`;
}

/**
 * Our own 80-character layout, positions counted from 0: "01" file header (institution name at 2–31, file
 * date yyyyDDD at 32–38); "05" dispute records (reference 2–13, card last four 14–17, amount in
 * cents, 11 digits, 18–28, Julian dispute date yyyyDDD 29–35, reason code 37–40, merchant 42–71);
 * "09" trailer (detail record count at 2–7, amount total in cents at 8–20).
 */
export function simpleFile(details: number): string {
  const lines = [
    record(80, [
      [0, '01'],
      [2, 'NORTHWIND BANK'],
      [32, '2026075'],
    ]),
  ];
  let total = 0;
  for (let index = 0; index < details; index++) {
    const cents = 1250 + index * 1111;
    total += cents;
    lines.push(
      record(80, [
        [0, '05'],
        [2, `NW${pad(880001 + index, 10)}`],
        [15, pad(4000 + ((index * 613) % 6000), 4)],
        [20, pad(cents, 11)],
        [32, `2026${pad(10 + index * 7, 3)}`],
        [40, ['4837', '4853', '4863'][index % 3] ?? '4837'],
        [45, ['COFFEE ROASTERS LTD', 'BOOKS AND MORE', 'AIRLINE 42'][index % 3] ?? ''],
      ]),
    );
  }
  lines.push(
    record(80, [
      [0, '09'],
      [2, pad(details, 6)],
      [8, pad(total, 13)],
    ]),
  );
  return `${lines.join('\r\n')}\r\n`;
}
