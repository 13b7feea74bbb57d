import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildHpoKb } from '@rarelens/engine';
import { kbBuiltThisRun } from '@rarelens/engine/testing';
import { run } from './analyze.ts';

const sources = process.env.RARELENS_SOURCES ?? resolve(import.meta.dirname, '../../../../../shared/data');
let dir: string;
let kbDir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rarelens-analyze-'));
  // The KB this test run built from these sources with this code (CI), else the HPO part built here.
  kbDir = kbBuiltThisRun(sources) ?? dir;
  if (kbDir === dir) await buildHpoKb({ sourcesDir: sources, outDir: dir, log: () => undefined, progress: () => undefined, addSource: () => undefined, reportMissing: () => undefined, warn: () => undefined });
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('rarelens analyze', () => {
  it('ranks a batch of phenotype-only cases with the KB loaded once, in the documented line format', async () => {
    const cases = join(dir, 'cases.jsonl');
    const out = join(dir, 'results.jsonl');
    await writeFile(
      cases,
      [
        { id: 'marfan', vcf: null, assembly: null, hpo_present: ['HP:0001166', 'HP:0001519', 'HP:0001083', 'HP:0002616', 'HP:0000545'], hpo_excluded: [], sex: 'FEMALE' },
        { id: 'achondroplasia', vcf: null, assembly: null, hpo_present: ['HP:0008905', 'HP:0002007', 'HP:0000256', 'HP:0002938', 'HP:0004060', 'HP:0003521'], hpo_excluded: ['HP:0001250'], sex: null },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n') + '\n',
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['--batch', cases, '--out', out, '--kb', kbDir])).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { id: string; diseases: { id: string; name: string; rank: number; score: number }[]; genes: { symbol: string; rank: number }[]; variants: unknown[] });
    expect(lines.map((l) => l.id)).toEqual(['marfan', 'achondroplasia']);
    expect(lines[0]?.diseases[0]).toMatchObject({ id: 'OMIM:154700', name: 'Marfan syndrome', rank: 1 });
    expect(lines[0]?.genes[0]).toMatchObject({ symbol: 'FBN1', rank: 1 });
    expect(lines[1]?.genes[0]?.symbol).toBe('FGFR3');
    expect(lines[0]?.diseases).toHaveLength(100);
    expect(lines[0]?.diseases.map((d) => d.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(lines[0]?.variants).toEqual([]);
  }, 60_000);

  it('names the line and field of a malformed batch case and writes no output', async () => {
    const cases = join(dir, 'bad.jsonl');
    const out = join(dir, 'bad-results.jsonl');
    await writeFile(cases, '{"id":"a","vcf":null,"hpo_present":["HP:0001166"],"sex":null}\n{"id":"b","vcf":null,"hpo_present":["HP:12"],"sex":null}\n');
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['--batch', cases, '--out', out, '--kb', kbDir])).toBe(2);
    expect(err.mock.calls.flat().join(' ')).toMatch(/bad\.jsonl:2: field "hpo_present" must be an array of HPO ids/);
    await expect(readFile(out, 'utf8')).rejects.toThrow();
  });

  it('writes explanations in single-case phenotype-only mode', async () => {
    const out = join(dir, 'single.json');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['--hpo', 'HP:0001166,HP:0001519,HP:0001083,HP:0002616,HP:0000545', '--exclude', 'HP:0001250', '--out', out, '--kb', kbDir])).toBe(0);
    const body = JSON.parse(await readFile(out, 'utf8')) as { mode: string; diseases: { id: string; explanation: string[]; inheritance: { id: string }[] }[] };
    expect(body.mode).toBe('phenotype-only');
    expect(body.diseases[0]?.id).toBe('OMIM:154700');
    expect(body.diseases[0]?.explanation.some((l) => l.startsWith('Ectopia lentis (HP:0001083) is a feature of the disease'))).toBe(true);
  });

  it('rejects an --hpo value that is not an HPO id', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await run(['--hpo', 'HP:1', '--out', join(dir, 'x.json'), '--kb', kbDir])).toBe(2);
  });
});
