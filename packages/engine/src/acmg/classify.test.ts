import { describe, expect, it } from 'vitest';
import type { GeneRecord } from '../genes/gene.ts';
import { expectedCodingSeverity, pathogenicityScore, type ScoreInput } from '../score/pathogenicity.ts';
import { SO_TERMS } from '../annotate/so.ts';
import { acmgReadsGene, classFromPoints, classifyAcmg, type AcmgEvidence } from './classify.ts';

function buildGene(over: Partial<GeneRecord> = {}): GeneRecord {
  return {
    symbol: 'GENE1',
    hgncId: 'HGNC:1',
    name: 'test gene',
    locusGroup: 'protein-coding gene',
    locusType: 'gene with protein product',
    location: '1p1',
    aliases: [],
    previousSymbols: [],
    entrezId: '1',
    ensemblId: 'ENSG1',
    omimIds: [],
    maneSelect: null,
    span38: null,
    constraint: { pLI: 1, loeuf: 0.2, oeLof: 0.1, misZ: 4, oeMis: 0.5, source: 'gnomAD v4.1', transcript: null },
    alphaMissenseMean: null,
    clinvar: { totalAlleles: 100, plpAlleles: 50, uncertain: 10, conflicts: 0, plpLof: 30, plpMissense: 20, blbMissense: 0 },
    ...over,
  };
}

function buildEvidence(over: Partial<AcmgEvidence> = {}): AcmgEvidence {
  return {
    consequences: ['missense_variant'],
    gene: buildGene(),
    nmdEscape: false,
    cdsFractionAfter: 0.5,
    refAa: 'R',
    altAa: 'G',
    af: null,
    afSource: null,
    populationDataAvailable: false,
    sameCodon: [],
    nearbyPathogenicMissense: 0,
    inRepeat: null,
    predictors: {},
    ...over,
  };
}

const codes = (ev: AcmgEvidence): string[] => classifyAcmg(ev).criteria.map((c) => `${c.code}:${c.strength}`);

describe('acmgReadsGene (the annotator shares one result across genes when it is false)', () => {
  // Genes that differ in every property classifyAcmg could read (constraint, ClinVar counts, symbol), and no gene.
  const genes: (GeneRecord | null)[] = [
    buildGene(),
    buildGene({ symbol: 'OTHER', constraint: { pLI: 0, loeuf: 1.9, oeLof: 1, misZ: -2, oeMis: 1.2, source: 'gnomAD v2.1.1', transcript: null }, clinvar: null }),
    buildGene({ symbol: 'NOCONSTRAINT', constraint: null, clinvar: { totalAlleles: 3, plpAlleles: 1, uncertain: 1, conflicts: 1, plpLof: 1, plpMissense: 0, blbMissense: 2 } }),
    null,
  ];
  // Every SO term alone and every pair: evidence-free variants (as the annotator memoises them) and ones with evidence.
  const lists: string[][] = [];
  for (const a of SO_TERMS) {
    lists.push([a]);
    for (const b of SO_TERMS) if (a < b) lists.push([a, b]);
  }
  const evidences = (consequences: string[], gene: GeneRecord | null): AcmgEvidence[] => [
    buildEvidence({ consequences, gene, nmdEscape: null, cdsFractionAfter: null, refAa: null, altAa: null, nearbyPathogenicMissense: null }),
    buildEvidence({ consequences, gene, populationDataAvailable: true, afSource: 'gnomAD', predictors: { revel: 0.5, spliceAi: 0.05 } }),
    buildEvidence({ consequences, gene, af: 0.2, afSource: 'gnomAD', nmdEscape: true, cdsFractionAfter: 0.05 }),
  ];

  it('is false only for consequence lists whose result is the same for every gene', () => {
    let independent = 0;
    for (const consequences of lists) {
      if (acmgReadsGene(consequences)) continue;
      independent++;
      for (const [k, first] of evidences(consequences, genes[0]!).entries()) {
        const want = classifyAcmg(first);
        for (const g of genes.slice(1)) expect(classifyAcmg(evidences(consequences, g)[k]!), `${consequences.join(',')} with ${g?.symbol ?? 'no gene'}`).toEqual(want);
      }
    }
    expect(independent).toBeGreaterThan(100);
  });

  it('is true for null and missense variants, whose result does depend on the gene', () => {
    for (const consequences of [['stop_gained'], ['frameshift_variant'], ['splice_donor_variant'], ['missense_variant'], ['missense_variant', 'splice_region_variant']]) {
      expect(acmgReadsGene(consequences)).toBe(true);
      const results = genes.map((g) => JSON.stringify(classifyAcmg(evidences(consequences, g)[0]!)));
      expect(new Set(results).size, consequences.join(',')).toBeGreaterThan(1);
    }
    expect(acmgReadsGene(['intron_variant'])).toBe(false);
    expect(acmgReadsGene(['synonymous_variant', 'splice_region_variant'])).toBe(false);
  });
});

