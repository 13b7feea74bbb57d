import { describe, expect, it } from 'vitest';
import { byClinicalPriority, criteriaCodes, draftInterpretation, formatClinvar, formatConsequence, formatFrequency, formatReview, fullHgvsC, matchedPhenotypes, reviewOf } from './report.model.ts';
import { buildDiseaseRow, buildVariantRow } from './testing/builders.ts';

describe('criteriaCodes', () => {
  it('writes a criterion at its default strength as the bare code and others with the strength', () => {
    expect(
      criteriaCodes([
        { code: 'PVS1', strength: 'VeryStrong', points: 8, reason: '' },
        { code: 'PM2_Supporting', strength: 'Supporting', points: 1, reason: '' },
        { code: 'PP3', strength: 'Moderate', points: 2, reason: '' },
        { code: 'BS1', strength: 'Strong', points: -4, reason: '' },
      ]),
    ).toEqual(['PVS1', 'PM2_Supporting', 'PP3_Moderate', 'BS1']);
  });

  it('answers no codes for a value that is not a list', () => {
    expect(criteriaCodes(null)).toEqual([]);
  });
});

describe('display helpers', () => {
  it('prefixes the transcript to a c. notation without one, and keeps a full one', () => {
    expect(fullHgvsC(buildVariantRow())).toBe('NM_000141.5:c.1694A>C');
    expect(fullHgvsC(buildVariantRow({ hgvsC: 'NM_000141.5:c.1694A>C' }))).toBe('NM_000141.5:c.1694A>C');
    expect(fullHgvsC(buildVariantRow({ hgvsC: null }))).toBeNull();
  });

  it('writes "not available" for an unknown population frequency', () => {
    expect(formatFrequency(null, null)).toBe('not available');
    expect(formatFrequency(0.00002, 'gnomAD')).toBe('2.00e-5 (gnomAD)');
    expect(formatFrequency(0.2, null)).toBe('0.2000');
  });

  it('turns Sequence Ontology terms and ClinVar records into words', () => {
    expect(formatConsequence('splice_donor_variant')).toBe('splice donor variant');
    expect(formatConsequence('stop_gained')).toBe('stop gained');
    expect(formatConsequence(null)).toBe('not available');
    // A result stored before review status and release were kept: the status follows from the stars.
    expect(formatClinvar(buildVariantRow())).toBe('Pathogenic (2 stars, criteria provided, multiple submitters, no conflicts) VCV 13294');
    expect(
      formatClinvar(
        buildVariantRow({
          clinvar: { significance: 'Pathogenic', stars: 0, id: '13294', match: 'exact', reviewStatus: 'no assertion criteria provided', release: '2016-09', source: 'grch37-lifted' },
        }),
      ),
    ).toBe('Pathogenic (0 stars, no assertion criteria provided) VCV 13294 release 2016-09');
    expect(
      formatClinvar(buildVariantRow({ clinvar: { significance: 'Pathogenic', stars: 0, id: '361707', idType: 'allele', match: 'same_codon', source: 'intervar' } })),
    ).toBe('Pathogenic (other missense at this codon) AlleleID 361707');
    expect(formatClinvar(buildVariantRow({ clinvarSignificance: null, clinvar: null }))).toBe('not in ClinVar');
  });

  it('leads with the reviewer class and records the reason, the automatic class and ClinVar in the draft', () => {
    const v = buildVariantRow({ acmgClass: 'Uncertain significance', acmgCriteria: [{ code: 'PM5', strength: 'Moderate', points: 2, reason: 'x' }] });
    const reviews = new Map([
      [
        `${v.chrom}:${v.pos}:${v.ref}:${v.alt}`,
        {
          classification: 'Likely pathogenic' as const,
          reason: 'recurrent Pfeiffer allele, de novo',
          reviewer: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.org' },
          updatedAt: '2026-11-25T09:30:00.000Z',
          automaticClass: 'Uncertain significance',
        },
      ],
    ]);
    const text = draftInterpretation([v], [], 3, reviews);
    expect(text).toContain('It is classified as Uncertain significance (PM5) according to the automated ACMG/AMP criteria.');
    expect(text).toContain('ClinVar: Pathogenic (2 stars');
    expect(text).toContain('The reviewer classified it as Likely pathogenic: recurrent Pfeiffer allele, de novo.');
    expect(text).toContain('consistent with the clinical presentation');
    expect(draftInterpretation([v], [])).toContain('clinical significance of the reported variant(s) is uncertain');
    const review = reviewOf(reviews, v)!;
    expect(formatReview(review, 'Uncertain significance')).toBe(
      'Likely pathogenic — recurrent Pfeiffer allele, de novo (Ada Lovelace <ada@example.org>, 2026-11-25 09:30 UTC); automatic class Uncertain significance',
    );
  });

  it('ends the reviewer\'s reason with one full stop whether or not it has one', () => {
    const v = buildVariantRow();
    const review = (reason: string) =>
      new Map([
        [
          `${v.chrom}:${v.pos}:${v.ref}:${v.alt}`,
          { classification: 'Pathogenic' as const, reason, reviewer: { id: 'u1', name: null, email: 'ada@example.org' }, updatedAt: '2026-11-25T09:30:00.000Z', automaticClass: 'Likely pathogenic' },
        ],
      ]);
    expect(draftInterpretation([v], [], 3, review('phenotype fits.'))).toMatch(/The reviewer classified it as Pathogenic: phenotype fits\.(\s|$)/);
    expect(draftInterpretation([v], [], 3, review('phenotype fits.'))).not.toContain('fits..');
    expect(draftInterpretation([v], [], 3, review('  phenotype fits '))).toMatch(/The reviewer classified it as Pathogenic: phenotype fits\.(\s|$)/);
  });

  it('orders variants by ACMG class, then rank (unranked last)', () => {
    const vus = buildVariantRow({ id: 1, rank: 1, acmgClass: 'Uncertain significance' });
    const lp = buildVariantRow({ id: 2, rank: 5, acmgClass: 'Likely pathogenic' });
    const unranked = buildVariantRow({ id: 3, rank: null, acmgClass: 'Likely pathogenic' });
    expect([vus, unranked, lp].sort(byClinicalPriority).map((v) => v.id)).toEqual([2, 3, 1]);
  });
});

