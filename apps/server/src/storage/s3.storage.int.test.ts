import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sniffGenome, SNIFF_BYTES } from './content-type.ts';
import { ObjectTooLargeError } from './object-storage.ts';
import { S3Error, S3Storage, S3_MIN_PART_SIZE, type S3Config } from './s3.storage.ts';
import { S3RVER_CREDENTIALS, startS3rver, type S3rverProcess } from './testing/s3rver.process.ts';
import { chunkStream } from './testing/chunk-stream.ts';

const PART = S3_MIN_PART_SIZE; // 5 MiB parts: the smallest S3 allows


/** `n` bytes split into 1 MiB chunks (the shape of a request body). */
function body(n: number): Buffer[] {
  const all = randomBytes(n);
  const out: Buffer[] = [];
  for (let i = 0; i < n; i += 1 << 20) out.push(all.subarray(i, Math.min(n, i + (1 << 20))));
  return out;
}

async function bytes(r: Readable): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of r) out.push(c as Buffer);
  return Buffer.concat(out);
}

/** Records the name of every SDK command the store sends, and the most UploadParts in flight at once. */
function recordCommands(s: S3Storage): string[] & { maxPartsInFlight: number } {
  const names = Object.assign([] as string[], { maxPartsInFlight: 0 });
  let inFlight = 0;
  s.client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      names.push(name);
      if (name !== 'UploadPart') return next(args);
      names.maxPartsInFlight = Math.max(names.maxPartsInFlight, ++inFlight);
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    { step: 'initialize', name: 'recordCommands' },
  );
  return names;
}

let server: S3rverProcess;
let dir: string;
let config: S3Config;
let baseline: string[];
const stores: S3Storage[] = [];

function store(overrides: Partial<S3Config> = {}): S3Storage {
  const s = new S3Storage({ ...config, ...overrides }, join(dir, 'tmp'));
  stores.push(s);
  return s;
}

beforeAll(async () => {
  server = await startS3rver('rl-bucket');
  config = {
    endpoint: server.endpoint,
    bucket: 'rl-bucket',
    region: 'eu-central-1',
    ...S3RVER_CREDENTIALS,
    prefix: 'rarelens',
    partSize: PART,
    queueSize: 3,
  };
  baseline = await server.files();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rl-s3-'));
});
afterEach(async () => {
  for (const s of stores.splice(0)) {
    await s.deletePrefix('t').catch(() => undefined);
    s.close();
  }
  await rm(dir, { recursive: true, force: true });
  // Nothing left behind by any test: no object, no multipart part.
  expect(await server.files()).toEqual(baseline);
});