describe('classFromPoints (Tavtigian 2020 point thresholds)', () => {
  it('maps the boundaries 10/6/0/-1/-7', () => {
    expect(classFromPoints(10)).toBe('Pathogenic');
    expect(classFromPoints(9)).toBe('Likely pathogenic');
    expect(classFromPoints(6)).toBe('Likely pathogenic');
    expect(classFromPoints(5)).toBe('Uncertain significance');
    expect(classFromPoints(0)).toBe('Uncertain significance');
    expect(classFromPoints(-1)).toBe('Likely benign');
    expect(classFromPoints(-6)).toBe('Likely benign');
    expect(classFromPoints(-7)).toBe('Benign');
  });
});

describe('PVS1', () => {
  it('PVS1 (Richards 2015; SVI 2018 tree): a frameshift predicted to undergo NMD in a LoF-intolerant gene is Very strong', () => {
    const r = classifyAcmg(buildEvidence({ consequences: ['frameshift_variant'], nmdEscape: false }));
    expect(r.criteria.find((c) => c.code === 'PVS1')).toMatchObject({ strength: 'VeryStrong', points: 8 });
  });

  it('PVS1 (SVI 2018): NMD escape removing >10% of the protein is reduced to Strong, <=10% to Moderate', () => {
    expect(codes(buildEvidence({ consequences: ['stop_gained'], nmdEscape: true, cdsFractionAfter: 0.3 }))).toContain('PVS1:Strong');
    expect(codes(buildEvidence({ consequences: ['stop_gained'], nmdEscape: true, cdsFractionAfter: 0.05 }))).toContain('PVS1:Moderate');
  });

  it('PVS1 (SVI 2018 splice branch): frameshifting exon skip with NMD is Very strong; in-frame skip by protein share; start loss Moderate', () => {
    expect(codes(buildEvidence({ consequences: ['splice_donor_variant'], spliceSkip: null }))).toContain('PVS1:Strong');
    expect(codes(buildEvidence({ consequences: ['splice_donor_variant'], spliceSkip: { cdsBases: 100, inFrame: false, nmdEscape: false, fraction: 0.05 } }))).toContain('PVS1:VeryStrong');
    expect(codes(buildEvidence({ consequences: ['splice_acceptor_variant'], spliceSkip: { cdsBases: 300, inFrame: true, nmdEscape: false, fraction: 0.2 } }))).toContain('PVS1:Strong');
    expect(codes(buildEvidence({ consequences: ['splice_acceptor_variant'], spliceSkip: { cdsBases: 90, inFrame: true, nmdEscape: false, fraction: 0.05 } }))).toContain('PVS1:Moderate');
    const utrExon = classifyAcmg(buildEvidence({ consequences: ['splice_donor_variant'], spliceSkip: { cdsBases: 0, inFrame: true, nmdEscape: true, fraction: 0 } }));
    expect(utrExon.criteria.map((c) => c.code)).not.toContain('PVS1');
    expect(codes(buildEvidence({ consequences: ['start_lost'] }))).toContain('PVS1:Moderate');
  });

  it('PVS1 (Richards 2015: "LoF is a known mechanism of disease"): not applied in a LoF-tolerant gene without ClinVar LoF evidence', () => {
    const tolerant = buildGene({ constraint: { pLI: 0, loeuf: 1.4, oeLof: 1, misZ: 0, oeMis: 1, source: 'gnomAD v4.1', transcript: null }, clinvar: null });
    const r = classifyAcmg(buildEvidence({ consequences: ['frameshift_variant'], gene: tolerant }));
    expect(r.criteria.map((c) => c.code)).not.toContain('PVS1');
    expect(r.notAssessed.map((n) => n.code)).toContain('PVS1');
  });

  it('PVS1 uses ClinVar P/LP null variants as LoF-mechanism evidence when constraint is unavailable', () => {
    const g = buildGene({ constraint: null, clinvar: { totalAlleles: 10, plpAlleles: 5, uncertain: 0, conflicts: 0, plpLof: 3, plpMissense: 0, blbMissense: 0 } });
    expect(codes(buildEvidence({ consequences: ['frameshift_variant'], gene: g }))).toContain('PVS1:VeryStrong');
  });
});