describe('matchedPhenotypes', () => {
  it('lists the terms the disease explains (exact, implied, partial), not those it leaves unmatched or contradicts', () => {
    const d = buildDiseaseRow({
      matchedTerms: [
        { id: 'HP:0011304', label: 'Broad thumb', match: 'exact' },
        { id: 'HP:0001363', label: 'Craniosynostosis', match: 'implied' },
        { id: 'HP:0000365', label: 'Hearing impairment', match: 'partial' },
        { id: 'HP:0011800', label: 'Midface retrusion', match: 'unmatched' },
        { id: 'HP:0000520', label: 'Proptosis', match: 'contradicted' },
      ],
    });
    expect(matchedPhenotypes(d).map((t) => t.label)).toEqual(['Broad thumb', 'Craniosynostosis', 'Hearing impairment']);
    expect(draftInterpretation([buildVariantRow()], [d])).toContain("whose features overlap the patient's: Broad thumb, Craniosynostosis, Hearing impairment.");
  });
});

describe('draftInterpretation', () => {
  it('describes the top variant with its class, criteria and the matching disease', () => {
    const text = draftInterpretation([buildVariantRow()], [buildDiseaseRow()]);
    expect(text).toContain('A heterozygous missense variant NM_000141.5:c.1694A>C p.(Glu565Ala) was identified in FGFR2.');
    expect(text).toContain('classified as Likely pathogenic (PS1, PM2_Supporting, PP3_Moderate)');
    expect(text).toContain('FGFR2 is associated with Pfeiffer syndrome (autosomal dominant inheritance)');
    expect(text).toContain('Broad thumb, Brachyturricephaly');
    expect(text).toContain('segregation analysis in the parents');
  });

  it('gives the expected codon outcome of a coding variant whose codon is not known', () => {
    const outcome = { codingOutcome: [{ term: 'synonymous_variant', p: 0.96 }, { term: 'missense_variant', p: 0.04 }] };
    const v = buildVariantRow({ consequence: 'coding_sequence_variant', hgvsP: null, details: { acmgNotAssessed: [], otherGenes: [], geneConstraint: null, ...outcome } });
    expect(draftInterpretation([v], [])).toContain(
      'A heterozygous coding sequence variant NM_000141.5:c.1694A>C was identified in FGFR2. It is classified as Likely pathogenic (PS1, PM2_Supporting, PP3_Moderate) according to the automated ACMG/AMP criteria. Expected codon outcome: probably synonymous (P = 0.96; missense P = 0.04; codon not known without the reference sequence).',
    );
    expect(draftInterpretation([buildVariantRow()], [])).not.toContain('Expected codon outcome');
  });

  it('calls uncertain findings uncertain', () => {
    const text = draftInterpretation([buildVariantRow({ acmgClass: 'Uncertain significance' })], []);
    expect(text).toContain('clinical significance of the reported variant(s) is uncertain');
    expect(text).not.toContain('consistent with the clinical presentation');
  });

  it('says so when nothing was selected', () => {
    expect(draftInterpretation([], [])).toMatch(/^No variant was selected for reporting\./);
  });

  it('keeps to the top three variants', () => {
    const variants = [1, 2, 3, 4].map((i) => buildVariantRow({ id: i, rank: i, gene: `GENE${i}` }));
    const text = draftInterpretation(variants, []);
    expect(text).toContain('GENE3');
    expect(text).not.toContain('GENE4');
  });
});
