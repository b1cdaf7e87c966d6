import { Transform, type TransformCallback } from 'node:stream';

/** A pass-through stream that counts the bytes flowing through it. */
export class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/** A pass-through stream that lets at most `limit` bytes through and drops the rest. */
export class ByteLimit extends Transform {
  private remaining: number;

  constructor(limit: number) {
    super();
    this.remaining = limit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const kept = chunk.subarray(0, Math.max(0, this.remaining));
    this.remaining -= kept.length;
    callback(null, kept.length > 0 ? kept : undefined);
  }
}
