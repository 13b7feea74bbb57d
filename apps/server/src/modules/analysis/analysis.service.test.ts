import type { AnnotatedVariant } from '@rarelens/engine';
import { describe, expect, it } from 'vitest';
import type { RankingValue } from '../../jobs/analysis-engine.ts';
import { fromVariantRow, toVariantRow } from './analysis.repository.ts';
import { candidateRanks } from './analysis.service.ts';

function buildVariant(over: Partial<AnnotatedVariant> = {}): AnnotatedVariant {
  return {
    chrom: '10',
    pos: 123,
    ref: 'A',
    alt: 'G',
    input: { chrom: 'chr10', pos: 456, ref: 'A', alt: 'G', line: 42 },
    assembly: 'GRCh38',
    genotype: { gt: '0/1', zygosity: 'heterozygous', depth: 30 },
    filter: ['PASS'],
    qual: 50,
    gene: 'FGFR2',
    hgncId: 'HGNC:3689',
    transcript: 'NM_000141.5',
    isManeSelect: true,
    consequences: ['missense_variant'],
    impact: 'MODERATE',
    hgvsC: 'c.1A>G',
    hgvsP: 'p.Met1?',
    af: null,
    afSource: null,
    clinvar: { significance: 'Pathogenic', stars: 2, match: 'exact' },
    acmg: { classification: 'Likely pathogenic', points: 7, criteria: [{ code: 'PM2', strength: 'Supporting', points: 1, reason: 'absent' }] },
    score: 0.8,
    ...over,
  };
}

const ranking = (genes: string[], variantRank?: (v: AnnotatedVariant) => number | null): RankingValue => ({
  diseases: [],
  genes: genes.map((symbol) => ({ symbol, hgncId: null, score: 1, phenotypeScore: 1, variantScore: 1, probability: 0.5, inheritance: [], explanation: [], phenotypeSource: { source: 'none', disease: null }, diseases: [] })),
  ...(variantRank ? { variantRank } : {}),
});

describe('candidateRanks', () => {
  it('orders by gene rank, then score, then input order when the engine gives no variant rank', () => {
    const vs = [
      buildVariant({ gene: 'TTN', score: 0.9 }),
      buildVariant({ gene: 'FGFR2', score: 0.2 }),
      buildVariant({ gene: 'FGFR2', score: 0.7 }),
      buildVariant({ gene: 'UNRANKED', score: 1 }),
      buildVariant({ gene: 'FGFR2', score: 0.7 }),
    ];
    expect(candidateRanks(vs, [1, 2, 3, 4, 5], ranking(['FGFR2', 'TTN']))).toEqual([4, 3, 1, 5, 2]);
  });
  it('follows the engine variant rank first', () => {
    const a = buildVariant({ gene: 'TTN' });
    const b = buildVariant({ gene: 'FGFR2' });
    const r = ranking(['FGFR2', 'TTN'], (v) => (v === a ? 1 : v === b ? 2 : null));
    expect(candidateRanks([b, a], [1, 2], r)).toEqual([2, 1]);
  });
});

describe('stored variant rows', () => {
  it('round-trip an annotated variant (re-ranking reads what annotation wrote)', () => {
    const v = buildVariant();
    const row = toVariantRow('run', 7, v, true);
    expect(row).not.toHaveProperty('rank');
    expect(row).toMatchObject({ id: 7, consequence: 'missense_variant', clinvarSignificance: 'Pathogenic', isCandidate: true });
    const back = fromVariantRow(row);
    expect(back).toEqual(v);
  });
  it('keep criteria not assessed, other genes and gene constraint', () => {
    const v = buildVariant({
      acmg: { classification: 'Uncertain significance', points: 1, criteria: [], notAssessed: [{ code: 'PM2', reason: 'no population data' }] },
      otherGenes: [{ gene: 'FGFR2-AS1', transcript: 'NR_1', consequences: ['intron_variant'], impact: 'MODIFIER' }],
      geneConstraint: { pLI: 1, loeuf: 0.2, misZ: 3.1, source: 'gnomAD v4.1' },
    });
    const row = toVariantRow('run', 8, v, false);
    expect(fromVariantRow(row)).toEqual(v);
  });
  it('store the standard not-assessed reasons by key and the unmoved input as [line, prefix]', () => {
    const pm2 = { code: 'PM2/BA1/BS1', reason: 'no population frequency data for this locus (no gnomAD table in the KB and none in the VCF)' };
    const other = { code: 'PP2', reason: 'no missense Z score for FGFR2' };
    const v = buildVariant({
      pos: 456,
      acmg: { classification: 'Uncertain significance', points: 0, criteria: [], notAssessed: [pm2, other] },
      geneConstraint: { pLI: 1, loeuf: 0.2, misZ: 3.1, source: 'gnomAD v4.1' },
    });
    const row = toVariantRow('run', 11, v, false);
    expect(row.details).toEqual({ acmgNotAssessed: ['PM2/BA1/BS1', other], geneConstraint: v.geneConstraint });
    expect(row.input).toEqual([42, 'chr']);
    expect(fromVariantRow(row)).toEqual(v);
    // Same text under another code, or another text: stored whole.
    const reworded = buildVariant({ acmg: { ...v.acmg, notAssessed: [{ code: 'PM2/BA1/BS1', reason: 'no frequency' }] } });
    expect(toVariantRow('run', 12, reworded, false).details).toEqual({ acmgNotAssessed: [{ code: 'PM2/BA1/BS1', reason: 'no frequency' }] });
    expect(toVariantRow('run', 12, buildVariant({ pos: 456, input: { chrom: '10', pos: 456, ref: 'A', alt: 'G', line: 3 } }), false).input).toEqual([3, '']);
    // Moved by liftover or normalisation: the record whole.
    expect(toVariantRow('run', 13, buildVariant(), false).input).toEqual({ chrom: 'chr10', pos: 456, ref: 'A', alt: 'G', line: 42 });
    expect(toVariantRow('run', 13, buildVariant({ pos: 456, input: { chrom: 'chrX', pos: 456, ref: 'A', alt: 'G', line: 3 } }), false).input).toMatchObject({ chrom: 'chrX' });
    // An unknown key is an error, never a silent empty reason.
    expect(() => fromVariantRow({ ...row, details: { acmgNotAssessed: ['NOPE'] } })).toThrow(/unknown not-assessed criterion key "NOPE"/);
  });
  it('keep the expected codon outcome of a coding variant whose codon is not known', () => {
    const codingOutcome = [
      { term: 'synonymous_variant', p: 0.9612 },
      { term: 'missense_variant', p: 0.0388 },
    ];
    const v = buildVariant({ consequences: ['coding_sequence_variant'], impact: 'MODIFIER', hgvsP: null, codingOutcome });
    const row = toVariantRow('run', 9, v, true);
    expect(row.details).toEqual({ codingOutcome });
    expect(fromVariantRow(row).codingOutcome).toEqual(codingOutcome);
    expect(fromVariantRow(row)).toEqual(v);
    // A row without one (or stored before it was kept) gives none.
    expect(toVariantRow('run', 10, buildVariant(), false).details).toBeNull();
    expect(fromVariantRow({ ...row, details: { acmgNotAssessed: [], otherGenes: [], geneConstraint: null } })).not.toHaveProperty('codingOutcome');
  });
});
