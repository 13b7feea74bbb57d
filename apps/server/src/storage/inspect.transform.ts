import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { ObjectTooLargeError } from './object-storage.ts';
import { SNIFF_BYTES } from './content-type.ts';

/**
 * Pass-through that counts and hashes the bytes, enforces the size limit, and holds back the
 * first SNIFF_BYTES until `inspect` has accepted them, so a rejected file writes nothing useful.
 */
export class InspectTransform extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inspected = false;

  constructor(
    private readonly maxBytes: number | undefined,
    private readonly inspect: ((sample: Buffer) => void) | undefined,
  ) {
    super();
  }

  private digest: string | null = null;

  /** Hex SHA-256 of everything that passed; valid once the stream has finished. */
  get sha256(): string {
    this.digest ??= this.hash.digest('hex');
    return this.digest;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.maxBytes != null && this.bytes > this.maxBytes) {
      cb(new ObjectTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    if (this.inspected) {
      cb(null, chunk);
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= SNIFF_BYTES) this.release(cb);
    else cb();
  }

  override _flush(cb: TransformCallback): void {
    if (!this.inspected) this.release(cb);
    else cb();
  }

  private release(cb: TransformCallback): void {
    const sample = Buffer.concat(this.pending);
    this.pending = [];
    this.inspected = true;
    try {
      this.inspect?.(sample);
    } catch (e) {
      cb(e as Error);
      return;
    }
    cb(null, sample);
  }
}
