import type { CsvEncoding } from './dialect.js';
import type { Confidence } from './confidence.js';
import { RefusalError } from '../errors/coded-error.js';

export interface EncodingGuess {
  readonly encoding: CsvEncoding;
  readonly confidence: Confidence;
  /** Why, in words: "a UTF-8 byte order mark", "bytes 0xE4 0xFC are not UTF-8; …". */
  readonly evidence: string;
}

/** A byte order mark of an encoding the reader cannot take: the command stops on it. */
export class UnsupportedEncodingError extends RefusalError {
  readonly code = 'CSV_ENCODING_UNSUPPORTED';
}

/**
 * The encoding of an export from its first bytes: a byte order mark decides; then UTF-16LE by its
 * zero bytes (ASCII text in UTF-16LE has a 0x00 after every character); then UTF-8 if the bytes are
 * valid UTF-8 (text in windows-1252 with any accented letter almost never is); else windows-1252,
 * what Excel on Windows writes.
 *
 * `complete` says the bytes are the whole file: otherwise a character cut at the end of `head`
 * is not held against UTF-8.
 */
export function sniffEncoding(head: Uint8Array, complete: boolean): EncodingGuess {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', confidence: 'high', evidence: 'a UTF-8 byte order mark' };
  if (head[0] === 0xff && head[1] === 0xfe)
    return { encoding: 'utf-16le', confidence: 'high', evidence: 'a UTF-16LE byte order mark' };
  if (head[0] === 0xfe && head[1] === 0xff)
    throw new UnsupportedEncodingError(
      'encoding: expected UTF-8, UTF-16LE, windows-1252 or latin1, got a UTF-16BE byte order mark (save the export as UTF-8)',
    );
  if (looksLikeUtf16Le(head))
    return {
      encoding: 'utf-16le',
      confidence: 'medium',
      evidence: 'no byte order mark, but a zero byte after most characters (UTF-16LE)',
    };

  const nonAscii = head.reduce((count, byte) => count + (byte >= 0x80 ? 1 : 0), 0);
  const utf8End = complete ? head.length : withoutCutCharacter(head);
  if (isValidUtf8(head.subarray(0, utf8End))) {
    if (nonAscii === 0)
      return {
        encoding: 'utf-8',
        confidence: 'medium',
        evidence: `only ASCII bytes in the first ${head.length} (UTF-8 and windows-1252 read them alike)`,
      };
    return { encoding: 'utf-8', confidence: 'high', evidence: `${nonAscii} non-ASCII bytes, all valid UTF-8` };
  }
  const examples = notUtf8Examples(head);
  return {
    encoding: 'windows-1252',
    confidence: 'medium',
    evidence: `bytes such as ${examples} are not UTF-8; windows-1252 reads them as ${describeWindows1252(head)}`,
  };
}

/** ASCII text in UTF-16LE: most odd bytes are zero, most even ones are not. */
function looksLikeUtf16Le(head: Uint8Array): boolean {
  const pairs = Math.floor(Math.min(head.length, 4096) / 2);
  if (pairs < 2) return false;
  let oddZeros = 0;
  let evenZeros = 0;
  for (let pair = 0; pair < pairs; pair++) {
    if (head[pair * 2] === 0) evenZeros++;
    if (head[pair * 2 + 1] === 0) oddZeros++;
  }
  return oddZeros >= pairs * 0.6 && evenZeros <= pairs * 0.1;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The length of `head` without a multi-byte UTF-8 sequence cut off at its end. */
function withoutCutCharacter(head: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= head.length; back++) {
    const byte = head[head.length - back] ?? 0;
    if (byte < 0x80) return head.length;
    // A lead byte: the sequence it starts needs this many bytes.
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needed > back ? head.length - back : head.length;
    }
  }
  return head.length;
}

/** Up to three distinct non-ASCII bytes, as 0xE4. */
function notUtf8Examples(head: Uint8Array): string {
  const seen = [...new Set(head.filter((byte) => byte >= 0x80))].slice(0, 3);
  return seen.map((byte) => `0x${byte.toString(16).toUpperCase()}`).join(' ');
}

function describeWindows1252(head: Uint8Array): string {
  // Decoded as a stream: Node's one-shot windows-1252 decode reads 0x80-0x9F as C1 controls (src/csv/decode.ts).
  const decoder = new TextDecoder('windows-1252');
  const characters = [...new Set(decoder.decode(head, { stream: true }) + decoder.decode())]
    .filter((character) => character.charCodeAt(0) >= 0x80)
    .slice(0, 5);
  return characters.map((character) => JSON.stringify(character)).join(' ');
}

/**
 * The encoding alone, for a reader that must not stop on it (the report telling a results file's
 * dialect): a byte order mark no reader takes is read as windows-1252, and the file is then
 * refused for its header, as any file not ours is.
 */
export function encodingOf(head: Uint8Array, complete: boolean): CsvEncoding {
  try {
    return sniffEncoding(head, complete).encoding;
  } catch (error) {
    if (error instanceof UnsupportedEncodingError) return 'windows-1252';
    throw error;
  }
}

/**
 * A sample's bytes as text, its byte order mark dropped; a character cut by the sample's end does
 * not count. Decoded as a stream: Node's one-shot windows-1252 decode reads 0x80-0x9F as C1
 * controls (src/csv/decode.ts), which would tell text from binary content wrongly.
 */
export function decodeSample(head: Uint8Array, encoding: CsvEncoding, complete: boolean): string {
  if (encoding === 'latin1') return Buffer.from(head).toString('latin1');
  const decoder = new TextDecoder(encoding);
  return decoder.decode(head, { stream: true }) + (complete ? decoder.decode() : '');
}
