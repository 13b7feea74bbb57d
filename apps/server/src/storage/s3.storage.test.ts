import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sniffGenome, SNIFF_BYTES } from './content-type.ts';
import { ObjectTooLargeError } from './object-storage.ts';
import { s3ConfigFromEnv, S3Error, S3Storage, type S3Config } from './s3.storage.ts';
import { parseAuthorization, signRequest } from './sigv4.ts';
import { createStorage } from './storage.factory.ts';

const ACCESS = 'AKIDTESTSTUB';
const SECRET = 'stub/secret+key';

/** A minimal S3 stub: verifies SigV4 by recomputing it with SECRET, keeps objects in memory. */
class S3Stub {
  objects = new Map<string, Buffer>();
  requests: string[] = [];
  rejected = 0;
  /** When set, a PUT stores the object and then answers 500 (a commit the client never hears of). */
  failPutAfterStore = false;
  server: Server = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private error(res: ServerResponse, status: number, code: string): void {
    res.writeHead(status, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${code} from stub</Message></Error>`);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const [rawPath = '', rawQuery = ''] = (req.url ?? '').split('?');
    const method = req.method ?? '';
    this.requests.push(`${method} ${rawPath}${rawQuery ? '?' + rawQuery : ''}`);

    const auth = parseAuthorization(String(req.headers.authorization ?? ''));
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    if (!auth || auth.accessKeyId !== ACCESS || auth.service !== 's3' || !amzDate.startsWith(auth.day)) {
      this.rejected++;
      return this.error(res, 403, 'AccessDenied');
    }
    const signed: Record<string, string> = {};
    for (const h of auth.signedHeaders) signed[h] = String(req.headers[h] ?? '');
    const query = Object.fromEntries(new URLSearchParams(rawQuery));
    const expected = signRequest(
      { method, path: rawPath, query: rawQuery ? query : undefined, headers: signed, payloadHash },
      { region: auth.region, service: 's3', amzDate },
      { accessKeyId: ACCESS, secretAccessKey: SECRET },
    );
    if (expected.signature !== auth.signature || !auth.signedHeaders.includes('host')) {
      this.rejected++;
      return this.error(res, 403, 'SignatureDoesNotMatch');
    }
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && createHash('sha256').update(body).digest('hex') !== payloadHash)
      return this.error(res, 400, 'XAmzContentSHA256Mismatch');

    const [, bucket = '', ...rest] = rawPath.split('/');
    if (bucket !== 'rl-bucket') return this.error(res, 404, 'NoSuchBucket');
    const key = decodeURIComponent(rest.join('/'));

    if (!key && method === 'GET' && query['list-type'] === '2') {
      const all = [...this.objects.keys()].filter((k) => k.startsWith(query.prefix ?? '')).sort();
      const start = query['continuation-token'] ? Number(query['continuation-token']) : 0;
      const page = all.slice(start, start + 2); // tiny pages to exercise continuation
      const truncated = start + 2 < all.length;
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><ListBucketResult><IsTruncated>${truncated}</IsTruncated>` +
          page.map((k) => `<Contents><Key>${k}</Key></Contents>`).join('') +
          (truncated ? `<NextContinuationToken>${start + 2}</NextContinuationToken>` : '') +
          '</ListBucketResult>',
      );
      return;
    }
    if (method === 'PUT') {
      if (Number(req.headers['content-length']) !== body.length) return this.error(res, 400, 'IncompleteBody');
      this.objects.set(key, body);
      if (this.failPutAfterStore) return this.error(res, 500, 'InternalError');
      res.writeHead(200).end();
      return;
    }
    if (method === 'DELETE') {
      this.objects.delete(key);
      res.writeHead(204).end();
      return;
    }
    const obj = this.objects.get(key);
    if (!obj) return this.error(res, 404, 'NoSuchKey');
    if (method === 'HEAD') {
      res.writeHead(200, { 'content-length': obj.length }).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range) {
      const s = Number(range[1]);
      const e = range[2] ? Math.min(Number(range[2]), obj.length - 1) : obj.length - 1;
      res.writeHead(206, { 'content-range': `bytes ${s}-${e}/${obj.length}` });
      res.end(obj.subarray(s, e + 1));
      return;
    }
    res.writeHead(200, { 'content-length': obj.length });
    res.end(obj);
  }
}

function chunks(parts: (string | Buffer)[], failAfter?: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (failAfter != null && i === failAfter) {
        this.destroy(new Error('client aborted'));
        return;
      }
      const p = parts[i++];
      this.push(p == null ? null : Buffer.from(p));
    },
  });
}

async function text(r: Readable): Promise<string> {
  let s = '';
  for await (const c of r) s += String(c);
  return s;
}

