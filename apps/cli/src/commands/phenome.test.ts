import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultHpoPath } from '@rarelens/phenome';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from './phenome.ts';

const hasData = existsSync(defaultHpoPath());
const dir = mkdtempSync(join(tmpdir(), 'rarelens-phenome-cli-'));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('rarelens phenome: arguments', () => {
  it('exits 2 with usage when neither --text nor --batch is given', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run([])).toBe(2);
    expect(err.mock.calls[0]?.[0]).toMatch(/give exactly one of --text or --batch/);
  });

  it('exits 2 on an unknown --nested mode', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run(['--text', 'x', '--nested', 'some'])).toBe(2);
    expect(err.mock.calls[0]?.[0]).toMatch(/--nested must be compositional, all or none/);
  });

  it('exits 2 when --batch has no --out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await run(['--batch', 'x.jsonl'])).toBe(2);
  });
});

describe.skipIf(!hasData)('rarelens phenome: extraction (real HPO)', () => {
  it('prints the terms of --text as JSON, the clinical modifiers apart', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const text = 'Seizures but no cataract; autosomal recessive inheritance.';
    expect(await run(['--text', text, '--no-llm'])).toBe(0);
    type Out = { id: string; negated: boolean; category: string }[];
    const out = JSON.parse(String(log.mock.calls[0]?.[0])) as { terms: Out; modifiers: Out };
    expect(out.terms).toEqual([
      expect.objectContaining({ id: 'HP:0001250', negated: false }),
      expect.objectContaining({ id: 'HP:0000518', negated: true }),
    ]);
    expect(out.modifiers).toEqual([
      expect.objectContaining({ id: 'HP:0000007', category: 'inheritance', negated: false }),
    ]);
  });

  it('runs the shipped configuration unless told otherwise', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const paper = [
      'A boy',
      'Introduction',
      'Cataract was reported before.',
      'Case presentation',
      'The boy had a vestibular schwannoma.',
      'Discussion',
      'Deafness is described in related disorders.',
    ].join('\n');
    const idsOf = (call: number): string[] =>
      (JSON.parse(String(log.mock.calls[call]?.[0])) as { terms: { id: string }[] }).terms
        .map((t) => t.id)
        .sort();
    expect(await run(['--text', paper, '--no-llm'])).toBe(0);
    // Case section only; the tumour's site-qualified name also yields Schwannoma.
    expect(idsOf(0)).toEqual(['HP:0009588', 'HP:0100008']);
    expect(await run(['--text', paper, '--no-llm', '--nested', 'none', '--whole-text'])).toBe(0);
    expect(idsOf(1)).toEqual(['HP:0000365', 'HP:0000518', 'HP:0009588']);
  });

  it('writes one {id, terms, modifiers} line per input record', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const input = join(dir, 'ok.jsonl');
    const output = join(dir, 'ok.out.jsonl');
    writeFileSync(
      input,
      '{"id":"a","text":"Microcephaly, congenital onset."}\n\n{"id":7,"text":"Nothing here."}\n',
    );
    expect(await run(['--batch', input, '--out', output, '--no-llm'])).toBe(0);
    const lines = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { id: unknown; terms: { id: string }[]; modifiers: { id: string }[] },
      );
    expect(lines.map((l) => l.id)).toEqual(['a', 7]);
    expect(lines[0]?.terms.map((t) => t.id)).toEqual(['HP:0000252']);
    expect(lines[0]?.modifiers.map((t) => t.id)).toEqual(['HP:0003577']);
    expect(lines[1]).toMatchObject({ terms: [], modifiers: [] });
  });

  it('rejects a bad record naming the file and line, leaving no output', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const input = join(dir, 'bad.jsonl');
    const output = join(dir, 'bad.out.jsonl');
    writeFileSync(input, '{"id":"a","text":"Microcephaly."}\n{"id":"b"}\n');
    await expect(run(['--batch', input, '--out', output, '--no-llm'])).rejects.toThrow(
      `${input}:2: field "text" must be a string`,
    );
    writeFileSync(input, '{"id":"a","text":"ok"}\n{oops\n');
    await expect(run(['--batch', input, '--out', output, '--no-llm'])).rejects.toThrow(
      `${input}:2: invalid JSON`,
    );
    expect(existsSync(output)).toBe(false);
    expect(existsSync(`${output}.partial`)).toBe(false);
  });
});
