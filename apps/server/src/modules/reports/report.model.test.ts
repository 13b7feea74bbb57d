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
    const text = draftInterpretation([v], [buildDiseaseRow()], 3, reviews);
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

  describe('a finding that explains the phenotype and one that does not (Pfeiffer exome)', () => {
    const fgfr2 = buildVariantRow({ id: 1, rank: 1, acmgClass: 'Uncertain significance' });
    const ltbp4 = buildVariantRow({
      id: 7,
      rank: 7,
      chrom: '19',
      pos: 40619683,
      ref: 'C',
      alt: 'CG',
      gene: 'LTBP4',
      transcript: 'NM_001042545.2',
      consequence: 'frameshift_variant',
      hgvsC: 'c.3032_3033insG',
      hgvsP: null,
      zygosity: 'homozygous',
      clinvarSignificance: null,
      clinvar: null,
      acmgClass: 'Likely pathogenic',
      acmgCriteria: [{ code: 'PVS1', strength: 'VeryStrong', points: 8, reason: 'x' }],
    });
    const pfeiffer = buildDiseaseRow();
    // Every patient term is stored with its match kind; a match through a broad ancestor ('partial') does not explain the feature.
    const cutisLaxa = buildDiseaseRow({
      diseaseId: 'OMIM:613177',
      rank: 40,
      name: 'Cutis laxa, autosomal recessive, type IC',
      inheritance: [{ id: 'HP:0000007', label: 'Autosomal recessive inheritance' }],
      genes: ['LTBP4'],
      matchedTerms: [
        { id: 'HP:0011304', label: 'Broad thumb', match: 'partial' },
        { id: 'HP:0000244', label: 'Brachyturricephaly', match: 'unmatched' },
      ],
    });
    const paragraphs = (text: string) => text.split('\n\n');

    it('puts the finding that fits the phenotype first, whatever the other\'s class', () => {
      const text = draftInterpretation([ltbp4, fgfr2], [pfeiffer, cutisLaxa]);
      const [first, second] = paragraphs(text);
      expect(first).toMatch(/identified in FGFR2\./);
      expect(second).toMatch(/identified in LTBP4\./);
    });

    it('calls only the matching finding consistent with the clinical presentation and says the other is not known to explain it', () => {
      const [first, second, closing] = paragraphs(draftInterpretation([ltbp4, fgfr2], [pfeiffer, cutisLaxa]));
      expect(first).toContain('The associated disease is consistent with the clinical presentation, but the variant is classified as Uncertain significance.');
      expect(second).toContain('LTBP4 is associated with Cutis laxa, autosomal recessive, type IC (autosomal recessive inheritance).');
      expect(second).not.toContain('overlap');
      expect(second).toContain('This finding is not known to explain the clinical presentation.');
      expect(second).not.toContain('consistent with the clinical presentation');
      expect(closing).toMatch(/^No pathogenic or likely pathogenic variant known to explain the clinical presentation was identified\./);
      // The same LTBP4 finding without any disease of its gene ranked.
      expect(draftInterpretation([ltbp4], [pfeiffer])).toContain('This finding is not known to explain the clinical presentation.');
    });

    it('says a pathogenic finding that fits is consistent with the clinical presentation', () => {
      const text = draftInterpretation([ltbp4, buildVariantRow({ id: 1, rank: 1, acmgClass: 'Pathogenic' })], [pfeiffer, cutisLaxa]);
      const [first, , closing] = paragraphs(text);
      expect(first).toContain('This finding is consistent with the clinical presentation.');
      expect(closing).toMatch(/^Confirmation of the variant\(s\) by an orthogonal method/);
    });

    it("orders findings that fit by the reviewer's class when set", () => {
      const other = buildVariantRow({ id: 2, rank: 2, pos: 121496702, hgvsC: 'c.1693G>C', hgvsP: 'p.(Glu565Gln)', acmgClass: 'Likely pathogenic' });
      expect(paragraphs(draftInterpretation([other, fgfr2], [pfeiffer]))[0]).toContain('c.1693G>C');
      const reviews = new Map([
        [
          `${fgfr2.chrom}:${fgfr2.pos}:${fgfr2.ref}:${fgfr2.alt}`,
          { classification: 'Pathogenic' as const, reason: 'de novo', reviewer: { id: 'u1', name: null, email: 'ada@example.org' }, updatedAt: '2026-11-25T09:30:00.000Z', automaticClass: 'Uncertain significance' },
        ],
      ]);
      const [first] = paragraphs(draftInterpretation([other, fgfr2], [pfeiffer], 3, reviews));
      expect(first).toContain('c.1694A>C');
      expect(first).toContain('This finding is consistent with the clinical presentation.');
    });

    it('makes no claim about the fit when the case has no phenotype terms', () => {
      const text = draftInterpretation([ltbp4, fgfr2], [buildDiseaseRow({ matchedTerms: [] }), { ...cutisLaxa, matchedTerms: [] }], 3, undefined, false);
      expect(text).not.toContain('clinical presentation was identified');
      expect(text).not.toContain('not known to explain');
      expect(text).toContain('No phenotype terms were given: the fit of the findings to the clinical presentation was not assessed.');
      expect(paragraphs(text)[0]).toMatch(/identified in LTBP4\./);
    });
  });

  it('keeps to the top three variants', () => {
    const variants = [1, 2, 3, 4].map((i) => buildVariantRow({ id: i, rank: i, gene: `GENE${i}` }));
    const text = draftInterpretation(variants, []);
    expect(text).toContain('GENE3');
    expect(text).not.toContain('GENE4');
  });
});
