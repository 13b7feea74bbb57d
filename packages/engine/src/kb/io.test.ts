/**
 * jsonTextOf: a UTF-8 JSON file's text with non-ASCII characters escaped, so that it and every
 * ASCII string parsed from it stay one-byte; JSON.parse must read back exactly what it reads from
 * the UTF-8 decoded file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonTextOf, readJson } from './io.ts';

const viaUtf8 = (b: Buffer): unknown => JSON.parse(b.toString('utf8'));
const oneByte = (s: string): boolean => [...s].every((c) => c.charCodeAt(0) < 0x80);

describe('jsonTextOf', () => {
  it('reads ASCII files as they are', () => {
    const b = Buffer.from(JSON.stringify({ a: 'x\ty', n: [1, 2.5, null], s: '\\u00e9 stays an escape' }));
    expect(jsonTextOf(b)).toBe(b.toString('latin1'));
    expect(JSON.parse(jsonTextOf(b))).toEqual(viaUtf8(b));
  });

  it('escapes non-ASCII characters (2-, 3- and 4-byte UTF-8, runs, a run across a 64 KiB slice) to the same values', () => {
    const long = 'a'.repeat((1 << 16) - 3);
    const value = { name: 'Sjögren–Larsson syndrome', cjk: '遺伝子', emoji: 'x😀y', run: 'ééé€€', edge: `${long}ßøñ${long}`, key_é: 1, plain: 'ACGT' };
    const b = Buffer.from(JSON.stringify(value), 'utf8');
    const text = jsonTextOf(b);
    expect(oneByte(text)).toBe(true);
    expect(JSON.parse(text)).toEqual(value);
    expect(JSON.parse(text)).toEqual(viaUtf8(b));
  });

  it('decodes malformed UTF-8 as the UTF-8 decoder does (replacement characters)', () => {
    const b = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xc3]), Buffer.from('y","b":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(JSON.parse(jsonTextOf(b))).toEqual(viaUtf8(b));
  });

  it('still rejects text that is not JSON', () => {
    expect(() => JSON.parse(jsonTextOf(Buffer.from('{"a": é}', 'utf8'))) as unknown).toThrow(SyntaxError);
  });

  it('is what readJson parses', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rarelens-io-'));
    try {
      const value = { genes: ['BRCA1', 'Ångström'], n: 3 };
      await writeFile(join(dir, 'x.json'), JSON.stringify(value));
      expect(await readJson(join(dir, 'x.json'))).toEqual(value);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
