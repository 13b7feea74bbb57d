import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InspectTransform } from './inspect.transform.ts';
import { assertValidKey, type ObjectStorage, type PutOptions, type PutResult } from './object-storage.ts';
import { EMPTY_SHA256, signRequest, toAmzDate, uriEncode } from './sigv4.ts';

export interface S3Config {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000 (path-style URLs are used). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key (no leading/trailing slash needed). */
  prefix: string;
}

/** A single PUT accepts at most 5 GiB; larger objects need multipart upload (not implemented). */
export const S3_SINGLE_PUT_LIMIT = 5 * 1024 ** 3;

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
  if (problems.length > 0) {
    throw new Error(
      `S3-compatible upload storage is misconfigured (S3_ENDPOINT is set): ${problems.join('; ')}. ` +
        'Required: S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY; optional: S3_REGION (default us-east-1), S3_PREFIX.',
    );
  }
  return {
    endpoint: endpoint.replace(/\/+$/, ''),
    bucket,
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID!.trim(),
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!.trim(),
    prefix,
  };
}

/** A non-success answer from the store. */
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

interface SendOptions {
  method: 'GET' | 'PUT' | 'DELETE' | 'HEAD';
  /** Full object key (prefix applied), or '' for the bucket. */
  key: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Body as a file (PUT). */
  bodyFile?: { path: string; size: number; sha256: string };
}

/**
 * Objects in an S3-compatible bucket (path-style URLs, SigV4). An upload is first streamed to a
 * temporary file under `tmpDir` through the same inspection/size limit as local storage, then sent
 * with one signed PUT (payload SHA-256 signed, so the store verifies integrity); the object
 * appears under its key only once the PUT succeeds. Objects larger than 5 GiB (the single-PUT
 * limit) are rejected: multipart upload is not implemented.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly base: URL;

  constructor(
    readonly config: S3Config,
    /** Local scratch directory for uploads and downloads (e.g. RARELENS_DATA_DIR/tmp). */
    readonly tmpDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.base = new URL(config.endpoint);
  }

  private fullKey(key: string): string {
    assertValidKey(key);
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  private async tmpPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true });
    return join(this.tmpDir, `.s3-${randomBytes(8).toString('hex')}.partial`);
  }

  /** Sends one signed request; resolves with the response (body unread) whatever its status. */
  private send(opts: SendOptions): Promise<IncomingMessage> {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const path = `${basePath}/${uriEncode(this.config.bucket)}${opts.key ? '/' + uriEncode(opts.key, false) : ''}`;
    const amzDate = toAmzDate(this.now());
    const payloadHash = opts.bodyFile?.sha256 ?? EMPTY_SHA256;
    const headers: Record<string, string> = {
      host: this.base.host,
      'x-amz-date': amzDate,
      'x-amz-content-sha256': payloadHash,
      ...opts.headers,
    };
    if (opts.bodyFile) headers['content-length'] = String(opts.bodyFile.size);
    const { authorization } = signRequest(
      { method: opts.method, path, query: opts.query, headers, payloadHash },
      { region: this.config.region, service: 's3', amzDate },
      this.config,
    );
    const qs = opts.query
      ? '?' +
        Object.entries(opts.query)
          .map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`)
          .join('&')
      : '';
    const outHeaders: OutgoingHttpHeaders = { ...headers, authorization };
    const request = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname.replace(/^\[|\]$/g, ''),
          port: this.base.port || undefined,
          method: opts.method,
          path: path + qs,
          headers: outHeaders,
        },
        resolve,
      );
      req.once('error', reject);
      if (opts.bodyFile) {
        const body = createReadStream(opts.bodyFile.path);
        body.once('error', (e) => req.destroy(e));
        body.pipe(req);
      } else req.end();
    });
  }

  private async fail(res: IncomingMessage, method: string, key: string): Promise<never> {
    let text = '';
    if (method !== 'HEAD') {
      for await (const c of res) {
        if (text.length < 4096) text += String(c);
      }
    } else res.resume();
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
    throw new S3Error(res.statusCode ?? 0, code, method, key, message);
  }

  private async expectOk(res: IncomingMessage, method: string, key: string, ok: number[] = [200]): Promise<void> {
    if (!ok.includes(res.statusCode ?? 0)) await this.fail(res, method, key);
    res.resume();
    await new Promise<void>((resolve, reject) => {
      if (res.readableEnded) resolve();
      res.once('end', resolve);
      res.once('error', reject);
    });
  }

  async put(key: string, source: Readable, options: PutOptions = {}): Promise<PutResult> {
    const full = this.fullKey(key);
    const limit = Math.min(options.maxBytes ?? S3_SINGLE_PUT_LIMIT, S3_SINGLE_PUT_LIMIT);
    const inspector = new InspectTransform(limit, options.inspect);
    const tmp = await this.tmpPath();
    try {
      try {
        await pipeline(source, inspector, createWriteStream(tmp, { flags: 'wx' }));
      } catch (e) {
        // Drain the rest of the request body so the connection can answer with the error.
        source.resume();
        throw e;
      }
      const result = { bytes: inspector.bytes, sha256: inspector.sha256 };
      try {
        const res = await this.send({
          method: 'PUT',
          key: full,
          headers: { 'content-type': 'application/octet-stream' },
          bodyFile: { path: tmp, size: result.bytes, sha256: result.sha256 },
        });
        await this.expectOk(res, 'PUT', full);
      } catch (e) {
        // A PUT that failed mid-way may still have been committed by the store: remove it.
        await this.delete(key).catch(() => undefined);
        throw e;
      }
      return result;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async get(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const full = this.fullKey(key);
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ''}`;
    const res = await this.send({ method: 'GET', key: full, headers });
    if (res.statusCode !== 200 && res.statusCode !== 206) await this.fail(res, 'GET', full);
    return res;
  }

  async size(key: string): Promise<number> {
    const full = this.fullKey(key);
    const res = await this.send({ method: 'HEAD', key: full });
    if (res.statusCode !== 200) await this.fail(res, 'HEAD', full);
    res.resume();
    const n = Number(res.headers['content-length']);
    if (!Number.isSafeInteger(n)) throw new S3Error(res.statusCode ?? 0, undefined, 'HEAD', full, 'no Content-Length in the answer');
    return n;
  }

  async delete(key: string): Promise<void> {
    const full = this.fullKey(key);
    const res = await this.send({ method: 'DELETE', key: full });
    await this.expectOk(res, 'DELETE', full, [200, 204, 404]);
  }

  /** Lists keys (relative to S3_PREFIX) under `prefix/` with ListObjectsV2, following continuation tokens. */
  async list(prefix: string): Promise<string[]> {
    const fullPrefix = this.fullKey(prefix) + '/';
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix: fullPrefix };
      if (token) query['continuation-token'] = token;
      const res = await this.send({ method: 'GET', key: '', query });
      if (res.statusCode !== 200) await this.fail(res, 'LIST', fullPrefix);
      let xml = '';
      for await (const c of res) xml += String(c);
      for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
        const k = decodeXml(m[1]!);
        keys.push(this.config.prefix ? k.slice(this.config.prefix.length + 1) : k);
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? decodeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '')
        : undefined;
    } while (token);
    return keys;
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const k of await this.list(prefix)) await this.delete(k);
  }

  async withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T> {
    const tmp = await this.tmpPath();
    try {
      await pipeline(await this.get(key), createWriteStream(tmp, { flags: 'wx' }));
      await stat(tmp);
      return await fn(tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g, (all, name: string, dec?: string, hex?: string) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[name] ?? all;
  });
}
