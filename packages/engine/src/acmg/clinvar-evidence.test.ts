/**
 * PS1 / PM5 and the ClinVar-backed PP5 / BP6 option on real ClinVar records, through the
 * annotator and the installed knowledge base (RARELENS_KB, else ./data/kb; skipped without one).
 * FGFR2 (minus strand, NM_000141) codons 290, 549 and 565 carry several pathogenic missense
 * changes in ClinVar and in the InterVar PS1 table (ids there are ClinVar AlleleIDs).
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnnotator, type Annotator } from '../annotate/annotator.ts';
import { loadGenomeKb, type GenomeKb } from '../kb/genome-kb.ts';
import type { AnnotatedVariant } from '../types.ts';
import { classifyAcmg, clinvarCriterion, type AcmgEvidence } from './classify.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const KB = resolve(process.env.RARELENS_KB ?? join(repoRoot, 'data/kb'));
const hasKb = ['bin', 'json'].some((ext) => existsSync(join(KB, 'genome', `clinvar.grch38.${ext}`)));

let genome: GenomeKb;
let plain: Annotator;
let withClinvar: Annotator;

beforeAll(async () => {
  if (!hasKb) return;
  genome = await loadGenomeKb(KB);
  plain = createAnnotator(genome);
  withClinvar = createAnnotator(genome, { acmg: { clinvarCriteria: true } });
}, 120_000);

const at = (a: Annotator, chrom: string, pos: number, ref: string, alt: string): AnnotatedVariant => a.annotate({ chrom, pos, ref, alt });
const codes = (v: AnnotatedVariant): string[] => v.acmg.criteria.map((c) => c.code);

describe.skipIf(!hasKb)('ClinVar evidence on real records (installed KB)', () => {
  it('reports the ClinVar assertion of the Pfeiffer FGFR2 allele with its review status, release and Variation ID', () => {
    // GRCh37 10:123256215 T>G (the spiked Pfeiffer exome variant) is GRCh38 10:121496701 T>G.
    const v = at(plain, '10', 121496701, 'T', 'G');
    expect(v.gene).toBe('FGFR2');
    expect(v.hgvsP).toBe('p.(Glu565Ala)');
    expect(v.clinvar).toMatchObject({
      significance: 'Pathogenic',
      stars: 0,
      match: 'exact',
      id: '13294',
      idType: 'variation',
      reviewStatus: 'no assertion criteria provided',
      source: 'grch37-lifted',
    });
    expect(v.clinvar?.release).toBe(genome.clinvar.releaseOf('grch37-lifted'));
    expect(v.clinvar?.release).toMatch(/^\d{4}-\d{2}/);
  });

  it('applies PM5 (not PS1) to FGFR2 p.Glu565Ala: the pathogenic change at that codon is p.E566G, another amino acid', () => {
    const v = at(plain, '10', 121496701, 'T', 'G');
    expect(codes(v)).toContain('PM5');
    expect(codes(v)).not.toContain('PS1');
    const pm5 = v.acmg.criteria.find((c) => c.code === 'PM5');
    expect(pm5?.reason).toContain('p.E566G');
    expect(pm5?.reason).toContain('AlleleID 361707');
    expect(pm5?.points).toBe(2);
    // PM5 (2) + PP2 (1) = 3 points: the class stays VUS without population data or predictor scores.
    expect(v.acmg.points).toBe(3);
    expect(v.acmg.classification).toBe('Uncertain significance');
  });

  it('applies PS1 to FGFR2 c.A>T p.Asn549Lys: the same amino-acid change is pathogenic in ClinVar through A>C, and PM5 is not added', () => {
    const v = at(plain, '10', 121498520, 'A', 'T');
    expect(codes(v)).toContain('PS1');
    expect(codes(v)).not.toContain('PM5');
    const ps1 = v.acmg.criteria.find((c) => c.code === 'PS1');
    expect(ps1?.points).toBe(4);
    expect(ps1?.reason).toContain('p.N550K');
    // The PS1 evidence is the other nucleotide change (A>C, AlleleID 363035), not this allele's own row.
    expect(ps1?.reason).toContain('AlleleID 363035');
    expect(v.clinvar).toMatchObject({ match: 'same_amino_acid', idType: 'allele', source: 'intervar' });
  });

  it('keeps ClinVar out of the criteria by default and applies PP5 / BP6 with the option only for records with review criteria', () => {
    // BRCA1 expert-panel records of the 2026 GRCh38 release.
    const path = at(plain, '17', 43045711, 'G', 'C');
    expect(path.clinvar).toMatchObject({ significance: 'Pathogenic', stars: 3, id: '55630' });
    expect(codes(path)).not.toContain('PP5');
    const pathOpt = at(withClinvar, '17', 43045711, 'G', 'C');
    expect(codes(pathOpt)).toContain('PP5');
    expect(pathOpt.acmg.points).toBe(path.acmg.points + 1);

    const benign = at(withClinvar, '17', 43044346, 'C', 'T');
    expect(benign.clinvar).toMatchObject({ significance: 'Benign', stars: 3, id: '209232' });
    const bp6 = benign.acmg.criteria.find((c) => c.code === 'BP6');
    expect(bp6?.points).toBe(-1);
    expect(bp6?.reason).toContain('deprecated by ClinGen SVI');

    // The Pfeiffer allele's record has no assertion criteria (0 stars): no PP5 even with the option, and the reason says so.
    const fgfr2 = at(withClinvar, '10', 121496701, 'T', 'G');
    expect(codes(fgfr2)).not.toContain('PP5');
    expect(fgfr2.acmg.notAssessed?.find((n) => n.code === 'PP5/BP6')?.reason).toContain('0 stars');
  });
});

describe('clinvarCriterion', () => {
  const base = { stars: 2, reviewStatus: 'criteria provided, multiple submitters, no conflicts', release: '2026-02-26', id: '1' };
  it('gives PP5 for Pathogenic/Likely pathogenic, BP6 for Benign/Likely benign, nothing for conflicts or VUS', () => {
    expect(clinvarCriterion({ ...base, significance: 'Pathogenic/Likely pathogenic' }).criterion?.code).toBe('PP5');
    expect(clinvarCriterion({ ...base, significance: 'Likely benign' }).criterion?.code).toBe('BP6');
    expect(clinvarCriterion({ ...base, significance: 'Conflicting classifications of pathogenicity' }).criterion).toBeNull();
    expect(clinvarCriterion({ ...base, significance: 'Uncertain significance' }).criterion).toBeNull();
    expect(clinvarCriterion(null).reason).toBe('no ClinVar record for this allele');
  });

  it('is applied by classifyAcmg only when the option is on', () => {
    const ev: AcmgEvidence = {
      consequences: ['synonymous_variant'],
      gene: null,
      nmdEscape: null,
      cdsFractionAfter: null,
      refAa: null,
      altAa: null,
      af: null,
      afSource: null,
      populationDataAvailable: false,
      sameCodon: [],
      nearbyPathogenicMissense: null,
      inRepeat: null,
      predictors: {},
      clinvar: { ...base, significance: 'Benign' },
    };
    expect(classifyAcmg(ev).criteria.map((c) => c.code)).toEqual(['BP7']);
    expect(classifyAcmg(ev, { clinvarCriteria: true }).criteria.map((c) => c.code)).toEqual(['BP7', 'BP6']);
    expect(classifyAcmg(ev, { clinvarCriteria: true }).classification).toBe('Likely benign');
  });
});
