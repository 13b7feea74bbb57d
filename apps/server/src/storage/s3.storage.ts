import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { InspectTransform } from './inspect.transform.ts';
import { assertValidKey, type ObjectStorage, type PutOptions, type PutResult } from './object-storage.ts';

export interface S3Config {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (path-style URLs are used). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key (no leading/trailing slash needed). */
  prefix: string;
  /** Multipart part size in bytes (S3 minimum 5 MiB); S3_PART_SIZE_MB, default 8. */
  partSize?: number;
  /** Parts uploaded in parallel per file; S3_UPLOAD_CONCURRENCY, default 4. */
  queueSize?: number;
}

export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;
export const S3_DEFAULT_PART_SIZE = 8 * 1024 * 1024;
export const S3_DEFAULT_QUEUE_SIZE = 4;

/** Reads S3_* settings; throws one readable error naming everything missing or invalid. */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3Config {
  const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((k) => !env[k]?.trim());
  const problems = missing.map((k) => `${k} is not set`);
  const endpoint = env.S3_ENDPOINT?.trim() ?? '';
  if (endpoint) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      problems.push(`S3_ENDPOINT must be an http(s) URL, got ${JSON.stringify(endpoint)}`);
    else if (url.search || url.hash) problems.push('S3_ENDPOINT must not carry a query string or fragment');
  }
  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    problems.push(`S3_BUCKET ${JSON.stringify(bucket)} is not a valid bucket name (3-63 of a-z 0-9 . -)`);
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (prefix) {
    try {
      assertValidKey(prefix);
    } catch {
      problems.push(`S3_PREFIX ${JSON.stringify(prefix)} must be '/'-separated segments of A-Z a-z 0-9 . _ -`);
    }
  }
  const partMb = env.S3_PART_SIZE_MB?.trim();
  if (partMb && !(/^\d+$/.test(partMb) && Number(partMb) >= 5 && Number(partMb) <= 5120))
    problems.push(`S3_PART_SIZE_MB must be a whole number of MiB from 5 to 5120, got ${JSON.stringify(partMb)}`);
  const conc = env.S3_UPLOAD_CONCURRENCY?.trim();
  if (conc && !(/^\d+$/.test(conc) && Number(conc) >= 1 && Number(conc) <= 64))
    problems.push(`S3_UPLOAD_CONCURRENCY must be a whole number from 1 to 64, got ${JSON.stringify(conc)}`);
  if (problems.length > 0) {
    throw new Error(
      `S3-compatible upload storage is misconfigured (S3_ENDPOINT is set): ${problems.join('; ')}. ` +
        'Required: S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY; optional: S3_REGION (default us-east-1), S3_PREFIX, ' +
        'S3_PART_SIZE_MB (default 8), S3_UPLOAD_CONCURRENCY (default 4).',
    );
  }
  return {
    endpoint: endpoint.replace(/\/+$/, ''),
    bucket,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID!.trim(),
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!.trim(),
    prefix,
    partSize: partMb ? Number(partMb) * 1024 * 1024 : S3_DEFAULT_PART_SIZE,
    queueSize: conc ? Number(conc) : S3_DEFAULT_QUEUE_SIZE,
  };
}

/** A non-success answer from the store, with the operation and key named. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly s3Code: string | undefined,
    method: string,
    key: string,
    detail: string,
  ) {
    super(`S3 ${method} ${key} failed: HTTP ${status}${s3Code ? ` ${s3Code}` : ''}${detail ? ` — ${detail}` : ''}`);
    this.name = 'S3Error';
    // Lets callers treat a missing object like a missing local file.
    if (status === 404) (this as { code?: string }).code = 'ENOENT';
  }
}

/** Re-throws an SDK service error as an S3Error naming the operation and key; other errors pass through. */
function wrap(e: unknown, method: string, key: string): never {
  if (e instanceof S3ServiceException) {
    const status = e.$metadata.httpStatusCode ?? 0;
    throw new S3Error(status, e.name, method, key, e.message && e.message !== e.name && e.message !== 'UnknownError' ? e.message : '');
  }
  throw e;
}

