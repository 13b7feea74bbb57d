import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InspectTransform } from './inspect.transform.ts';
import { assertValidKey, type ObjectStorage, type PutOptions, type PutResult } from './object-storage.ts';

/**
 * Objects as files under `root`. A write goes to a hidden temporary sibling and is renamed
 * into place only after the stream ended and the data was flushed, so an aborted or rejected
 * upload never leaves a file under its key.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  private path(key: string): string {
    assertValidKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const final = this.path(key);
    await mkdir(dirname(final), { recursive: true });
    const tmp = join(dirname(final), `.${randomBytes(8).toString('hex')}.partial`);
    const inspector = new InspectTransform(options.maxBytes, options.inspect);
    try {
      await pipeline(source, inspector, createWriteStream(tmp, { flags: 'wx', flush: true }));
      await rename(tmp, final);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      // Drain the rest of the request body so the connection can answer with the error.
      source.resume();
      throw e;
    }
    return { bytes: inspector.bytes, sha256: inspector.sha256 };
  }

  get(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const p = this.path(key);
    return new Promise((resolve, reject) => {
      const s = createReadStream(p, range ? { start: range.start, end: range.end } : {});
      s.once('open', () => resolve(s));
      s.once('error', reject);
    });
  }

  async size(key: string): Promise<number> {
    return (await stat(this.path(key))).size;
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.path(prefix), { recursive: true, force: true });
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const p = this.path(key);
    await stat(p);
    return fn(p);
  }
}