describe('population frequency (BA1, BS1, PM2)', () => {
  it('BA1 (Richards 2015; SVI 2018): AF > 5% is stand-alone Benign whatever else applies', () => {
    const r = classifyAcmg(buildEvidence({ consequences: ['frameshift_variant'], af: 0.2, afSource: 'gnomAD', populationDataAvailable: true }));
    expect(r.classification).toBe('Benign');
    expect(r.criteria.map((c) => c.code)).toContain('BA1');
  });

  it('BS1 (Richards 2015): AF above 1% is Strong benign', () => {
    expect(codes(buildEvidence({ af: 0.02, populationDataAvailable: true }))).toContain('BS1:Strong');
  });

  it('PM2_Supporting (SVI 2020 PM2 recommendation): applied when absent from population data that cover the locus', () => {
    expect(codes(buildEvidence({ af: null, populationDataAvailable: true }))).toContain('PM2_Supporting:Supporting');
    expect(codes(buildEvidence({ af: 0.00001, populationDataAvailable: true }))).toContain('PM2_Supporting:Supporting');
  });

  it('PM2 is not applied, and is reported as not assessed, when there are no population data for the locus', () => {
    const r = classifyAcmg(buildEvidence({ af: null, populationDataAvailable: false }));
    expect(r.criteria.map((c) => c.code)).not.toContain('PM2_Supporting');
    expect(r.notAssessed.map((n) => n.code)).toContain('PM2/BA1/BS1');
  });
});

