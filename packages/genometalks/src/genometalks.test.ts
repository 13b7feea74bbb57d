import { Messages } from '@rarelens/contract';
import { describe, expect, it } from 'vitest';
import type { CaseContext, Citation } from './context.ts';
import { createGenomeTalks, MAX_QUESTION_LENGTH } from './genometalks.ts';
import { recognizeIntent } from './intents.ts';
import { findPositions, normalizeProtein, resolveMentions } from './resolve.ts';
import { buildCase, buildKnowledge, DEFAULT_VARIANTS, PFEIFFER_VARIANT } from './testing/build-case.ts';

const knowledge = buildKnowledge();
const ctx = buildCase(knowledge);
const talks = createGenomeTalks(knowledge);

/** Every citation names something the case (or its diseases' annotations) holds, with its screen. */
function expectGrounded(citations: Citation[], c: CaseContext = ctx): void {
  const terms = new Set([
    ...c.product.hpoTerms.map((t) => t.id),
    ...c.product.excludedTerms.map((t) => t.id),
    ...c.diseases.flatMap((d) => knowledge.hpo.diseaseById.get(d.id)?.annotations.map((a) => a.term) ?? []),
  ]);
  for (const cit of citations) {
    switch (cit.kind) {
      case 'gene':
        expect(c.genes.map((g) => g.symbol)).toContain(cit.id);
        expect(cit.href).toBe(`/my-product/case-1/genes/${cit.id}`);
        break;
      case 'disease':
        expect(c.diseases.map((d) => d.id)).toContain(cit.id);
        expect(cit.href).toBe(`/my-product/case-1/phenotypes/${encodeURIComponent(cit.id)}`);
        break;
      case 'variant':
        expect(c.variants.map((v) => String(v.id))).toContain(cit.id);
        expect(cit.href).toContain(`variant=${cit.id}`);
        break;
      case 'hpo':
        expect(terms).toContain(cit.id);
        break;
      case 'clinvar':
        expect(c.variants.map((v) => v.clinvarRecord?.id)).toContain(cit.id);
        break;
      case 'acmg': {
        const [id, code] = cit.id.split(':');
        expect(c.variants.find((v) => String(v.id) === id)?.acmgCriteria.map((k) => k.code)).toContain(code);
        break;
      }
    }
  }
}

