import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOB_MIN_LENGTH, decodeKbContainer, encodeKbContainer, isKbContainer, readKbContainerFile } from './container.ts';
import { genomeKbFilePath, readGenomeKbFile, writeGenomeKbFile } from './genome-kb.ts';
import { encodeInt32, jsonTextOf } from './io.ts';
import { KbSourceError } from './types.ts';

const long = (seed: string, n = BLOB_MIN_LENGTH + 7): string => seed.repeat(Math.ceil(n / seed.length)).slice(0, n);

/** A KB-like value: packed columns (long strings), short strings, numbers, nulls, nesting. */
function sample(): Record<string, unknown> {
  return {
    n: 3,
    source: 'gencode.v99.annotation.gtf',
    columns: { start: encodeInt32(Array.from({ length: 400 }, (_, i) => i * 37 - 5)), symbol: long('TP53\tBRCA1\tCAFÉ\t') },
    list: [long('ACGT'), 'short', 1.5, null, true, [long('x|y'), { deeper: long('é\u00ff\u0001"\\') }]],
    // Not Latin-1: stays in the skeleton (the container stores one byte per character).
    wide: long('ü€'),
    empty: '',
    nothing: null,
  };
}

describe('KB container', () => {
  it('gives back the value JSON.parse gives for its JSON (long Latin-1 strings from the raw data)', () => {
    const v = sample();
    const buf = encodeKbContainer(v);
    expect(isKbContainer(buf)).toBe(true);
    const back = decodeKbContainer<Record<string, unknown>>(buf, 'x.bin');
    expect(back).toEqual(JSON.parse(JSON.stringify(v)));
    expect(JSON.stringify(back)).toBe(JSON.stringify(v));
    // The long strings are out of the skeleton: the file is barely longer than their characters.
    const s = buf.readUInt32LE(8);
    expect(s).toBeLessThan(JSON.stringify(v).length / 2);
    // The non-Latin-1 string is in the skeleton, whole.
    expect(buf.subarray(12, 12 + s).toString('utf8')).toContain(long('ü€'));
  });

  it('reads its skeleton as one-byte text, as the JSON files are read (jsonTextOf)', () => {
    const v = { a: 'café', b: long('abc') };
    const back = decodeKbContainer<typeof v>(encodeKbContainer(v), 'x.bin');
    expect(back.a).toBe((JSON.parse(jsonTextOf(Buffer.from(JSON.stringify(v), 'utf8'))) as typeof v).a);
    expect(back.b).toBe(v.b);
  });

  it('refuses a value that has its marker key', () => {
    expect(() => encodeKbContainer({ rows: [{ $blob: [0, 1] }] })).toThrow(/marker key \$blob/);
  });

  it('names the file when it is not a container, cut short or pointing outside itself', () => {
    const buf = encodeKbContainer(sample());
    const err = (b: Buffer): KbSourceError => {
      try {
        decodeKbContainer(b, '/kb/genome/genes.bin');
      } catch (e) {
        return e as KbSourceError;
      }
      throw new Error('no error');
    };
    const notOne = err(Buffer.from('{"rows":[]}'));
    expect(notOne).toBeInstanceOf(KbSourceError);
    expect(notOne.message).toMatch(/genes\.bin.*no RLKBBIN1 magic.*rarelens kb build/);
    // Cut inside the raw data: a string points past the end.
    expect(err(buf.subarray(0, buf.length - 10)).message).toMatch(/genes\.bin.*outside the \d+ bytes of data/);
    // Cut inside the skeleton.
    expect(err(buf.subarray(0, 40)).message).toMatch(/genes\.bin.*header of \d+ bytes, file of 40/);
    // A skeleton that is not JSON.
    const bad = Buffer.from(buf);
    bad.write('}', 12, 'latin1');
    expect(err(bad).message).toMatch(/genes\.bin.*header:/);
  });

  describe('genome KB files', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'rarelens-kbbin-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('are written as containers when large and JSON when small, and read back either way', async () => {
      const genes = sample();
      await writeGenomeKbFile(dir, 'genes', genes);
      await writeGenomeKbFile(dir, 'genespans', { table: { n: 0 } });
      expect((await readdir(dir)).sort()).toEqual(['genes.bin', 'genespans.json']);
      expect(await readGenomeKbFile(dir, 'genes')).toEqual(JSON.parse(JSON.stringify(genes)));
      expect(await readGenomeKbFile(dir, 'genespans')).toEqual({ table: { n: 0 } });
      expect(await readKbContainerFile(join(dir, 'genes.bin'), (e) => e.message)).toEqual(JSON.parse(JSON.stringify(genes)));
    });

    it('of a KB built before the containers (JSON) are read the same', async () => {
      const old = await mkdtemp(join(tmpdir(), 'rarelens-kbjson-'));
      try {
        await writeFile(join(old, 'clinvar.grch38.json'), JSON.stringify(sample()));
        expect(await genomeKbFilePath(old, 'clinvar.grch38')).toBe(join(old, 'clinvar.grch38.json'));
        expect(await readGenomeKbFile(old, 'clinvar.grch38')).toEqual(JSON.parse(JSON.stringify(sample())));
        expect(await genomeKbFilePath(old, 'missense.grch38')).toBeNull();
        await expect(readGenomeKbFile(old, 'missense.grch38')).rejects.toThrow(/missense\.grch38\.bin.*rarelens kb build/);
      } finally {
        await rm(old, { recursive: true, force: true });
      }
    });
  });
});
