import { describe, expect, it } from 'vitest';
import { findReportLayout } from '../../../src/mapping/guess/report-layout.js';

/** The layout of a whole small file (its head is all of it). */
const layoutOf = (text: string, delimiter = ',') =>
  findReportLayout({ head: text, complete: true, tail: undefined, delimiter, quote: '"' });

const rows = (count: number, row: (index: number) => string) => Array.from({ length: count }, (_, index) => row(index));

describe('mapping guess: where the table sits in a report', () => {
  it('a plain export has no layout to write: header on line 1, nothing after the rows', () => {
    const guess = layoutOf(
      ['id,amount,date', ...rows(5, (index) => `${index},1.00,2026-11-0${index + 1}`), ''].join('\n'),
    );
    expect(guess?.layout).toBeUndefined();
    expect(guess?.headerLine).toBe(1);
    expect(guess?.confidence).toBe('high');
  });

  it('finds the header below key=value title lines by the table under it, and the trailer that repeats a title', () => {
    const text = [
      'EntityId=5521,Frequency=adhoc',
      'EntityId=5521,ReportTypeName=Disputes,FromDate=2026-10-01,ToDate=2026-10-31,GenerationTime=13:01:27',
      'Account Number,Acquirer Reference Number,Amount,Reason',
      ...rows(3, () => '411111XXXXXX1111,"74000000000000000000001","1.50000000","53"'),
      'EntityId=5521,Frequency=adhoc',
      ...rows(30, () => ''),
    ].join('\r\n');
    const guess = layoutOf(text);
    expect(guess?.layout).toEqual({
      header: { starts_with: 'Account Number' },
      trailer: { starts_with: 'EntityId=' },
    });
    expect(guess?.headerLine).toBe(3);
    expect(guess?.fields).toBe(4);
    expect(guess?.titleLines).toHaveLength(2);
    expect(guess?.trailer).toMatchObject({ line: 7, fields: 2 });
    expect(guess?.blankLinesInside).toBe(0);
  });

  it('finds the header below a one-cell title in the bank’s language, with a ";" table', () => {
    const text = [
      'Rückbelastungen – Monatsbericht November 2026',
      '',
      'Kartennummer;ARN;Betrag;Datum',
      ...rows(4, (index) => `************${4000 + index};7400000000000000000000${index};12,50;0${index + 1}.11.2026`),
    ].join('\n');
    const guess = layoutOf(text, ';');
    expect(guess?.layout).toEqual({ header: { starts_with: 'Kartennummer' } });
    expect(guess?.headerLine).toBe(3);
  });

  it('takes a totals line as wide as the rows for the trailer by its word, as a whole first cell', () => {
    const text = ['case,arn,amount', ...rows(4, (index) => `C${index},7400${index},1.00`), 'TOTAL,,4.00', ''].join(
      '\n',
    );
    const guess = layoutOf(text);
    expect(guess?.layout).toEqual({ trailer: { matches: '^TOTAL(?:,|$)' } });
  });

  it('reads the detail section after a summary section of another width', () => {
    const text = [
      'Status,Count',
      'Open,3',
      'Won,2',
      '',
      'Case,ARN,Amount,Date',
      ...rows(5, (index) => `C${index},7400${index},1.0${index},2026-11-0${index + 1}`),
    ].join('\n');
    const guess = layoutOf(text);
    expect(guess?.layout).toEqual({ header: { starts_with: 'Case' } });
    expect(guess?.headerLine).toBe(5);
  });

  it('counts blank lines among the rows, which need a report section to be skipped', () => {
    const text = ['id,v', '1,a', '', '2,b', '', '', '3,c', '', ''].join('\n');
    const guess = layoutOf(text);
    expect(guess?.blankLinesInside).toBe(3);
    expect(guess?.layout).toEqual({});
  });

  it('gives the trailer by its count when a pattern would match a row too', () => {
    const text = ['type,case,amount', 'D,C1,1.00', 'D,C2,2.00', 'D,C3,3.00', 'D,3'].join('\n');
    const guess = layoutOf(text);
    expect(guess?.layout).toEqual({ trailer: { lines: 1 } });
  });

  it('finds the trailer in the file’s last bytes when the head is not the whole file', () => {
    const head = ['id,v', ...rows(50, (index) => `${index},x`)].join('\n');
    const guess = findReportLayout({
      head,
      complete: false,
      tail: `7,x\n48,x\n49,x\nRecords: 50\n`,
      delimiter: ',',
      quote: '"',
    });
    expect(guess?.layout).toEqual({ trailer: { starts_with: 'Records:' } });
    expect(guess?.trailer).toMatchObject({ line: undefined, text: '"Records: 50"' });
  });

  it('quotes a title line with a card number in it masked', () => {
    const text = ['Statement for card 4111111111111111', 'id,v', '1,a', '2,b'].join('\n');
    const guess = layoutOf(text);
    expect(guess?.titleLines).toEqual(['"Statement for card 411111******1111"']);
  });
});