/**
 * Objects in an S3-compatible bucket through the AWS SDK (path-style URLs, so MinIO/Ceph/s3rver
 * work as well as AWS). An upload streams from the request through the same inspection/size
 * limit as local storage straight into `@aws-sdk/lib-storage`'s managed upload: one PUT for a
 * file smaller than a part, otherwise a multipart upload with `queueSize` parts in flight. The
 * object appears under its key only when the upload completes; on any failure (rejected content,
 * size limit, client abort, store error) the multipart upload is aborted so no parts remain, and
 * the key is deleted in case the store committed it before the failure was seen.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;

  constructor(
    readonly config: S3Config,
    /** Local scratch directory for downloads handed to the worker (e.g. RARELENS_DATA_DIR/tmp). */
    readonly tmpDir: string,
  ) {
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Only send/verify the flexible checksums when an operation requires them: S3-compatible
      // stores (MinIO releases, Ceph, s3rver) differ in their support for the newer headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private fullKey(key: string): string {
    assertValidKey(key);
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  async put(key: string, source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const full = this.fullKey(key);
    const inspector = new InspectTransform(options.maxBytes, options.inspect);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.config.bucket, Key: full, Body: inspector, ContentType: 'application/octet-stream' },
      partSize: Math.max(this.config.partSize ?? S3_DEFAULT_PART_SIZE, S3_MIN_PART_SIZE),
      queueSize: this.config.queueSize ?? S3_DEFAULT_QUEUE_SIZE,
      leavePartsOnError: false,
    });
    // Both sides run together: the request body is piped through the inspector while the
    // managed upload reads parts from it. A failure on either side fails the other.
    const feeding = pipeline(source, inspector);
    const [fed, sent] = await Promise.allSettled([feeding, upload.done()]);
    if (fed.status === 'rejected' || sent.status === 'rejected') {
      // Drain the rest of the request body so the connection can answer with the error.
      source.resume();
      // A PUT/CompleteMultipartUpload whose answer was lost may still have committed the object.
      await this.delete(key).catch(() => undefined);
      // When the store fails, the managed upload stops reading and the feeding side only sees
      // an abort: the store's error is the cause to report.
      const storeFailed = sent.status === 'rejected' && fed.status === 'rejected' && (fed.reason as { code?: string }).code === 'ABORT_ERR';
      if (fed.status === 'rejected' && !storeFailed) throw fed.reason;
      wrap((sent as PromiseRejectedResult).reason, 'PUT', full);
    }
    return { bytes: inspector.bytes, sha256: inspector.sha256 };
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const full = this.fullKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: full,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      if (!(res.Body instanceof Readable)) throw new S3Error(0, undefined, 'GET', full, 'the answer has no readable body');
      return res.Body;
    } catch (e) {
      return wrap(e, 'GET', full);
    }
  }

  async size(key: string): Promise<number> {
    const full = this.fullKey(key);
    let n: number | undefined;
    try {
      n = (await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: full }))).ContentLength;
    } catch (e) {
      wrap(e, 'HEAD', full);
    }
    if (n == null || !Number.isSafeInteger(n)) throw new S3Error(200, undefined, 'HEAD', full, 'no Content-Length in the answer');
    return n;
  }

  async delete(key: string): Promise<void> {
    const full = this.fullKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: full }));
    } catch (e) {
      if (e instanceof S3ServiceException && e.$metadata.httpStatusCode === 404) return;
      wrap(e, 'DELETE', full);
    }
  }

  /** Lists keys (relative to S3_PREFIX) under `prefix/` with ListObjectsV2, following continuation tokens. */
  async list(prefix: string): Promise<string[]> {
    const fullPrefix = this.fullKey(prefix) + '/';
    const keys: string[] = [];
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: fullPrefix, ContinuationToken: token }),
        );
      } catch (e) {
        wrap(e, 'LIST', fullPrefix);
      }
      for (const o of page.Contents ?? []) {
        if (o.Key) keys.push(this.config.prefix ? o.Key.slice(this.config.prefix.length + 1) : o.Key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** Deletes every object under `prefix/` (case removal), up to 1000 keys per DeleteObjects call. */
  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.list(prefix);
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((k) => ({ Key: this.fullKey(k) }));
      let res;
      try {
        res = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: batch, Quiet: true } }),
        );
      } catch (e) {
        wrap(e, 'DELETE', `${prefix}/`);
      }
      const failed = res.Errors ?? [];
      if (failed.length > 0)
        throw new S3Error(200, failed[0]!.Code, 'DELETE', failed[0]!.Key ?? prefix, `${failed.length} object(s) not deleted: ${failed[0]!.Message ?? ''}`);
    }
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, `.s3-${randomBytes(8).toString('hex')}.partial`);
    try {
      await pipeline(await this.get(key), createWriteStream(tmp, { flags: 'wx' }));
      return await fn(tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Closes the SDK's connection pool. */
  close(): void {
    this.client.destroy();
  }
}