describe('GenomeTalks answers without a model', () => {
  it('names the top gene and why: its disease, matched and unmatched terms, inheritance fit and variant', () => {
    const a = talks.answer('Why is this gene first?', ctx);
    expect(a.intent).toBe('top-candidate');
    expect(ctx.genes[0]?.symbol).toBe('FGFR2');
    expect(a.text).toContain('The most likely candidate is FGFR2');
    expect(a.text).toContain('Pfeiffer syndrome (OMIM:101600)');
    expect(a.text).toMatch(/Matched terms[^\n]*Broad thumb \(LR [\d.]+/);
    expect(a.text).toMatch(/Not explained by Pfeiffer syndrome: Seizure/);
    expect(a.text).toContain('autosomal dominant');
    expect(a.text).toContain('c.755C>G');
    expect(a.citations.map((c) => `${c.kind}:${c.id}`)).toEqual(expect.arrayContaining(['gene:FGFR2', 'disease:OMIM:101600', 'hpo:HP:0011304', 'variant:100', 'acmg:100:PS1', 'clinvar:VCV000013272']));
    expectGrounded(a.citations);
  });

  it('says a case without HPO terms is ranked on its variants alone, with no phenotype match', () => {
    const bare = buildCase(knowledge, { present: [], excluded: [] });
    const a = talks.answer('Why is this gene first?', bare);
    expect(a.intent).toBe('top-candidate');
    expect(a.text).toContain(`Phenotype: none. ${Messages.noHpoTerms}`);
    expect(a.text).not.toMatch(/best-matching disease|likelihood ratio 10\^/);
    expect(talks.answer('Why is this gene first?', ctx).text).not.toContain(Messages.noHpoTerms);
  });

  it('names the disease feature a term was met through, whose frequency it gives', () => {
    // Broad palm is not a Pfeiffer feature: it meets one only through a related feature.
    const c = buildCase(knowledge, { present: ['HP:0001363', 'HP:0011304', 'HP:0001169'] });
    const a = talks.answer('Why is FGFR2 first?', c);
    expect(a.text).toMatch(/Broad palm \(LR [\d.]+; related to [A-Z][a-z]+/);
    expect(a.text).not.toMatch(/Broad palm \(LR [\d.]+, \d+ % of patients\)/);
    expect(a.text).toMatch(/Broad thumb \(LR [\d.]+, 90 % of patients\)/);
  });

  it('explains a named gene by symbol or alias and its neighbours in the ranking', () => {
    for (const q of ['why is TWIST1 ranked where it is?', 'Why is twist1 second?']) {
      const a = talks.answer(q, ctx);
      expect(a.intent).toBe('gene');
      expect(a.text).toMatch(/^TWIST1 is ranked #2 of 4 genes/);
      expect(a.text).toContain('Saethre-Chotzen syndrome (OMIM:101400)');
      // Ranked as a possible new disease of the gene: its known disease is named, never denied.
      expect(a.text).not.toContain('has no disease annotated');
      expect(a.text).toMatch(/none of TWIST1's known diseases \(Saethre-Chotzen syndrome \(OMIM:101400\)[^)]*\) fits the case better than a possible new disease/);
      expect(a.text).toContain('Ranked above it: FGFR2 (#1');
      expectGrounded(a.citations);
    }
    expect(talks.answer('tell me about BEK', ctx).text).toMatch(/^FGFR2 is ranked #1/);
    expect(talks.answer('what about the second gene?', ctx).text).toMatch(/^TWIST1 is ranked #2/);
  });

  it("reads the engine's phenotype source, not the explanation's wording", () => {
    // The same case with the phenotype lines of every explanation gone: the answers do not change.
    const reworded = { ...ctx, genes: ctx.genes.map((g) => ({ ...g, explanation: g.explanation.filter((l) => !l.startsWith('Phenotype:') && !l.startsWith('No annotated disease')) })) };
    const top = talks.answer('why is FGFR2 ranked where it is?', reworded).text;
    expect(top).toMatch(/Phenotype: its best-matching disease is Pfeiffer syndrome \(OMIM:101600\), ranked #\d+ of the diseases: phenotype likelihood ratio 10\^-0\.2\./);
    const twist = talks.answer('why is TWIST1 ranked where it is?', reworded).text;
    expect(ctx.genes.find((g) => g.symbol === 'TWIST1')?.phenotypeSource).toEqual({ source: 'none', disease: null });
    expect(twist).toMatch(/none of TWIST1's known diseases \(Saethre-Chotzen syndrome \(OMIM:101400\)\) fits the case better than a possible new disease/);
    expect(twist).not.toContain('best-matching disease');
  });

  it('says when a gene is ranked on a possibly allelic disease', () => {
    // CDKL5's disease is X-linked recessive; one heterozygous variant in a girl does not fit it.
    const epilepsy = buildCase(knowledge, { present: ['HP:0001250', 'HP:0001249', 'HP:0001252'], excluded: [] });
    expect(epilepsy.genes.find((g) => g.symbol === 'CDKL5')?.phenotypeSource).toEqual({ source: 'allelic', disease: { id: 'OMIM:300672', label: 'Developmental and epileptic encephalopathy 2' } });
    const a = talks.answer('why is CDKL5 ranked where it is?', epilepsy);
    expect(a.text).toContain('its best-matching disease is Developmental and epileptic encephalopathy 2 (OMIM:300672)');
    expect(a.text).toContain("Possibly allelic disease: the case's genotype does not fit the stated inheritance of Developmental and epileptic encephalopathy 2, so CDKL5 is ranked on its phenotype as a related disease of the same gene with unknown inheritance.");
    expectGrounded(a.citations, epilepsy);
    // FGFR2 in the default case is ranked on its annotated disease: no such sentence.
    expect(talks.answer('why is FGFR2 ranked where it is?', ctx).text).not.toContain('allelic');
  });

  it('names a disease known only by its name, what its name states and what that matches', () => {
    // Craniosynostosis 1 (TWIST1) has no phenotype annotations: the engine ranks on its name's feature.
    const cs1 = { id: 'OMIM:123100', name: 'Craniosynostosis 1', mondo: null, nameTerms: ['HP:0001363'], inheritance: ['HP:0000006'], genes: ['TWIST1'] };
    const genes = new Map([...knowledge.hpo.genes].map(([s, g]) => [s, s === 'TWIST1' ? { ...g, diseases: [...g.diseases, { id: cs1.id, association: 'MENDELIAN' as const }] } : g]));
    const named = { hpo: { ...knowledge.hpo, genes, namedDiseases: new Map([[cs1.id, cs1]]) } };
    const c = buildCase(named);
    const twist = c.genes.find((g) => g.symbol === 'TWIST1');
    expect(twist?.phenotypeSource).toEqual({ source: 'disease-name', disease: { id: 'OMIM:123100', label: 'Craniosynostosis 1' } });
    const a = createGenomeTalks(named).answer('why is TWIST1 ranked where it is?', c).text;
    expect(a).toContain(`Phenotype: TWIST1's disease Craniosynostosis 1 (OMIM:123100) has no HPO phenotype annotations yet, so it is ranked on the features its name states (Craniosynostosis; likelihood ratio 10^${twist?.phenotypeScore.toFixed(1)}, matching Craniosynostosis), its variants and gene constraint.`);
    expect(a).not.toContain('possible new disease');
  });

  it('says a disease in no series was ranked on the phenotype of diseases with similar names', () => {
    const disease = { id: 'OMIM:600001', label: 'Pfeiffer-like craniofacial syndrome' };
    const c = { ...ctx, genes: ctx.genes.map((g) => (g.symbol === 'TWIST1' ? { ...g, phenotypeSource: { source: 'similar-titles' as const, disease } } : g)) };
    const twist = c.genes.find((g) => g.symbol === 'TWIST1');
    const a = talks.answer('why is TWIST1 ranked where it is?', c).text;
    expect(a).toContain(`Phenotype: TWIST1's disease Pfeiffer-like craniofacial syndrome (OMIM:600001) has no HPO phenotype annotations yet and belongs to no series, so it is ranked on a phenotype inferred from the annotated diseases with the most similar names (likelihood ratio 10^${twist?.phenotypeScore.toFixed(1)}), its variants and gene constraint.`);
    expect(a).not.toContain('possible new disease');
  });

  it('says an analysis ranked before the phenotype source was stored cannot name its disease', () => {
    const legacy = { ...ctx, genes: ctx.genes.map((g) => ({ ...g, phenotypeSource: null })) };
    const a = talks.answer('why is FGFR2 ranked where it is?', legacy).text;
    expect(a).toContain('Phenotype: phenotype likelihood ratio 10^-0.2; this analysis was ranked before the source of a gene\'s phenotype evidence was stored, so re-analyse the case to see which disease it rests on.');
    expect(a).not.toContain('best-matching disease');
  });

  it('describes a variant named by HGVS c., one-letter p., or locus, with ClinVar and the ACMG criteria that fired', () => {
    for (const q of ['What is c.755C>G?', 'what is p.S252W', 'tell me about the variant at chr10:121,520,160 G>C']) {
      const a = talks.answer(q, ctx);
      expect(a.intent).toBe('variant');
      expect(a.text).toContain('FGFR2 c.755C>G p.(Ser252Trp)');
      expect(a.text).toContain('ClinVar Pathogenic, 3 of 4 stars (reviewed by expert panel), release 2026-02-26 (VCV000013272)');
      expect(a.text).toContain('PS1 (Strong, +4): Same amino-acid change');
      expect(a.text).toContain('ACMG/AMP: Pathogenic (12 points');
      expectGrounded(a.citations);
    }
  });

  it("gives a variant's expected codon outcome when its codon is not known, and only then", () => {
    const codonUnknown = { ...PFEIFFER_VARIANT, consequence: 'coding_sequence_variant', hgvsP: null, codingOutcome: [{ term: 'missense_variant', p: 0.82 }, { term: 'synonymous_variant', p: 0.18 }] };
    const c = buildCase(knowledge, { variants: [codonUnknown, ...DEFAULT_VARIANTS.filter((v) => v.gene !== 'FGFR2')] });
    const a = talks.answer('What is c.755C>G?', c);
    expect(a.intent).toBe('variant');
    expect(a.text).toContain('Consequence: coding sequence variant');
    expect(a.text).toContain('Expected codon outcome: probably missense (P = 0.82; synonymous P = 0.18; codon not known without the reference sequence).');
    expect(talks.answer('What is c.755C>G?', ctx).text).not.toContain('Expected codon outcome');
  });

  it("gives the reviewer's class, who set it and why beside the automatic ACMG class", () => {
    const review = {
      classification: 'Likely benign' as const,
      reason: 'seen homozygous in healthy relatives.',
      reviewer: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.org' },
      updatedAt: '2026-11-25T09:30:00.000Z',
      automaticClass: 'Pathogenic',
    };
    const reviewed = { ...ctx, variants: ctx.variants.map((v) => (v.gene === 'FGFR2' ? { ...v, reviewerClassification: review } : v)) };
    const variant = talks.answer('What is c.755C>G?', reviewed);
    expect(variant.text).toContain('ACMG/AMP: Pathogenic (12 points; PS1, PM2, PP5); classified Likely benign by the reviewer Ada Lovelace (2026-11-25): seen homozygous in healthy relatives.');
    expect(variant.text).not.toContain('relatives..');
    const gene = talks.answer('Why is FGFR2 first?', reviewed);
    expect(gene.text).toMatch(/ACMG Pathogenic \([^)]*\), reviewer Likely benign/);
    expect(talks.answer('What is c.755C>G?', ctx).text).not.toContain('reviewer');
  });

  it('says a variant it cannot find is not among the ranked candidates instead of guessing', () => {
    const a = talks.answer('what is c.999A>T?', ctx);
    expect(a.intent).toBe('variant');
    expect(a.text).toContain('c.999A>T is not among the ranked candidate variants');
    expect(a.citations).toEqual([]);
  });

  it('lists the ranked diseases that explain a symptom in free text', () => {
    const a = talks.answer('Which diseases explain the seizures?', ctx);
    expect(a.intent).toBe('symptom');
    expect(a.text).toContain('Seizure (HP:0001250)');
    expect(a.text).toContain('Developmental and epileptic encephalopathy 2 (OMIM:300672)');
    expect(a.text).toContain('Epilepsy, early-onset, vitamin B6-dependent (OMIM:266100)');
    expect(a.text).not.toContain('Pfeiffer');
    expectGrounded(a.citations);
  });

  it('answers what to examine next: unexplained terms and typical features not yet recorded', () => {
    const a = talks.answer('What should I examine next?', ctx);
    expect(a.intent).toBe('examine-next');
    expect(a.text).toContain('Pfeiffer syndrome (OMIM:101600), the best-matching disease of FGFR2');
    expect(a.text).toContain('Patient terms it does not explain: Seizure');
    expect(a.text).toContain('Broad hallux (HP:0010055): 90 % of patients');
    // Hearing impairment is recorded as absent: not suggested again.
    expect(a.text).not.toContain('Hearing impairment (HP:0000365):');
    expectGrounded(a.citations);
    const crouzon = talks.answer('What does Crouzon syndrome not explain?', ctx);
    expect(crouzon.text).toContain('For Crouzon syndrome (OMIM:123500)');
    expect(crouzon.text).toMatch(/does not explain: [^\n]*Broad thumb/);
  });

  it('compares two genes and says what separates them', () => {
    const a = talks.answer('Compare TWIST1 and FGFR2', ctx);
    expect(a.intent).toBe('compare');
    expect(a.text).toMatch(/^FGFR2 \(#1\) ranks above TWIST1 \(#2\)/);
    expect(a.text).toContain('What separates them');
    expectGrounded(a.citations);
    const diseases = talks.answer('Pfeiffer syndrome vs Crouzon syndrome?', ctx);
    expect(diseases.intent).toBe('compare');
    expect(diseases.text).toContain('Only Pfeiffer syndrome explains: Broad thumb (HP:0011304)');
  });

  it('explains inheritance and zygosity for the family by the mode the variants fit', () => {
    const dominant = talks.answer('What does the inheritance mean for the family?', ctx);
    expect(dominant.intent).toBe('inheritance');
    expect(dominant.text).toContain('autosomal dominant');
    expect(dominant.text).toContain('50 % chance');
    const recessive = buildCase(knowledge, {
      present: ['HP:0001250', 'HP:0001249'],
      excluded: [],
      variants: [{ ...DEFAULT_VARIANTS[2]!, zygosity: 'homozygous', score: 0.9 }],
    });
    const a = talks.answer('are the parents carriers?', recessive);
    expect(a.text).toContain('ALDH7A1');
    expect(a.text).toContain('both parents are expected to be heterozygous carriers');
    expect(a.text).toContain('25 %');
    expectGrounded(a.citations, recessive);
  });

  it('reports what the analysis could not see from the run itself', () => {
    const a = talks.answer('What could the analysis not see?', ctx);
    expect(a.intent).toBe('limitations');
    expect(a.text).toContain('Input on GRCh37; results on GRCh38 (lifted over)');
    expect(a.text).toContain('2 records that failed GRCh37 → GRCh38 liftover');
    expect(a.text).toContain('1,206 filtered out');
    expect(a.text).toMatch(/1 of the 4 top-ranked candidate variants have no known population frequency/);
    expectGrounded(a.citations);
  });

  it('answers an unrelated question honestly, with no citation', () => {
    const a = talks.answer('What will the weather be tomorrow?', ctx);
    expect(a.intent).toBe('unknown');
    expect(a.text).toMatch(/^I can't answer that from this case\./);
    expect(a.citations).toEqual([]);
  });

  it('does not answer before the case is complete', () => {
    const queued = buildCase(knowledge, { status: 'Processing' });
    const a = talks.answer('Why is this gene first?', queued);
    expect(a.intent).toBe('not-ready');
    expect(a.text).toContain('its analysis is not finished (Processing)');
    expect(talks.suggestions(queued)).toEqual([]);
  });

  it('refuses an empty or over-long question', () => {
    expect(() => talks.answer('   ', ctx)).toThrow(RangeError);
    expect(() => talks.answer('x'.repeat(MAX_QUESTION_LENGTH + 1), ctx)).toThrow(/longer than 4000/);
  });

  it('suggests first questions about this case', () => {
    const s = talks.suggestions(ctx);
    expect(s).toContain('Why is this gene first?');
    expect(s).toContain('What should I examine next?');
    expect(s).toContain('Compare FGFR2 and TWIST1');
    for (const q of s) expect(talks.answer(q, ctx).intent).not.toBe('unknown');
  });
});

describe('entity resolution and intents', () => {
  it('normalises protein changes to three-letter codes', () => {
    expect(normalizeProtein('p.S252W')).toBe('ser252trp');
    expect(normalizeProtein('p.(Ser252Trp)')).toBe('ser252trp');
    expect(normalizeProtein('NP_000132.3:p.R100*')).toBe('arg100ter');
  });

  it('reads list positions', () => {
    expect(findPositions('why is the second gene there')).toEqual([{ list: 'gene', rank: 2 }]);
    expect(findPositions('what is variant #3?')).toEqual([{ list: 'variant', rank: 3 }]);
    expect(findPositions('the top disease')).toEqual([{ list: 'disease', rank: 1 }]);
  });

  it('does not take English words or ACMG codes for genes', () => {
    const m = resolveMentions('Was PM2 applied AND is the set of genes OK?', ctx, knowledge);
    expect(m.genes).toEqual([]);
  });

  it('finds diseases by name and id, and a gene named inside a question about a disease', () => {
    const m = resolveMentions('Does OMIM:123500 or Pfeiffer syndrome fit FGFR2 better?', ctx, knowledge);
    expect(m.diseases.map((d) => d.id)).toEqual(['OMIM:123500', 'OMIM:101600']);
    expect(m.genes.map((g) => g.symbol)).toEqual(['FGFR2']);
    expect(recognizeIntent('Does OMIM:123500 or Pfeiffer syndrome fit FGFR2 better?', m)).toBe('compare');
  });

  it("answers a disease's inheritance from the disease, with the case's genotype in its genes", () => {
    const a = talks.answer('What is the inheritance of Crouzon syndrome?', ctx);
    expect(a.intent).toBe('inheritance');
    expect(a.text).toMatch(/^Crouzon syndrome \(OMIM:123500; disease #\d+ of this case\) is annotated with: Autosomal dominant inheritance\./);
    expect(a.text).toMatch(/FGFR2 \(gene #1\) in this case: FGFR2 c\.755C>G p\.\(Ser252Trp\) heterozygous/);
    expect(a.citations.map((c) => `${c.kind}:${c.id}`)).toEqual(expect.arrayContaining(['disease:OMIM:123500', 'gene:FGFR2', 'variant:100']));
    expectGrounded(a.citations);
    // A recessive disease whose gene carries one heterozygous variant: the patient may be only a carrier.
    const recessive = talks.answer('how is Epilepsy, early-onset, vitamin B6-dependent inherited?', ctx);
    expect(recessive.text).toContain('is annotated with: Autosomal recessive inheritance.');
    expect(recessive.text).toContain('Only one heterozygous variant in a recessive gene');
    expect(recessive.text).not.toContain('FGFR2');
    // A disease with no gene in the case: its inheritance, and no genotype invented for it.
    const locus = talks.answer('What is the inheritance of Febrile seizures, familial, 1?', ctx);
    expect(locus.text).toMatch(/^Febrile seizures, familial, 1 \(OMIM:121210; [^)]*\) is annotated with: Autosomal dominant inheritance\./);
    expect(locus.text).not.toMatch(/heterozygous|FGFR2/);
  });

  it('answers the family question from the sequenced relatives of a trio case', () => {
    const trio: CaseContext = {
      ...ctx,
      variants: ctx.variants.map((v) =>
        v.gene === 'FGFR2'
          ? {
              ...v,
              genotypes: {
                P: { gt: '0/1', zygosity: 'heterozygous', depth: 40, genotypeQuality: 99, alleleDepths: [20, 20] },
                F: { gt: '0/0', zygosity: 'reference', depth: 38, genotypeQuality: 99, alleleDepths: [38, 0] },
                M: { gt: '0/0', zygosity: 'reference', depth: 35, genotypeQuality: 99, alleleDepths: [35, 0] },
              },
              inheritance: ['de_novo', 'segregates'],
              inheritanceRules: ['de novo: absent from both parents with adequate coverage (P 0/1, F 0/0, M 0/0)'],
            }
          : v,
      ),
    };
    const a = talks.answer('Is the FGFR2 variant de novo? What does it mean for the family?', trio);
    expect(a.intent).toBe('inheritance');
    expect(a.text).toContain('In the family: P 0/1 (DP 40, GQ 99), F 0/0 (DP 38, GQ 99), M 0/0 (DP 35, GQ 99); fits de novo, segregates — de novo: absent from both parents');
    expect(a.text).toContain('The family was sequenced with this case');
    expect(a.text).not.toMatch(/Testing both parents/);
    expectGrounded(a.citations, trio);
    // A single-sample case still advises testing the parents.
    expect(talks.answer('What does the inheritance mean for the family?', ctx).text).toContain('Testing both parents');
    expect(talks.answer('What could the analysis not see?', trio).text).toContain('segregation come from the sequenced relatives');
  });

  it('reads a symptom as a symptom when a disease name uses the same words', () => {
    const c = buildCase(knowledge, { present: ['HP:0001363', 'HP:0002373', 'HP:0001169'] });
    const q = 'Which diseases explain the febrile seizures?';
    const m = resolveMentions(q, c, knowledge);
    expect(m.diseases).toEqual([]);
    expect(m.terms.map((t) => t.id)).toEqual(['HP:0002373']);
    expect(recognizeIntent(q, m)).toBe('symptom');
    // Written in full and asked about as a disease, the name is the disease.
    const named = resolveMentions('Tell me about Febrile seizures, familial, 1', c, knowledge);
    expect(named.diseases.map((d) => d.id)).toEqual(['OMIM:121210']);
    expect(named.terms).toEqual([]);
  });

  it('does not take a lower-case word of a symptom for a ranked gene of the same symbol', () => {
    const palm = { ...PFEIFFER_VARIANT, gene: 'PALM', chrom: '19', pos: 708000, hgvsC: 'NM_002579.3:c.200G>A', hgvsP: 'p.(Arg67His)', score: 0.2, clinvar: null };
    const c = buildCase(knowledge, { present: ['HP:0001363', 'HP:0001169'], variants: [PFEIFFER_VARIANT, palm] });
    expect(c.genes.map((g) => g.symbol)).toContain('PALM');
    const m = resolveMentions('Which diseases explain the broad palm?', c, knowledge);
    expect(m.genes).toEqual([]);
    expect(m.terms.map((t) => t.id)).toEqual(['HP:0001169']);
    expect(talks.answer('Which diseases explain the broad palm?', c).intent).toBe('symptom');
    expect(resolveMentions('Why is PALM ranked here?', c, knowledge).genes.map((g) => g.symbol)).toEqual(['PALM']);
  });

  it('sends a gene outside the ranking to an honest answer', () => {
    const a = talks.answer('Why is ALDH7A1 not higher?', buildCase(knowledge, { variants: [PFEIFFER_VARIANT] }));
    expect(a.text).toContain('ALDH7A1 is not among the ranked genes of this case');
    expect(a.citations).toEqual([]);
  });
});
