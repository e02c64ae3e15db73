/**
 * Generated issuer exports for the `mapping guess` tests: the same disputes written in several
 * layouts (German `;` with decimal commas, US `,`, French tab-separated windows-1252, Spanish `|`
 * with JPY and KWD), each with the truth a test checks the guess and the dry run against: which
 * column is what, the reason codes' meanings, each case's amount in minor units.
 */

export interface GeneratedCase {
  /** Amount in minor units of `currency`. */
  readonly amountMinor: number;
  readonly currency: string;
  /** Calendar date of the transaction. */
  readonly date: { year: number; month: number; day: number; hour: number; minute: number };
  readonly arn: string;
  readonly merchant: string;
}

export interface GeneratedDispute {
  readonly ref: string;
  readonly reasonCode: string;
  readonly last4: string;
  readonly network: string;
  readonly expiry: { month: number; year: number };
  readonly cardholder: string;
  readonly email: string;
  readonly fraudReported: boolean;
  readonly cardActive: boolean;
  readonly cases: readonly GeneratedCase[];
}

/** A reason code of the exports → the API's reason: what a person writes into the draft's TODOs. */
export const reasonOfCode: Readonly<Record<string, string>> = {
  FR: 'fraud',
  NR: 'product_not_received',
  DUP: 'duplicate_charge',
  CNP: 'credit_not_processed',
};

/** Small deterministic generator (a linear congruential one): the same exports on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const merchants = [
  'Larkspur Electronics',
  'Café Lumière',
  'Müller & Söhne',
  'Ñandú Viajes',
  'Sakuragawa Folio',
  'Nordlicht GmbH',
];
const names = ['Maya Lindqvist', 'Jürgen Weiß', 'Élodie Brûlé', 'Iñigo Peña', 'Sam Carter'];
const networks = ['VISA', 'MC', 'AMEX'];

/**
 * `count` disputes of one to three cases each, in `currencies` (one per dispute, in turn).
 * Amounts span 1 to 25,000 major units, so some are grouped (1.234,56); days span 1 to 28, so
 * day-first and month-first dates are told apart.
 */
export function generateDisputes(
  count: number,
  currencies: readonly string[],
  exponentOf: (currency: string) => number,
): GeneratedDispute[] {
  const next = random(count * 7919 + currencies.length);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return Array.from({ length: count }, (_, index) => {
    const currency = currencies[index % currencies.length] ?? 'EUR';
    const exponent = exponentOf(currency);
    const caseCount = 1 + Math.floor(next() * 3);
    const name = pick(names);
    return {
      ref: `D-${String(1000 + index)}`,
      reasonCode: pick(Object.keys(reasonOfCode)),
      last4: String(1000 + Math.floor(next() * 9000)),
      network: pick(networks),
      expiry: { month: 1 + Math.floor(next() * 12), year: 2027 + Math.floor(next() * 5) },
      cardholder: name,
      email: `${
        name
          .split(' ')[0]
          ?.normalize('NFD')
          .replace(/\p{Diacritic}/gu, '')
          .toLowerCase() ?? 'x'
      }${index}@example.com`,
      fraudReported: next() < 0.5,
      cardActive: next() < 0.5,
      cases: Array.from({ length: caseCount }, (_, caseIndex) => ({
        // Major units 1..25,000 with random minor digits: grouped and ungrouped values both occur.
        amountMinor: Math.floor((1 + next() * (next() < 0.3 ? 25_000 : 900)) * 10 ** exponent),
        currency,
        date: {
          year: 2026,
          month: 1 + Math.floor(next() * 12),
          day: 1 + Math.floor(next() * 28),
          hour: Math.floor(next() * 24),
          minute: Math.floor(next() * 60),
        },
        arn: `7${String(index).padStart(6, '0')}${String(caseIndex).padStart(2, '0')}${String(Math.floor(next() * 1e14)).padStart(14, '0')}`,
        merchant: pick(merchants),
      })),
    };
  });
}

/** One row of an export: a case with its dispute. */
export interface ExportRow {
  readonly dispute: GeneratedDispute;
  readonly item: GeneratedCase;
}

export interface ExportColumn {
  readonly header: string;
  readonly cell: (row: ExportRow) => string;
  /** The new_claim target a correct guess places this column on (`claim.key` for the key). */
  readonly expected?: string;
}

export interface ExportLayout {
  readonly delimiter: string;
  readonly encoding: 'utf-8' | 'windows-1252' | 'utf-16le';
  readonly bom: boolean;
  readonly lineEnding: '\r\n' | '\n';
  readonly columns: readonly ExportColumn[];
}

export function rowsOf(disputes: readonly GeneratedDispute[]): ExportRow[] {
  return disputes.flatMap((dispute) => dispute.cases.map((item) => ({ dispute, item })));
}

/** The export's bytes: header line, then `rows`, and `extraLines` (already formatted cells) after them. */
export function renderExport(
  layout: ExportLayout,
  rows: readonly ExportRow[],
  extraLines: readonly (readonly string[])[] = [],
): Buffer {
  const quote = (cell: string) =>
    cell.includes(layout.delimiter) || cell.includes('"') || /[\r\n]/.test(cell)
      ? `"${cell.replace(/"/g, '""')}"`
      : cell;
  const lines = [
    layout.columns.map((column) => column.header),
    ...rows.map((row) => layout.columns.map((column) => column.cell(row))),
    ...extraLines,
  ];
  const text =
    lines.map((cells) => cells.map(quote).join(layout.delimiter)).join(layout.lineEnding) + layout.lineEnding;
  switch (layout.encoding) {
    case 'utf-8':
      return Buffer.concat([layout.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
    case 'utf-16le':
      return Buffer.concat([layout.bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
    case 'windows-1252':
      return windows1252(text);
  }
}

/** Text to windows-1252 bytes (Node has no encoder for it): Latin-1 letters are their code points, € is 0x80. */
function windows1252(text: string): Buffer {
  const special: Readonly<Record<string, number>> = {
    '€': 0x80,
    '‚': 0x82,
    '„': 0x84,
    '…': 0x85,
    '‘': 0x91,
    '’': 0x92,
    '“': 0x93,
    '”': 0x94,
    '–': 0x96,
    '—': 0x97,
  };
  const bytes: number[] = [];
  for (const character of text) {
    const code = character.charCodeAt(0);
    const byte = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : special[character];
    if (byte === undefined) throw new Error(`windows-1252: cannot write ${JSON.stringify(character)}`);
    bytes.push(byte);
  }
  return Buffer.from(bytes);
}

/** `amountMinor` written with the given separators: 123456 at exponent 2 → "1.234,56" (decimal ",", group "."). */
export function formatAmount(amountMinor: number, exponent: number, decimal: string, group: string): string {
  const digits = String(amountMinor).padStart(exponent + 1, '0');
  const integer = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  const grouped = group === '' ? integer : integer.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return exponent === 0 ? grouped : `${grouped}${decimal}${fraction}`;
}

export const pad = (value: number) => String(value).padStart(2, '0');