describe('S3Storage on the AWS SDK against an s3rver process (path-style)', () => {
  it('puts a small file in one PUT, reads it whole and ranged, sizes and deletes it', async () => {
    const s = store();
    const sent = recordCommands(s);
    const text = '##fileformat=VCFv4.2\n' + 'x'.repeat(SNIFF_BYTES * 2);
    const res = await s.put('t/p1/genome', chunkStream([Buffer.from(text.slice(0, 10)), Buffer.from(text.slice(10))]), {
      inspect: (b) => void sniffGenome(b, 'g.vcf'),
    });
    expect(res).toEqual({ bytes: text.length, sha256: createHash('sha256').update(text).digest('hex') });
    expect([...sent]).toEqual(['PutObject']);
    expect((await bytes(await s.get('t/p1/genome'))).toString()).toBe(text);
    expect((await bytes(await s.get('t/p1/genome', { start: 2, end: 11 }))).toString()).toBe('fileformat');
    expect((await bytes(await s.get('t/p1/genome', { start: text.length - 3 }))).toString()).toBe('xxx');
    expect(await s.size('t/p1/genome')).toBe(text.length);
    expect(await s.withLocalFile('t/p1/genome', (p) => readFile(p, 'utf8'))).toBe(text);
    expect(await readdir(join(dir, 'tmp'))).toEqual([]);
    await s.delete('t/p1/genome');
    await expect(s.size('t/p1/genome')).rejects.toMatchObject({ status: 404, code: 'ENOENT' });
    await expect(s.get('t/p1/genome')).rejects.toThrow(/S3 GET rarelens\/t\/p1\/genome failed: HTTP 404 NoSuchKey/);
    await s.delete('t/p1/genome'); // deleting a missing object is not an error
  });

  it('uploads a file larger than the part size as a multipart upload with parallel parts', async () => {
    const s = store();
    const sent = recordCommands(s);
    const parts = body(2 * PART + 123_457); // three parts, the last one short
    const whole = Buffer.concat(parts);
    const res = await s.put('t/p2/genome', chunkStream(parts));
    expect(res).toEqual({ bytes: whole.length, sha256: createHash('sha256').update(whole).digest('hex') });
    expect([...sent]).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    expect(sent.maxPartsInFlight).toBeGreaterThan(1);
    expect(await s.size('t/p2/genome')).toBe(whole.length);
    expect((await bytes(await s.get('t/p2/genome'))).equals(whole)).toBe(true);
    // A range across the first part boundary (igv and downloads read ranges).
    const r = await bytes(await s.get('t/p2/genome', { start: PART - 10, end: PART + 9 }));
    expect(r.equals(whole.subarray(PART - 10, PART + 10))).toBe(true);
  });

  it('aborts the multipart upload when the client goes away halfway, leaving no object and no parts', async () => {
    const s = store();
    const sent = recordCommands(s);
    const parts = body(3 * PART);
    // The client disconnects after 8 MiB: part 1 is already stored by then.
    await expect(s.put('t/p3/genome', chunkStream(parts, 8))).rejects.toThrow(/client aborted/);
    expect(sent).toContain('CreateMultipartUpload');
    expect(sent).toContain('UploadPart');
    expect(sent).toContain('AbortMultipartUpload');
    expect(sent).not.toContain('CompleteMultipartUpload');
    expect(await s.list('t/p3')).toEqual([]);
  });

  it('stops at the size limit with ObjectTooLargeError and aborts what was sent', async () => {
    const s = store();
    const sent = recordCommands(s);
    const err = await s.put('t/p4/genome', chunkStream(body(3 * PART)), { maxBytes: 2 * PART }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectTooLargeError);
    expect(sent).toContain('AbortMultipartUpload');
    expect(await s.list('t/p4')).toEqual([]);
  });

  it('rejects content that fails inspection before anything is stored', async () => {
    const s = store();
    const sent = recordCommands(s);
    await expect(s.put('t/p5/genome', chunkStream([Buffer.from('not a vcf\n')]), { inspect: (b) => void sniffGenome(b, 'g.vcf') })).rejects.toThrow(
      /not a VCF/,
    );
    expect(sent.filter((c) => c !== 'DeleteObject')).toHaveLength(0);
  });

  it('deletes every object under a prefix (case removal) and nothing outside it', async () => {
    const s = store();
    for (const k of ['a', 'b', 'c']) await s.put(`t/p6/${k}`, chunkStream([Buffer.from(k)]));
    await s.put('t/p60/keep', chunkStream([Buffer.from('keep')]));
    expect((await s.list('t/p6')).sort()).toEqual(['t/p6/a', 't/p6/b', 't/p6/c']);
    await s.deletePrefix('t/p6');
    expect(await s.list('t/p6')).toEqual([]);
    expect(await s.list('t/p60')).toEqual(['t/p60/keep']);
  });

  it('names the operation and the store error when the store refuses the request', async () => {
    const s = store({ accessKeyId: 'NOT-A-KEY' });
    const err: unknown = await s.put('t/p7/genome', chunkStream([Buffer.from('x')])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(S3Error);
    expect(String(err)).toMatch(/S3 PUT rarelens\/t\/p7\/genome failed: HTTP 403 InvalidAccessKeyId/);
    const missing = store({ bucket: 'no-such-bucket' });
    await expect(missing.get('t/p7/genome')).rejects.toThrow(/S3 GET rarelens\/t\/p7\/genome failed: HTTP 404 NoSuchBucket/);
  });

  it('refuses keys that could escape the prefix', async () => {
    await expect(store().put('../evil', chunkStream([Buffer.from('x')]))).rejects.toBeInstanceOf(RangeError);
  });
});
