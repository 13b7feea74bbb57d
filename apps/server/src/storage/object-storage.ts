/**
 * Where uploaded originals live. Objects are written from a stream (never buffered whole),
 * appear under their key only once fully written, and are kept for re-analysis.
 */
import type { Readable } from 'node:stream';

export interface PutResult {
  bytes: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
}

export interface PutOptions {
  /** Reject (and discard) the object when it grows past this many bytes. */
  maxBytes?: number;
  /**
   * Called once with the first bytes (up to SNIFF_BYTES, or all of a smaller file) before
   * anything is committed; throwing rejects the upload.
   */
  inspect?: (sample: Buffer) => void;
}

export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, source: Readable, options?: PutOptions): Promise<PutResult>;
  /** A readable stream of the object; `end` is inclusive (HTTP Range semantics). */
  get(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Runs `fn` with a local filesystem path holding the object (the stored file itself for local
   * storage; a temporary download for remote storage, removed afterwards).
   */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
}

/** The upload grew past the configured limit. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than the upload limit of ${formatBytes(maxBytes)}`);
    this.name = 'ObjectTooLargeError';
  }
}

/** Human-readable byte size (binary units). */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[u]}`;
}

/** Keys are '/'-separated segments of [A-Za-z0-9._-]; anything else could escape the root. */
export function assertValidKey(key: string): void {
  const ok = key.split('/').every((seg) => /^[A-Za-z0-9._-]+$/.test(seg) && seg !== '.' && seg !== '..');
  if (!ok) throw new RangeError(`invalid storage key: ${JSON.stringify(key)}`);
}
