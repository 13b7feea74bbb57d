import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffGenome, SNIFF_BYTES } from './content-type.ts';
import { LocalStorage } from './local.storage.ts';
import { ObjectTooLargeError } from './object-storage.ts';
import { chunkStream } from './testing/chunk-stream.ts';
import { tempDirPerTest } from './testing/temp-dir.ts';

const root = tempDirPerTest('rl-storage-');


describe('LocalStorage', () => {
  it('streams an object into place and reports size and sha256', async () => {
    const s = new LocalStorage(root());
    const body = '##fileformat=VCFv4.2\n' + 'x'.repeat(SNIFF_BYTES * 2);
    const res = await s.put('p1/genome', chunkStream([body.slice(0, 10), body.slice(10)]), {
      inspect: (b) => void sniffGenome(b, 'g.vcf'),
    });
    expect(res.bytes).toBe(body.length);
    expect(res.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(join(root(), 'p1', 'genome'), 'utf8')).toBe(body);
    expect(await s.size('p1/genome')).toBe(body.length);
  });

  it('leaves nothing behind when the content is rejected', async () => {
    const s = new LocalStorage(root());
    await expect(
      s.put('p2/genome', chunkStream(['not a vcf\n']), { inspect: (b) => void sniffGenome(b, 'g.vcf') }),
    ).rejects.toThrow(/not a VCF/);
    expect(await readdir(join(root(), 'p2'))).toEqual([]);
  });

  it('leaves nothing behind when the upload exceeds the limit', async () => {
    const s = new LocalStorage(root());
    await expect(s.put('p3/genome', chunkStream(['a'.repeat(600), 'b'.repeat(600)]), { maxBytes: 1000 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(await readdir(join(root(), 'p3'))).toEqual([]);
  });

  it('leaves nothing behind when the client aborts mid-stream', async () => {
    const s = new LocalStorage(root());
    const big = 'z'.repeat(SNIFF_BYTES + 10);
    await expect(s.put('p4/genome', chunkStream([big, big], 1))).rejects.toThrow(/aborted/);
    expect(await readdir(join(root(), 'p4'))).toEqual([]);
  });

  it('refuses keys that could escape the root()', async () => {
    const s = new LocalStorage(root());
    await expect(s.put('../evil', chunkStream(['x']))).rejects.toBeInstanceOf(RangeError);
  });

  it('reads byte ranges and deletes by prefix', async () => {
    const s = new LocalStorage(root());
    await s.put('p5/a', chunkStream(['0123456789']));
    const r = await s.get('p5/a', { start: 2, end: 4 });
    let got = '';
    for await (const c of r) got += String(c);
    expect(got).toBe('234');
    await s.deletePrefix('p5');
    await expect(s.size('p5/a')).rejects.toThrow(/ENOENT/);
  });
});
