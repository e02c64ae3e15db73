import { finished, type Readable } from 'node:stream';

/**
 * The objects a readable stream holds, all those buffered at once (at most `most`), else waiting
 * for more: Node's own async iterator, which hands them over one await at a time. Ends at the
 * stream's end, throws its error; the caller destroys the stream.
 */
export async function* bufferedBatches<T>(stream: Readable, most: number): AsyncGenerator<T[]> {
  let wake = (): void => undefined;
  const onReadable = (): void => {
    wake();
  };
  // undefined while the stream runs; null once it ended; its error if it failed.
  let ended: Error | null | undefined;
  stream.on('readable', onReadable);
  const stopWatching = finished(stream, { writable: false }, (error) => {
    ended = error ?? null;
    wake();
  });
  try {
    for (;;) {
      const batch: T[] = [];
      while (batch.length < most && !stream.destroyed) {
        const item = stream.read() as T | null;
        if (item === null) break;
        batch.push(item);
      }
      if (batch.length > 0) yield batch;
      else if (ended === null) return;
      else if (ended !== undefined) throw ended;
      else
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
    }
  } finally {
    stream.off('readable', onReadable);
    stopWatching();
  }
}