let stub: S3Stub;
let dir: string;
let config: S3Config;
beforeEach(async () => {
  stub = new S3Stub();
  const endpoint = await stub.start();
  dir = await mkdtemp(join(tmpdir(), 'rl-s3-'));
  config = { endpoint, bucket: 'rl-bucket', region: 'eu-central-1', accessKeyId: ACCESS, secretAccessKey: SECRET, prefix: 'rarelens' };
});
afterEach(async () => {
  await stub.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('S3Storage against an in-process S3 stub', () => {
  it('puts, reads (whole and ranged), sizes, and deletes with signed requests', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    const body = '##fileformat=VCFv4.2\n' + 'x'.repeat(SNIFF_BYTES * 2);
    const res = await s.put('products/p1/genome', chunks([body.slice(0, 10), body.slice(10)]), {
      inspect: (b) => void sniffGenome(b, 'g.vcf'),
    });
    expect(res.bytes).toBe(body.length);
    expect(res.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(stub.objects.get('rarelens/products/p1/genome')?.toString()).toBe(body);
    expect(stub.requests).toContain('PUT /rl-bucket/rarelens/products/p1/genome');
    expect(await text(await s.get('products/p1/genome'))).toBe(body);
    expect(await text(await s.get('products/p1/genome', { start: 2, end: 11 }))).toBe('fileformat');
    expect(await text(await s.get('products/p1/genome', { start: body.length - 3 }))).toBe('xxx');
    expect(await s.size('products/p1/genome')).toBe(body.length);
    const viaFile = await s.withLocalFile('products/p1/genome', async (p) => readFile(p, 'utf8'));
    expect(viaFile).toBe(body);
    await s.delete('products/p1/genome');
    expect(stub.objects.size).toBe(0);
    await expect(s.size('products/p1/genome')).rejects.toMatchObject({ status: 404, code: 'ENOENT' });
    await expect(s.get('products/p1/genome')).rejects.toThrow(/NoSuchKey/);
    expect(stub.rejected).toBe(0);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('deletes by prefix across paginated listings and only under the prefix', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    for (const k of ['a', 'b', 'c', 'd', 'e']) await s.put(`products/p2/${k}`, chunks([k]));
    await s.put('products/p20/keep', chunks(['keep']));
    expect((await s.list('products/p2')).sort()).toEqual(['a', 'b', 'c', 'd', 'e'].map((k) => `products/p2/${k}`));
    await s.deletePrefix('products/p2');
    expect([...stub.objects.keys()]).toEqual(['rarelens/products/p20/keep']);
  });

  it('rejects an upload over the size limit and stores nothing', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    await expect(s.put('p3/genome', chunks(['a'.repeat(600), 'b'.repeat(600)]), { maxBytes: 1000 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(stub.objects.size).toBe(0);
    expect(stub.requests.filter((r) => r.startsWith('PUT'))).toEqual([]);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('rejects content that fails inspection and a client abort, storing nothing', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    await expect(s.put('p4/genome', chunks(['not a vcf\n']), { inspect: (b) => void sniffGenome(b, 'g.vcf') })).rejects.toThrow(
      /not a VCF/,
    );
    const big = 'z'.repeat(SNIFF_BYTES + 10);
    await expect(s.put('p4/genome', chunks([big, big], 1))).rejects.toThrow(/aborted/);
    expect(stub.objects.size).toBe(0);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('removes the object when the PUT fails after the store committed it', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    stub.failPutAfterStore = true;
    await expect(s.put('p5/genome', chunks(['payload']))).rejects.toThrow(/HTTP 500 InternalError/);
    expect(stub.objects.size).toBe(0);
    expect(stub.requests).toEqual(['PUT /rl-bucket/rarelens/p5/genome', 'DELETE /rl-bucket/rarelens/p5/genome']);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
  });

  it('surfaces a signature rejected by the store (wrong secret)', async () => {
    const s = new S3Storage({ ...config, secretAccessKey: 'wrong' }, join(dir, 'tmp'));
    const err: unknown = await s.put('p6/genome', chunks(['x'])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3Error);
    expect(String(err)).toMatch(/HTTP 403 SignatureDoesNotMatch/);
    expect(stub.objects.size).toBe(0);
  });

  it('refuses keys that could escape the prefix', async () => {
    const s = new S3Storage(config, join(dir, 'tmp'));
    await expect(s.put('../evil', chunks(['x']))).rejects.toBeInstanceOf(RangeError);
  });
});

describe('S3 configuration', () => {
  it('lists every missing variable in one readable error', () => {
    expect(() => s3ConfigFromEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_BUCKET is not set; S3_ACCESS_KEY_ID is not set; S3_SECRET_ACCESS_KEY is not set/,
    );
    expect(() => createStorage({ dataDir: dir, s3Endpoint: 'ftp://x', env: { S3_BUCKET: 'Bad_Bucket' } })).toThrow(
      /S3_ENDPOINT must be an http\(s\) URL.*S3_BUCKET "Bad_Bucket" is not a valid bucket name/,
    );
  });

  it('defaults the region, trims the prefix, and builds an S3 store from the factory', () => {
    const env = { S3_ENDPOINT: 'http://minio:9000/', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: '/up/' };
    expect(s3ConfigFromEnv(env)).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'b-1',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      prefix: 'up',
    });
    expect(createStorage({ dataDir: dir, s3Endpoint: env.S3_ENDPOINT, env }).kind).toBe('s3');
    expect(createStorage({ dataDir: dir }).kind).toBe('local');
  });
});
