import { pipeline, Transform, type TransformCallback } from 'node:stream';
import type { ByteSource, CountedReadable } from '../files/byte-source.js';
import { formatObjectAddress } from './object-address.js';
import type { ObjectIdentity, ObjectStore } from './object-store.js';

/** Passes bytes on as they are, counting them. */
class ByteCounter extends Transform {
  bytesRead = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytesRead += chunk.length;
    done(null, chunk);
  }
}

/**
 * An object as an input's bytes: every read a GET of the object `identity` names (`If-Match`, so
 * that an object replaced since the plan identified it is refused, not read half old, half new),
 * streamed as it is pulled and never held whole; a part of it (a header, a workbook's part) a
 * ranged GET of that part alone.
 */
export function objectSource(store: ObjectStore, identity: ObjectIdentity): ByteSource {
  const open = async (range?: { start: number; end: number }): Promise<CountedReadable> => {
    const body = await store.open(identity, range);
    const counter = new ByteCounter();
    // Either end destroyed or failing ends the other: a reader that stops early closes the GET.
    return pipeline(body, counter, () => undefined);
  };
  return {
    name: formatObjectAddress(identity),
    object: identity,
    size: async () => identity.size,
    open,
    read: async (offset, length) => {
      // A range past the end is one a store refuses (416): there is nothing there to ask for.
      const end = Math.min(offset + length, identity.size) - 1;
      if (end < offset) return Buffer.alloc(0);
      const chunks: Buffer[] = [];
      for await (const chunk of await open({ start: offset, end })) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}
