import { describe, expect, it } from 'vitest';
import { sniffDialect } from '../../src/csv/sniff-dialect.js';
import { sniffEncoding, UnsupportedEncodingError } from '../../src/csv/sniff-encoding.js';
import { matchHeader, normaliseHeader } from '../../src/mapping/guess/header-names.js';

/** Encoding and dialect sniffing from bytes and text, and the header-name dictionary. */

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const latin = (bytes: number[]) => new Uint8Array(bytes);

describe('sniffEncoding', () => {
  it.each([
    {
      name: 'UTF-8 byte order mark',
      bytes: latin([0xef, 0xbb, 0xbf, 0x61, 0x3b, 0x62]),
      encoding: 'utf-8',
      confidence: 'high',
    },
    {
      name: 'UTF-16LE byte order mark',
      bytes: latin([0xff, 0xfe, 0x61, 0x00]),
      encoding: 'utf-16le',
      confidence: 'high',
    },
    {
      name: 'UTF-16LE without a mark',
      bytes: new Uint8Array(Buffer.from('Betrag;Währung\r\n12,50;EUR\r\n', 'utf16le')),
      encoding: 'utf-16le',
      confidence: 'medium',
    },
    {
      name: 'valid UTF-8 with umlauts',
      bytes: utf8('Händler;Währung\nMüller;EUR\n'),
      encoding: 'utf-8',
      confidence: 'high',
    },
    { name: 'ASCII only', bytes: utf8('a,b\n1,2\n'), encoding: 'utf-8', confidence: 'medium' },
    // "Müller" in windows-1252: 0xFC alone is not UTF-8.
    {
      name: 'windows-1252 ü',
      bytes: latin([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a]),
      encoding: 'windows-1252',
      confidence: 'medium',
    },
    {
      name: 'windows-1252 €',
      bytes: latin([0x31, 0x32, 0x20, 0x80, 0x0a]),
      encoding: 'windows-1252',
      confidence: 'medium',
    },
  ])('$name: $encoding', ({ bytes, encoding, confidence }) => {
    expect(sniffEncoding(bytes, true)).toMatchObject({ encoding, confidence });
  });

  it('names the bytes that are not UTF-8 and what windows-1252 makes of them', () => {
    expect(sniffEncoding(latin([0x4d, 0xfc, 0x6c, 0x80]), true).evidence).toBe(
      'bytes such as 0xFC 0x80 are not UTF-8; windows-1252 reads them as "ü" "€"',
    );
  });

  it('a UTF-8 character cut at the end of a partial head is not held against UTF-8', () => {
    const cut = utf8('Händler;Währung\nMü').subarray(0, -1);
    expect(sniffEncoding(cut, false).encoding).toBe('utf-8');
    expect(sniffEncoding(cut, true).encoding).toBe('windows-1252');
  });

  it('a UTF-16BE byte order mark is refused: the reader cannot take it', () => {
    expect(() => sniffEncoding(latin([0xfe, 0xff, 0x00, 0x61]), true)).toThrow(UnsupportedEncodingError);
  });
});

describe('sniffDialect', () => {
  it.each([
    {
      text: 'Betrag;Währung;Datum\r\n1.234,56;EUR;15.03.2026\r\n12,50;EUR;01.02.2026\r\n',
      delimiter: ';',
      lineEnding: 'CRLF',
    },
    { text: 'Amount,Currency\n"1,234.56",USD\n12.50,USD\n', delimiter: ',', lineEnding: 'LF' },
    { text: 'Montant\tDevise\n1 234,56\tEUR\n', delimiter: '\t', lineEnding: 'LF' },
    { text: 'Importe|Moneda\n38,500|JPY\n1,234.567|KWD\n', delimiter: '|', lineEnding: 'LF' },
    // A comma inside quotes and in decimal commas never outvotes the real delimiter.
    { text: 'a;b;c\n"x,y,z";1,5;2,5\n"p,q";3,5;4,5\n', delimiter: ';', lineEnding: 'LF' },
  ])('$delimiter, $lineEnding', ({ text, delimiter, lineEnding }) => {
    expect(sniffDialect(text)).toMatchObject({ delimiter, lineEnding, quote: '"', header: true, confidence: 'high' });
  });

  it('a first line of data is no header', () => {
    expect(sniffDialect('D-1,4417,12.50\nD-2,4242,3.00\n').header).toBe(false);
    expect(sniffDialect('a,a\n1,2\n').header).toBe(false);
    expect(sniffDialect('a,,c\n1,2,3\n').header).toBe(false);
  });

  it('single quotes when the file uses no double quotes', () => {
    expect(sniffDialect("'name';'amount'\n'A; B';'12,50'\n")).toMatchObject({ quote: "'", delimiter: ';' });
  });

  it('one column: low confidence, "," written', () => {
    expect(sniffDialect('name\nalpha\nbeta\n')).toMatchObject({ delimiter: ',', confidence: 'low' });
  });

  it('a record cut by the end of the sniffed text does not count against the delimiter', () => {
    expect(sniffDialect('a;b;c\n1;2;3\n4;5', false).confidence).toBe('high');
    expect(sniffDialect('a;b;c\n1;2;3\n4;5', true).confidence).toBe('low');
  });
});

describe('header names in English, German, French and Spanish', () => {
  it.each([
    ['dispute_ref', 'claim_key', 'exact'],
    ['Fallnummer', 'claim_key', 'exact'],
    ['Numéro de dossier', 'claim_key', 'exact'],
    ['Número de caso', 'claim_key', 'exact'],
    ['Währung', 'transaction.currency', 'exact'],
    ['Devise', 'transaction.currency', 'exact'],
    ['Moneda', 'transaction.currency', 'exact'],
    ['Kartennummer (letzte 4)', 'card.last4', 'exact'],
    ['4 derniers chiffres', 'card.last4', 'exact'],
    ['Últimos 4', 'card.last4', 'exact'],
    ['Date de l’opération', 'transaction.date', 'exact'],
    ['Umsatzbetrag', 'transaction.amount', 'exact'],
    ['Importe disputado', 'dispute.amount', 'exact'],
    ['Montant contesté', 'dispute.amount', 'exact'],
    ['Gültig bis', 'expiry', 'exact'],
    ['E-Mail', 'cardholder.email', 'exact'],
    ['Betrug gemeldet', 'issuer_evidence.fraud.was_reported', 'exact'],
    ['Betrag in EUR', 'transaction.amount', 'keyword'],
    ['Disputed Amount (USD)', 'dispute.amount', 'keyword'],
    ['Card Network Name', 'card.network', 'keyword'],
    ['Transaktionswährung ISO', 'transaction.currency', 'keyword'],
  ])('%s → %s (%s)', (header, role, how) => {
    expect(matchHeader(header)).toMatchObject({ role, how });
  });

  it('an unknown header matches nothing', () => {
    expect(matchHeader('Bearbeiter')).toBeUndefined();
    expect(matchHeader('xyz')).toBeUndefined();
  });

  it('normalises case, accents, ß and punctuation', () => {
    expect(normaliseHeader('  Straße / Währung (ISO)  ')).toBe('strasse wahrung iso');
  });
});