describe('PS1, PM5, PM1, PM4, PP2, BP1, BP3, BP7', () => {
  it('PS1 (Richards 2015): the same amino-acid change via a different nucleotide change is Strong; PM5 is then not added', () => {
    const ev = buildEvidence({ sameCodon: [{ refAa: 'R', altAa: 'G', pChange: 'p.R10G', clinvarId: '1', sameNucleotide: false }] });
    expect(codes(ev)).toContain('PS1:Strong');
    expect(codes(ev).some((c) => c.startsWith('PM5'))).toBe(false);
  });

  it('PM5 (Richards 2015): a different pathogenic missense at the same codon is Moderate', () => {
    const ev = buildEvidence({ sameCodon: [{ refAa: 'R', altAa: 'W', pChange: 'p.R10W', clinvarId: '2', sameNucleotide: false }] });
    expect(codes(ev)).toContain('PM5:Moderate');
  });

  it('PS1/PM5 are not assessed when the amino acid of the variant is unknown', () => {
    const r = classifyAcmg(buildEvidence({ altAa: null, sameCodon: [{ refAa: 'R', altAa: 'W', pChange: 'p.R10W', clinvarId: '2', sameNucleotide: false }] }));
    expect(r.criteria.map((c) => c.code)).not.toContain('PM5');
    expect(r.notAssessed.map((n) => n.code)).toContain('PS1/PM5');
  });

  it('PM1 (Richards 2015, hotspot proxy): >= 4 other pathogenic missense positions within 25 bp', () => {
    expect(codes(buildEvidence({ nearbyPathogenicMissense: 4 }))).toContain('PM1:Moderate');
    expect(codes(buildEvidence({ nearbyPathogenicMissense: 3 })).some((c) => c.startsWith('PM1'))).toBe(false);
  });

  it('PM4 (Richards 2015): in-frame deletion outside a repeat; BP3: in-frame indel inside a repeat', () => {
    expect(codes(buildEvidence({ consequences: ['inframe_deletion'], inRepeat: false }))).toContain('PM4:Moderate');
    expect(codes(buildEvidence({ consequences: ['inframe_deletion'], inRepeat: true }))).toContain('BP3:Supporting');
  });

  it('PP2 (Richards 2015): missense in a missense-constrained gene (mis_z >= 3.09) with few benign missense', () => {
    const g = buildGene({ clinvar: { totalAlleles: 50, plpAlleles: 20, uncertain: 0, conflicts: 0, plpLof: 2, plpMissense: 20, blbMissense: 1 } });
    expect(codes(buildEvidence({ gene: g }))).toContain('PP2:Supporting');
    const unconstrained = buildGene({ constraint: { pLI: 0, loeuf: 1, oeLof: 1, misZ: 1, oeMis: 1, source: 'gnomAD v4.1', transcript: null } });
    expect(codes(buildEvidence({ gene: unconstrained })).some((c) => c.startsWith('PP2'))).toBe(false);
  });

  it('BP1 (Richards 2015): missense in a gene where truncating variants cause disease', () => {
    const g = buildGene({ clinvar: { totalAlleles: 500, plpAlleles: 200, uncertain: 0, conflicts: 0, plpLof: 200, plpMissense: 5, blbMissense: 20 } });
    expect(codes(buildEvidence({ gene: g }))).toContain('BP1:Supporting');
  });

  it('BP7 (Richards 2015): synonymous outside the splice region; not at a splice region', () => {
    expect(codes(buildEvidence({ consequences: ['synonymous_variant'] }))).toContain('BP7:Supporting');
    expect(codes(buildEvidence({ consequences: ['splice_region_variant', 'synonymous_variant'] })).some((c) => c.startsWith('BP7'))).toBe(false);
  });
});

describe('PP3/BP4 (ClinGen SVI calibration, Pejaver 2022)', () => {
  it('maps REVEL to PP3 Strong/Moderate/Supporting and BP4 by the calibrated thresholds', () => {
    expect(codes(buildEvidence({ predictors: { revel: 0.95 } }))).toContain('PP3:Strong');
    expect(codes(buildEvidence({ predictors: { revel: 0.8 } }))).toContain('PP3:Moderate');
    expect(codes(buildEvidence({ predictors: { revel: 0.7 } }))).toContain('PP3:Supporting');
    expect(codes(buildEvidence({ predictors: { revel: 0.1 } }))).toContain('BP4:Moderate');
    expect(codes(buildEvidence({ predictors: { revel: 0.5 } })).some((c) => /PP3|BP4/.test(c))).toBe(false);
  });

  it('does not apply PP3/BP4 without predictor scores and says so', () => {
    const r = classifyAcmg(buildEvidence({ predictors: {} }));
    expect(r.notAssessed.map((n) => n.code)).toContain('PP3/BP4');
  });
});

