import { Transform, type TransformCallback } from 'node:stream';
import type { CsvEncoding } from './dialect.js';

/**
 * Text back to the bytes of an input's encoding, so a file we write from an input (the results
 * CSV) reads back through the same dialect, so that it can be fixed and fed back in.
 */

/** windows-1252 bytes 0x80-0x9F that are not Latin-1, by code point. */
const windows1252Extras = new Map<number, number>([
  [0x20ac, 0x80],
  [0x201a, 0x82],
  [0x0192, 0x83],
  [0x201e, 0x84],
  [0x2026, 0x85],
  [0x2020, 0x86],
  [0x2021, 0x87],
  [0x02c6, 0x88],
  [0x2030, 0x89],
  [0x0160, 0x8a],
  [0x2039, 0x8b],
  [0x0152, 0x8c],
  [0x017d, 0x8e],
  [0x2018, 0x91],
  [0x2019, 0x92],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x2022, 0x95],
  [0x2013, 0x96],
  [0x2014, 0x97],
  [0x02dc, 0x98],
  [0x2122, 0x99],
  [0x0161, 0x9a],
  [0x203a, 0x9b],
  [0x0153, 0x9c],
  [0x017e, 0x9e],
  [0x0178, 0x9f],
]);
/** Bytes windows-1252 leaves undefined: decoders give them back as the C1 code point of the same value. */
const windows1252Undefined = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
const unrepresentable = 0x3f; // '?'

function singleByte(text: string, encoding: 'latin1' | 'windows-1252'): Buffer {
  const bytes: number[] = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? unrepresentable;
    if (encoding === 'latin1') bytes.push(codePoint <= 0xff ? codePoint : unrepresentable);
    else if (codePoint < 0x80 || (codePoint >= 0xa0 && codePoint <= 0xff) || windows1252Undefined.has(codePoint))
      bytes.push(codePoint);
    else bytes.push(windows1252Extras.get(codePoint) ?? unrepresentable);
  }
  return Buffer.from(bytes);
}

export function encodeText(text: string, encoding: CsvEncoding): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-16le':
      return Buffer.from(text, 'utf16le');
    case 'latin1':
    case 'windows-1252':
      return singleByte(text, encoding);
  }
}

/**
 * A Transform from text to bytes in `encoding`, starting with the encoding's byte order mark when
 * `byteOrderMark` is set (the input had one). Single-byte encodings have no mark.
 */
export function createEncoder(encoding: CsvEncoding, byteOrderMark: boolean): Transform {
  let started = false;
  const mark = byteOrderMark && (encoding === 'utf-8' || encoding === 'utf-16le') ? '\uFEFF' : '';
  return new Transform({
    decodeStrings: false,
    transform(chunk: string | Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const prefix = started ? '' : mark;
      started = true;
      callback(null, encodeText(prefix + chunk.toString(), encoding));
    },
  });
}
