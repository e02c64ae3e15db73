import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { describeContent, detectFileType, pdfHeaderWindowBytes } from '../../../src/files/sniff.js';
import { jpegBytes, pdfBytes, pngBytes } from './fixtures.js';

const bytesOf = (text: string) => Buffer.from(text, 'latin1');
/** A fresh, unpooled copy: pdf-lib reads a Uint8Array's buffer from offset 0. */
const unpooled = (bytes: Uint8Array) => new Uint8Array(bytes);

describe('the fixtures', () => {
  it('are real images: pdf-lib decodes the PNG and reads the JPEG frame header', async () => {
    const document = await PDFDocument.create();
    expect(await document.embedPng(unpooled(pngBytes()))).toMatchObject({ width: 1, height: 1 });
    expect(await document.embedJpg(unpooled(jpegBytes()))).toMatchObject({ width: 8, height: 8 });
  });
});

describe('detectFileType', () => {
  it.each([
    ['a PNG', pngBytes(), 'image/png'],
    ['a JPEG', jpegBytes(), 'image/jpeg'],
    ['a JPEG signature alone', Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg'],
  ])('knows %s', (_name, bytes, type) => {
    expect(detectFileType(bytes)).toBe(type);
  });

  it('knows a PDF, including one behind junk, up to the 1024-byte window', async () => {
    const pdf = await pdfBytes(1);
    expect(detectFileType(pdf)).toBe('application/pdf');
    expect(detectFileType(Buffer.concat([Buffer.alloc(300, 0x20), pdf]))).toBe('application/pdf');
    const lastStart = pdfHeaderWindowBytes - '%PDF-'.length;
    expect(detectFileType(Buffer.concat([Buffer.alloc(lastStart, 0x20), pdf]))).toBe('application/pdf');
    expect(detectFileType(Buffer.concat([Buffer.alloc(lastStart + 1, 0x20), pdf]))).toBeUndefined();
  });

  it('looks at the bytes a view covers, not the whole buffer behind it', () => {
    const buffer = Buffer.concat([bytesOf('%PDF-1.7 '), pngBytes()]);
    expect(detectFileType(buffer.subarray(9))).toBe('image/png');
    expect(detectFileType(buffer.subarray(1, 4))).toBeUndefined();
  });

  it.each([
    ['text', bytesOf('just some notes\n')],
    ['a GIF', bytesOf('GIF89a\x01\x00\x01\x00')],
    ['a cut PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['two bytes of JPEG', Buffer.from([0xff, 0xd8])],
    ['nothing', Buffer.alloc(0)],
    ['a lower-case pdf header', bytesOf('%pdf-1.4\n')],
  ])('refuses %s', (_name, bytes) => {
    expect(detectFileType(bytes)).toBeUndefined();
  });
});

describe('describeContent', () => {
  it('names text as text, UTF-8 included, even when the window cuts a character', () => {
    expect(describeContent(bytesOf('hello\r\n\tworld'))).toBe('text/plain-looking bytes');
    expect(describeContent(Buffer.from('résumé '.repeat(100), 'utf8'))).toBe('text/plain-looking bytes');
  });

  it('names anything else by its first bytes', () => {
    expect(describeContent(bytesOf('GIF89a\x01\x00\x01\x00'))).toBe('binary bytes starting 47 49 46 38 39 61 01 00');
    expect(describeContent(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe('binary bytes starting 50 4b 03 04 14');
  });
});
