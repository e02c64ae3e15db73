import { describe, expect, it } from 'vitest';
import { workbookLimits } from '../../src/workbook/parts/limits.js';
import { XmlBounds, type ItemBounds } from '../../src/workbook/parts/xml-bounds.js';

/** The XML as it streams, cut into chunks of `size` bytes (1: every boundary a chunk can fall on). */
function fed(xml: string, bounds: XmlBounds, size = 1): void {
  const bytes = Buffer.from(xml, 'utf8');
  for (let at = 0; at < bytes.length; at += size) bounds.check(bytes.subarray(at, at + size));
}

const rows: ItemBounds = { name: 'row', what: 'a row', bytes: 64, child: { name: 'c', most: 2, what: 'cells' } };
const strings: ItemBounds = { name: 'si', what: 'a string', bytes: 1_000, most: { count: 3, what: 'strings' } };
const run = workbookLimits.xmlRunBytes;

describe('the XML bounds of a workbook part', () => {
  it('passes a sheet within them, however it is cut', () => {
    const sheet =
      '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"/></row>' +
      '<row r="2"/><row r="3"><c r="A3" t="inlineStr"><is><t>a &amp; b</t></is></c></row></sheetData></worksheet>';
    for (const size of [1, 3, 7, 1024])
      expect(() => {
        fed(sheet, new XmlBounds('sheet.xml', { ...rows, bytes: 200 }), size);
      }).not.toThrow();
  });

  it('counts the cells of a row, each row afresh, a self-closing row closed where it opens', () => {
    const bounds = new XmlBounds('sheet.xml', rows);
    fed('<sheetData><row r="1"><c/><c/></row><row r="2"/><row r="3"><c/><col/><c/>', bounds);
    expect(() => {
      fed('<c/>', bounds);
    }).toThrow('workbook sheet.xml: expected a row of at most 2 cells, got more in a row 3');
  });

  it('bounds a row in bytes, the quotes of its tag read as quotes', () => {
    const bounds = new XmlBounds('sheet.xml', rows);
    fed('<row r="1" x="/>"><v>1</v></row>', bounds);
    expect(() => {
      fed(`<row r="2"><v>${'9'.repeat(60)}</v></row>`, bounds);
    }).toThrow('expected a row of at most 64 bytes as stored, got more in a row 2');
  });

  it('counts the strings of a table, and bounds each in bytes', () => {
    expect(() => {
      fed('<sst><si><t>a</t></si><si/><si><t>c</t></si><si><t>d</t></si></sst>', new XmlBounds('s.xml', strings));
    }).toThrow('workbook s.xml: expected at most 3 strings, got more');
    expect(() => {
      fed(
        `<sst><si><r><t>${'a'.repeat(600)}</t></r><r><t>${'b'.repeat(600)}</t></r></si></sst>`,
        new XmlBounds('s.xml', strings),
        64,
      );
    }).toThrow('expected a string of at most 1,000 bytes as stored, got more in a string 1');
  });

  it('bounds text between two tags, text split by comments or CDATA counting as one', () => {
    const piece = 'x'.repeat(run / 4);
    expect(() => {
      fed(`<v>${piece}</v>`.repeat(8), new XmlBounds('p.xml'), 65_536);
    }).not.toThrow();
    expect(() => {
      fed(`<v>${`${piece}<!-- < -->`.repeat(5)}</v>`, new XmlBounds('p.xml'), 65_536);
    }).toThrow('expected at most 1,048,576 bytes of text or markup between two tags');
    expect(() => {
      fed(`<v>${`${piece}<![CDATA[<v>]]]>`.repeat(5)}</v>`, new XmlBounds('p.xml'), 65_536);
    }).toThrow('between two tags');
  });

  it('reads a comment to its end, a tag inside it no tag', () => {
    const bounds = new XmlBounds('sheet.xml', rows);
    fed('<row r="1"><!-- <c/><c/><c/> ---><c/><?pi <c/> ??><c/></row>', bounds);
    expect(() => {
      fed('<row r="2"><c/><c/><c/></row>', bounds);
    }).toThrow('of at most 2 cells');
  });

  it('refuses a DTD, which saxes would hold whole and no Open XML part has', () => {
    expect(() => {
      fed('<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "b">]><sst/>', new XmlBounds('s.xml', strings));
    }).toThrow('workbook s.xml: expected no DTD or declaration (an Open XML part has none), got <!D');
  });
});
