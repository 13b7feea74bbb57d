/**
 * Stored variant rows in the compact form (issue 14: standard not-assessed ACMG criteria by key,
 * the input record as [line, prefix] when it is the stored allele, empty details left out) read
 * exactly as rows of the earlier full form: real annotated variants of a GRCh38 genome (chr21 of
 * NA12878, input kept) and of a GRCh37 exome (lifted, input stored whole) give the same API JSON
 * (variant details, list row), the same re-ranking input and the same report text either way.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AnnotatedVariant } from '@rarelens/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedCopyTable, encodeCopyRows } from '../../db/bulk-copy.ts';
import { readStoredInput } from '../../db/run-variants.ts';
import { runVariants, type RunVariantRow } from '../../db/schema/products.ts';
import { createKnowledgeBase } from '../../kb/knowledge-base.ts';
import { createEngineAnalysis } from '../../jobs/analysis-engine.ts';
import { hasRealEngine, kbDir, smallPfeifferVcf, sourcesDir } from '../../testing/pfeiffer-vcf.ts';
import { expectedCodonOutcome } from '../reports/report.model.ts';
import { presentVariant, presentVariantDetails } from '../variants/variants.presenter.ts';
import { fromVariantRow, toVariantRow } from './analysis.repository.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rarelens-stored-row-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The header and the first `n` records of a gzipped VCF. */
function headVcf(file: string, n: number): string {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n');
  return [...lines.filter((l) => l.startsWith('#')), ...lines.filter((l) => l !== '' && !l.startsWith('#')).slice(0, n)].join('\n') + '\n';
}

async function annotate(text: string, name: string): Promise<AnnotatedVariant[]> {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  const engine = await createEngineAnalysis(createKnowledgeBase(kbDir))();
  const stream = await engine.annotate({ path: file, displayName: name, assembly: null, signal: new AbortController().signal, onProgress: () => undefined });
  const out: AnnotatedVariant[] = [];
  for await (const v of stream.variants) out.push(v);
  return out;
}

type Row = Omit<ReturnType<typeof toVariantRow>, 'input' | 'details'> & { input: unknown; details: unknown };

/** The row as the earlier code wrote it: the whole input record, every part of the details. */
function fullFormRow(v: AnnotatedVariant, row: Row): Row {
  const empty = !v.acmg.notAssessed?.length && !v.otherGenes?.length && !v.geneConstraint && !v.codingOutcome?.length;
  return {
    ...row,
    input: v.input,
    details: empty
      ? null
      : {
          acmgNotAssessed: v.acmg.notAssessed ?? [],
          otherGenes: v.otherGenes ?? [],
          geneConstraint: v.geneConstraint ?? null,
          ...(v.codingOutcome?.length ? { codingOutcome: v.codingOutcome } : {}),
        },
  };
}

/** A row as the database gives it back: JSON columns through their text. */
function stored(row: Row, rank: number | null): RunVariantRow {
  const json = (x: unknown): unknown => (x == null ? null : JSON.parse(JSON.stringify(x)));
  return { ...row, rank, input: json(row.input), details: json(row.details), clinvar: json(row.clinvar), genotype: json(row.genotype), acmgCriteria: json(row.acmgCriteria) };
}

function compare(variants: AnnotatedVariant[], assembly: string) {
  let inputCompact = 0;
  let keyed = 0;
  const table = cachedCopyTable(runVariants, 'postgres');
  let bytesNew = 0;
  let bytesOld = 0;
  variants.forEach((v, i) => {
    const row = toVariantRow('00000000-0000-4000-8000-000000000001', i + 1, v, i % 7 === 0);
    const old = fullFormRow(v, row);
    bytesNew += encodeCopyRows(table, [row]).length;
    bytesOld += encodeCopyRows(table, [old]).length;
    if (Array.isArray(row.input)) inputCompact++;
    if (JSON.stringify(row.details ?? null).includes('"acmgNotAssessed":["')) keyed++;
    const a = stored(row, i % 7 === 0 ? i : null);
    const b = stored(old, i % 7 === 0 ? i : null);
    expect(presentVariantDetails(a, assembly)).toEqual(presentVariantDetails(b, assembly));
    expect(JSON.stringify(presentVariantDetails(a, assembly))).toBe(JSON.stringify(presentVariantDetails(b, assembly)));
    expect(presentVariant(a)).toEqual(presentVariant(b));
    expect(fromVariantRow(a)).toEqual(fromVariantRow(b));
    expect(readStoredInput(a)).toEqual(v.input);
    expect(expectedCodonOutcome(a)).toBe(expectedCodonOutcome(b));
  });
  return { inputCompact, keyed, bytesNew, bytesOld };
}

describe.runIf(hasRealEngine)('stored variant rows, compact form', () => {
  it('read as the full form on a GRCh38 genome (input kept as [line, prefix])', async () => {
    const variants = await annotate(headVcf(path.join(sourcesDir, 'vcf/PG_NA12878_hg38-chr21.vcf.gz'), 1500), 'na12878-chr21.vcf');
    expect(variants.length).toBeGreaterThan(1000);
    const r = compare(variants, 'GRCh38');
    expect(r.inputCompact).toBe(variants.length);
    expect(r.keyed).toBeGreaterThan(variants.length / 2);
    expect(r.bytesNew).toBeLessThan(r.bytesOld * 0.75);
  }, 120_000);

  it('read as the full form on a lifted GRCh37 exome (input stored whole)', async () => {
    const variants = await annotate(smallPfeifferVcf(), 'pfeiffer.vcf');
    expect(variants.length).toBeGreaterThan(200);
    const r = compare(variants, 'GRCh37');
    expect(r.inputCompact).toBe(0);
    expect(r.bytesNew).toBeLessThan(r.bytesOld);
  }, 120_000);
});