describe('combination', () => {
  it('PVS1 (8) + PM2_Supporting (1) = 9 points: Likely pathogenic; + PM5 (2) = 11: Pathogenic', () => {
    const base = buildEvidence({ consequences: ['frameshift_variant'], populationDataAvailable: true });
    expect(classifyAcmg(base)).toMatchObject({ points: 9, classification: 'Likely pathogenic' });
    const more = classifyAcmg({ ...base, consequences: ['frameshift_variant', 'missense_variant'], sameCodon: [{ refAa: 'R', altAa: 'W', pChange: 'p.R1W', clinvarId: '3', sameNucleotide: false }] });
    expect(more.points).toBeGreaterThanOrEqual(10);
    expect(more.classification).toBe('Pathogenic');
  });
});

describe('pathogenicityScore', () => {
  const base: ScoreInput = { consequences: ['missense_variant'], af: null, acmgPoints: 0, clinvar: null };
  it('stays in [0, 1] and is monotone in severity, rarity, ACMG points and ClinVar stars', () => {
    const s = (x: Partial<ScoreInput>): number => pathogenicityScore({ ...base, ...x });
    expect(s({ consequences: ['frameshift_variant'] })).toBeGreaterThan(s({}));
    expect(s({})).toBeGreaterThan(s({ consequences: ['synonymous_variant'] }));
    expect(s({ af: 0.0001 })).toBeLessThan(s({ af: 0.00001 }));
    expect(s({ af: 0.2 })).toBeLessThan(s({ af: 0.001 }));
    expect(s({ acmgPoints: 6 })).toBeGreaterThan(s({ acmgPoints: 2 }));
    expect(s({ clinvar: { significance: 'Pathogenic', stars: 3 } })).toBeGreaterThan(s({ clinvar: { significance: 'Pathogenic', stars: 1 } }));
    expect(s({ clinvar: { significance: 'Benign', stars: 2 } })).toBeLessThan(s({}));
    for (const pts of [-20, -7, 0, 10, 30]) {
      const v = s({ acmgPoints: pts, consequences: ['transcript_ablation'], clinvar: { significance: 'Pathogenic', stars: 4 } });
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });

  it('scores an unresolved codon change by the expected severity of its possible outcomes', () => {
    const s = (x: Partial<ScoreInput>): number => pathogenicityScore({ ...base, ...x });
    const unknown: Partial<ScoreInput> = { consequences: ['coding_sequence_variant'] };
    // 0.96 synonymous (0.1) + 0.04 missense (0.6) = 0.12; 0.60 missense + 0.21 stop (0.95) + 0.19 synonymous = 0.36 + 0.1995 + 0.019 = 0.5785.
    expect(expectedCodingSeverity([{ term: 'synonymous_variant', p: 0.96 }, { term: 'missense_variant', p: 0.04 }])).toBeCloseTo(0.12, 10);
    expect(expectedCodingSeverity([{ term: 'missense_variant', p: 0.6 }, { term: 'stop_gained', p: 0.21 }, { term: 'synonymous_variant', p: 0.19 }])).toBeCloseTo(0.5785, 10);
    // Score = 0.5 * severity (rare, no ACMG points: + 0.5 * posterior(0) = 0.05).
    expect(s({ ...unknown, codingOutcome: [{ term: 'synonymous_variant', p: 0.96 }, { term: 'missense_variant', p: 0.04 }] })).toBeCloseTo(0.5 * 0.12 + 0.05, 10);
    expect(s(unknown)).toBeCloseTo(0.5 * 0.5 + 0.05, 10);
    // A certain term is not replaced: the distribution only stands in for coding_sequence_variant.
    expect(s({ consequences: ['splice_region_variant', 'coding_sequence_variant'], codingOutcome: [{ term: 'synonymous_variant', p: 1 }] })).toBeCloseTo(0.5 * 0.35 + 0.05, 10);
    expect(s({ codingOutcome: [{ term: 'synonymous_variant', p: 1 }] })).toBe(s({}));
  });
});
