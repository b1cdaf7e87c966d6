import { pipeline, Transform, type Readable } from 'node:stream';

/**
 * The same bytes, with `atEnd` run once the last of them passed and before the stream ends, so
 * whoever waits for the end sees what it did. A source that fails or is abandoned half-way never
 * runs it; a failure of `atEnd` fails the stream, so callers that must not fail catch their own.
 */
export function runAtEnd(source: Readable, atEnd: () => Promise<void>): Readable {
  const tail = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk);
    },
    flush(callback) {
      atEnd().then(() => callback(), callback);
    },
  });
  return pipeline(source, tail, () => undefined);
}
