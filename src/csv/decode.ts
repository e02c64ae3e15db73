import { Transform, type TransformCallback } from 'node:stream';
import type { CsvEncoding } from './dialect.js';
import { CsvFormatError } from './errors.js';
import { LineEndingProbe, type FileLayout } from './layout.js';

const utf8Bom = [0xef, 0xbb, 0xbf];
const utf16LeBom = [0xff, 0xfe];
const utf16BeBom = [0xfe, 0xff];
const longestBomBytes = 3;

function startsWith(head: Uint8Array, bom: readonly number[]): boolean {
  return bom.every((byte, position) => head[position] === byte);
}

/**
 * The byte order mark at the start of a file when it belongs to an encoding other than the declared
 * one: such a file is mis-declared, and decoding it anyway would put the mark's bytes into the
 * first header. A mark of the declared encoding is fine.
 */
export function foreignByteOrderMark(head: Uint8Array, encoding: CsvEncoding): string | undefined {
  if (encoding !== 'utf-8' && startsWith(head, utf8Bom)) return 'UTF-8';
  if (encoding !== 'utf-16le' && startsWith(head, utf16LeBom)) return 'UTF-16LE';
  if (startsWith(head, utf16BeBom)) return 'UTF-16BE';
  return undefined;
}

interface TextDecoding {
  /** Decodes the next chunk; bytes of a character split across chunks are held back. */
  write(chunk: Uint8Array): string;
  end(): string;
}

function openDecoding(encoding: CsvEncoding): TextDecoding {
  // ISO-8859-1 maps each byte to the code point of the same value, so chunks decode alone.
  // TextDecoder cannot do this: the Encoding Standard makes "latin1" a label of windows-1252.
  if (encoding === 'latin1') {
    return { write: (chunk) => Buffer.from(chunk).toString('latin1'), end: () => '' };
  }
  // `fatal` turns undecodable bytes into a run failure instead of silent U+FFFD. Always decoding
  // with `stream: true` also keeps windows-1252 off Node's one-shot latin1 fast path, which decodes
  // 0x80-0x9F as C1 controls (nodejs/node#60888, Node >= 20.18.3); the test pins the € mapping.
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
  return { write: (chunk) => decoder.decode(chunk, { stream: true }), end: () => decoder.decode() };
}

/** Whether the file starts with the byte order mark of its own encoding (which decoding strips). */
function ownByteOrderMark(head: Uint8Array, encoding: CsvEncoding): boolean {
  if (encoding === 'utf-8') return startsWith(head, utf8Bom);
  if (encoding === 'utf-16le') return startsWith(head, utf16LeBom);
  return false;
}

/** Told once what the file's bytes say beyond the dialect: its line ending and BOM. */
export interface LayoutObserver {
  /** The dialect's quote: line breaks inside quotes do not end the first record. */
  readonly quote: string;
  readonly onLayout: (layout: FileLayout) => void;
}

/**
 * A Transform from bytes in `encoding` to UTF-8 bytes without a byte order mark, for csv-parse.
 * Characters and the BOM may be split across input chunks. With an observer, it reports whether
 * the file started with a BOM and how its first record ends, as soon as it has seen that end.
 */
export function createDecoder(encoding: CsvEncoding, observer?: LayoutObserver): Transform {
  const decoding = openDecoding(encoding);
  let head: Buffer | undefined = Buffer.alloc(0);
  let linesDecoded = 0;
  let byteOrderMark = false;
  const probe = observer === undefined ? undefined : new LineEndingProbe(observer.quote);
  let reported = observer === undefined;
  const report = (atEnd: boolean) => {
    if (reported || probe === undefined) return;
    const lineEnding = probe.lineEnding ?? (atEnd ? '\n' : undefined);
    if (lineEnding === undefined) return;
    reported = true;
    observer?.onLayout({ lineEnding, byteOrderMark });
  };

  // The line of the first undecodable byte in the failing chunk: decode it leniently, find U+FFFD.
  const decodeFailure = (cause: unknown, chunk: Uint8Array): CsvFormatError => {
    const lenient = new TextDecoder(encoding).decode(chunk);
    const before = lenient.slice(0, Math.max(0, lenient.indexOf('\uFFFD')));
    const line = linesDecoded + before.split('\n').length;
    return new CsvFormatError(
      'csv_encoding',
      line,
      `encoding: expected valid ${encoding} bytes, got bytes that are not`,
      { cause },
    );
  };

  const emit = (transform: Transform, text: string): void => {
    linesDecoded += text.split('\n').length - 1;
    if (!reported) {
      probe?.scan(text);
      report(false);
    }
    if (text.length > 0) transform.push(Buffer.from(text, 'utf8'));
  };

  const decodeHead = (transform: Transform, flushing: boolean): void => {
    if (head === undefined || (head.length < longestBomBytes && !flushing)) return;
    const foreign = foreignByteOrderMark(head, encoding);
    if (foreign !== undefined) {
      throw new CsvFormatError(
        'csv_encoding',
        1,
        `encoding: expected ${encoding} as declared in the dialect, got a file starting with a ${foreign} byte order mark`,
      );
    }
    const bytes = head;
    byteOrderMark = ownByteOrderMark(bytes, encoding);
    head = undefined;
    emit(transform, decoding.write(bytes));
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      try {
        if (head !== undefined) {
          head = Buffer.concat([head, chunk]);
          decodeHead(this, false);
        } else {
          emit(this, decoding.write(chunk));
        }
        callback();
      } catch (error) {
        callback(error instanceof CsvFormatError ? error : decodeFailure(error, head ?? chunk));
      }
    },
    flush(callback: TransformCallback) {
      try {
        decodeHead(this, true);
        emit(this, decoding.end());
        report(true);
        callback();
      } catch (error) {
        callback(error instanceof CsvFormatError ? error : decodeFailure(error, head ?? new Uint8Array()));
      }
    },
  });
}
