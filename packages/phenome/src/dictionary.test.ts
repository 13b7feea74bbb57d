import { describe, expect, it } from 'vitest';
import {
  adjectiveForms,
  equivalentPhrases,
  measurementPhrases,
  organAbnormalityPhrases,
  PhraseDictionary,
  phraseWords,
  qualifiedParentPhrases,
  episodePhrases,
  isMedicalCompound,
} from './dictionary.ts';
import { createPhenome } from './phenome.ts';
import { buildOntology, type TermSpec } from './testing/build-ontology.ts';

const ontology = buildOntology([
  ['HP:0000001', 'All', []],
  ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
  ['HP:0000598', 'Abnormality of the ear', ['HP:0000118'], ['Ear anomaly']],
  ['HP:0000356', 'Abnormality of the outer ear', ['HP:0000598'], ['Ear anomalies']],
  [
    'HP:0000400',
    'Macrotia',
    ['HP:0000356'],
    [
      { text: 'Large ears', scope: 'related' },
      { text: 'Large ear', scope: 'exact' },
    ],
  ],
  [
    'HP:5200049',
    'Atypical sorting',
    ['HP:0000118'],
    [
      { text: 'Ordering', scope: 'exact' },
      { text: 'Order', scope: 'related' },
    ],
  ],
  ['HP:0012085', 'Pyuria', ['HP:0000118'], [{ text: 'Leukocyturia', scope: 'related' }]],
  [
    'HP:0009830',
    'Peripheral neuropathy',
    ['HP:0000118'],
    [{ text: 'Neuropathy', scope: 'related' }],
  ],
  ['HP:0001903', 'Anemia', ['HP:0000118']],
  ['HP:0001789', 'Hydrops fetalis', ['HP:0000118']],
  ['HP:0001324', 'Muscle weakness', ['HP:0000118']],
  ['HP:0007340', 'Lower limb muscle weakness', ['HP:0001324']],
]);

/** The ids a whole-text reader finds, on a small ontology of the findings under the root. */
function readerOf(findings: readonly TermSpec[]): (text: string) => string[] {
  const p = createPhenome(
    buildOntology([
      ['HP:0000001', 'All', []],
      ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
      ...findings,
    ]),
    { clinicalSectionsOnly: false },
  );
  return (text) => p.extract(text).map((t) => t.id);
}

describe('PhraseDictionary', () => {
  it('keeps the best scope when a phrase is both listed and generated for a term', () => {
    const dict = new PhraseDictionary(ontology);
    const words = phraseWords('ear anomaly');
    const hash = words.reduce((a, w) => a + (dict.lookup(w)?.hash ?? 0), 0);
    const entries = dict.entriesFor(hash, words);
    expect(entries.find((e) => e.termId === 'HP:0000598')).toMatchObject({
      source: 'exact',
      weight: 0.95,
    });
  });

  it('prefers the more general term when one phrase names a term and its descendant', () => {
    expect(
      createPhenome(ontology)
        .extract('ear anomalies')
        .map((t) => t.id),
    ).toEqual(['HP:0000598']);
  });

  it('matches one-word synonyms on their surface form only and skips non-exact ones', () => {
    const phenome = createPhenome(ontology);
    expect(phenome.extract('in alphabetical order')).toEqual([]);
    expect(phenome.extract('compulsive ordering').map((t) => t.id)).toEqual(['HP:5200049']);
  });

  it('matches a one-word non-exact synonym built from medical word parts, not a -pathy', () => {
    const phenome = createPhenome(ontology);
    expect(phenome.extract('Urinalysis showed leukocyturia.').map((t) => t.id)).toEqual([
      'HP:0012085',
    ]);
    expect(phenome.extract('He had a neuropathy.')).toEqual([]);
    const labels = new Set(['anemia']);
    expect(isMedicalCompound('Leukocyturia', labels)).toBe(true);
    expect(isMedicalCompound('Hypoacusis', labels)).toBe(true);
    expect(isMedicalCompound('Craniostenosis', labels)).toBe(true);
    expect(isMedicalCompound('Hepatopathy', labels)).toBe(false);
    expect(isMedicalCompound('Order', labels)).toBe(false);
    expect(isMedicalCompound('Cancer', labels)).toBe(false);
    // The label of another term is that term's name, not a synonym of this one.
    expect(isMedicalCompound('Anemia', labels)).toBe(false);
    expect(isMedicalCompound('Hyper-uria', labels)).toBe(false);
  });

  it('reads a Latin adjective of a fixed name in its English form and either order', () => {
    const phenome = createPhenome(ontology);
    expect(phenome.extract('The fetus had fetal hydrops.').map((t) => t.id)).toEqual([
      'HP:0001789',
    ]);
    expect(phenome.extract('hydrops fetalis').map((t) => t.id)).toEqual(['HP:0001789']);
  });

  it('reads a finding through an adverb of where it is most marked', () => {
    const phenome = createPhenome(ontology);
    for (const text of [
      'muscle weakness predominantly in the lower limbs',
      'muscle weakness mainly of the lower limbs',
      'muscle weakness particularly in the lower limbs',
    ])
      expect(
        phenome.extract(text).map((t) => t.id),
        text,
      ).toEqual(['HP:0007340']);
    // The adverb alone names nothing.
    expect(phenome.extract('mostly in the morning')).toEqual([]);
  });

  it('generates everyday names for organ grouping terms', () => {
    expect(organAbnormalityPhrases('Abnormality of the kidney')).toEqual(
      expect.arrayContaining([
        'abnormal kidney',
        'renal anomaly',
        'kidney malformation',
        'anomaly of the kidney',
      ]),
    );
    expect(organAbnormalityPhrases('Seizure')).toEqual([]);
  });
});

describe('adjectiveForms', () => {
  it('derives the predicative adjective of one-word -ia, -ism and -ity findings', () => {
    expect(adjectiveForms('Dysarthria')).toEqual(['dysarthric']);
    expect(adjectiveForms('Obesity')).toEqual(['obese']);
    expect(adjectiveForms('Hirsutism')).toEqual(['hirsutic']);
    expect(adjectiveForms('Short stature')).toEqual([]);
    expect(adjectiveForms('Ptosis')).toEqual([]);
  });
});

describe('generated names: qualified parents and measurements', () => {
  const hpo = buildOntology([
    ['HP:0000001', 'All', []],
    ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
    [
      'HP:0000407',
      'Sensorineural hearing impairment',
      ['HP:0000118'],
      ['Sensorineural hearing loss', { text: 'SNHL', scope: 'exact', type: 'abbreviation' }],
    ],
    ['HP:0008504', 'Moderate sensorineural hearing impairment', ['HP:0000407']],
    ['HP:0011474', 'Childhood onset sensorineural hearing impairment', ['HP:0000407']],
    ['HP:0000399', 'Prelingual sensorineural hearing impairment', ['HP:0011474']],
    [
      'HP:0003281',
      'Increased circulating ferritin concentration',
      ['HP:0000118'],
      ['Hyperferritinemia'],
    ],
    ['HP:0011967', 'Decreased circulating copper concentration', ['HP:0000118']],
    ['HP:0010837', 'Decreased circulating ceruloplasmin concentration', ['HP:0000118']],
    ['HP:0000218', 'High palate', ['HP:0000118']],
    ['HP:0034392', 'Joint contracture', ['HP:0000118'], ['Contracture']],
    ['HP:0002828', 'Multiple joint contractures', ['HP:0034392']],
  ]);
  const p = createPhenome(hpo);
  const idsOf = (text: string): string[] => p.extract(text).map((t) => t.id);

  it('names a qualified term by the qualifier and its parent synonyms, not abbreviations', () => {
    const term = hpo.terms.get('HP:0008504');
    if (!term) throw new Error('missing term');
    expect(qualifiedParentPhrases(hpo, term)).toEqual(['moderate Sensorineural hearing loss']);
    // The graded term, and the finding it grades (named inside it: compositional nesting).
    expect(idsOf('She has moderate sensorineural hearing loss.')).toEqual([
      'HP:0008504',
      'HP:0000407',
    ]);
    // Without the qualifier the parent term is meant.
    expect(idsOf('She has sensorineural hearing loss.')).toEqual(['HP:0000407']);
  });

  it('names a plural qualified term by the qualifier and its singular parent synonyms', () => {
    const term = hpo.terms.get('HP:0002828');
    if (!term) throw new Error('missing term');
    expect(qualifiedParentPhrases(hpo, term)).toEqual(['multiple Contracture']);
    expect(idsOf('The infant had multiple contractures.')).toEqual(['HP:0002828']);
    expect(idsOf('The infant had contractures.')).toEqual(['HP:0034392']);
  });

  it('names a qualified term by the qualifier and the synonyms of an ancestor above its parent', () => {
    const term = hpo.terms.get('HP:0000399');
    if (!term) throw new Error('missing term');
    // The parent's label does not end the term's label; the grandparent's does.
    expect(qualifiedParentPhrases(hpo, term)).toEqual(['prelingual Sensorineural hearing loss']);
    expect(idsOf('He had prelingual sensorineural hearing loss.')).toEqual(['HP:0000399']);
  });

  it('reads a measurement with any direction word and without specimen or quantity words', () => {
    expect(measurementPhrases('Increased circulating ferritin concentration')).toEqual([
      'increased ferritin',
      'elevated ferritin',
      'raised ferritin',
      'high ferritin',
    ]);
    expect(measurementPhrases('Hyperferritinemia')).toEqual([]);
    expect(idsOf('Ferritin was raised.')).toEqual(['HP:0003281']);
    expect(idsOf('elevated serum ferritin')).toEqual(['HP:0003281']);
    // Coordinated analytes share the direction and the specimen.
    expect(idsOf('low serum copper and ceruloplasmin.')).toEqual(['HP:0010837', 'HP:0011967']);
    // Only measurement terms get direction synonyms: "raised palate" is not High palate.
    expect(idsOf('a raised palate')).toEqual([]);
  });
});

describe('episodes of a finding', () => {
  it('names "Episodic X" also "episodes of X", and reads it in a sentence', () => {
    const hpo = buildOntology([
      ['HP:0000001', 'All', []],
      ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
      ['HP:0002027', 'Abdominal pain', ['HP:0000118']],
      ['HP:0002574', 'Episodic abdominal pain', ['HP:0002027'], ['Episodic abdominal pains']],
    ]);
    const term = hpo.terms.get('HP:0002574');
    if (!term) throw new Error('missing term');
    expect(episodePhrases(term)).toEqual([
      'episodes of abdominal pain',
      'episodes of abdominal pains',
    ]);
    const abdominal = hpo.terms.get('HP:0002027');
    if (!abdominal) throw new Error('missing term');
    expect(episodePhrases(abdominal)).toEqual([]);
    const p = createPhenome(hpo);
    expect(p.extract('She had recurrent episodes of abdominal pain.').map((t) => t.id)).toEqual([
      'HP:0002574',
    ]);
  });
});

describe('interchangeable names inside a phrase', () => {
  it('replaces one or two parts by their equivalents', () => {
    const v = equivalentPhrases('Decreased patellar reflex');
    expect(v).toContain('decreased knee jerk');
    expect(v).toContain('reduced knee jerk');
    expect(v).toContain('diminished patellar tendon reflex');
    expect(v).not.toContain('decreased patellar reflex');
    expect(equivalentPhrases('Ataxia')).toEqual([]);
    expect(equivalentPhrases('Seizure')).toEqual(['convulsion']);
  });

  it('reads a word before slash-coordinated modifiers as qualifying each of them', () => {
    const found = readerOf([
      ['HP:0000518', 'Cataract', ['HP:0000118']],
      ['HP:0000523', 'Subcapsular cataract', ['HP:0000518']],
      ['HP:0007787', 'Posterior subcapsular cataract', ['HP:0000523']],
      ['HP:0100017', 'Capsular cataract', ['HP:0000518']],
    ]);
    expect(found('Posterior subcapsular/capsular cataracts were found in 36.')).toEqual(
      expect.arrayContaining(['HP:0007787', 'HP:0100017']),
    );
    // Without a slash the word before is not carried over.
    expect(found('Bilateral subcapsular/capsular cataracts.')).not.toContain('HP:0007787');
    expect(found('posterior and subcapsular cataracts')).not.toContain('HP:0007787');
  });

  it('does not share a word of another finding as a coordinated modifier', () => {
    const found = readerOf([
      ['HP:0001172', 'Abnormal thumb morphology', ['HP:0000118']],
      ['HP:0001199', 'Triphalangeal thumb', ['HP:0001172']],
      ['HP:0000598', 'Abnormality of the ear', ['HP:0000118']],
      ['HP:0000077', 'Abnormality of the kidney', ['HP:0000118']],
    ]);
    expect(found('Triphalangeal thumb and ear anomalies were remarkable.')).toEqual([
      'HP:0001199',
      'HP:0000598',
    ]);
    // A bare modifier still shares the head: "thumb and ear anomalies".
    expect(found('Thumb and ear anomalies were remarkable.')).toEqual(['HP:0001172', 'HP:0000598']);
  });

  it('does not read an organ grouping term from a generated phrase the text does not say', () => {
    const found = readerOf([
      ['HP:0000707', 'Abnormality of the nervous system', ['HP:0000118']],
      ['HP:0012443', 'Abnormal brain morphology', ['HP:0000707']],
      ['HP:0000478', 'Abnormality of the eye', ['HP:0000118']],
      ['HP:0000924', 'Abnormality of the skeletal system', ['HP:0000118']],
    ]);
    expect(found('Infarcts associated with moyamoya disease on brain imaging.')).toEqual([]);
    expect(found('Elevator paresis is a common neuro-ophthalmic finding in NF2.')).toEqual([]);
    // The same phrases as the text says them are still read.
    expect(found('He had a brain disease.')).toEqual(['HP:0012443']);
    expect(found('Ophthalmic findings included a coloboma.')).toEqual(['HP:0000478']);
    // "non-" is a negation, not another adjective (negatedByPrefix).
    expect(found('He had non-skeletal findings.')).toEqual(['HP:0000924']);
  });

  it('knows the older and the clinical names of a few findings', () => {
    expect(equivalentPhrases('Narrowing of medullary canal')).toContain(
      'narrowing of medullary cavity',
    );
    expect(equivalentPhrases('Focal polymicrogyria')).toEqual(['focal microgyria']);
    expect(equivalentPhrases('Acoustic neuroma')).toEqual(['acoustic neurinoma']);
    expect(equivalentPhrases('Motor polyneuropathy')).toEqual(['motor neuropathy']);
    expect(equivalentPhrases('Excessive daytime somnolence')).toEqual(
      expect.arrayContaining(['daytime hypersomnolence', 'excessive daytime sleepiness']),
    );
    const found = readerOf([
      ['HP:0100008', 'Schwannoma', ['HP:0000118'], ['Neurinoma']],
      ['HP:0009588', 'Vestibular schwannoma', ['HP:0100008'], ['Acoustic neuroma']],
      ['HP:0001262', 'Excessive daytime somnolence', ['HP:0000118']],
      ['HP:0007178', 'Motor polyneuropathy', ['HP:0000118']],
    ]);
    expect(found('MRI showed bilateral acoustic neurinomas.')).toEqual(['HP:0009588']);
    expect(found('He complained of daytime hypersomnolence.')).toEqual(['HP:0001262']);
    expect(found('Nerve conduction studies showed a motor neuropathy.')).toEqual(['HP:0007178']);
  });

  it('reads "enlarged" as "large", "low" as "decreased", "convulsion" as "seizure", "trouble" as "difficulty"', () => {
    const found = readerOf([
      ['HP:0001744', 'Splenomegaly', ['HP:0000118'], ['Large spleen']],
      ['HP:0001252', 'Hypotonia', ['HP:0000118'], ['Low muscle tone']],
      ['HP:0001250', 'Seizure', ['HP:0000118'], ['Seizures']],
      ['HP:0002069', 'Bilateral tonic-clonic seizure', ['HP:0001250']],
      ['HP:0002015', 'Dysphagia', ['HP:0000118'], ['Difficulty swallowing']],
    ]);
    expect(found('She had an enlarged spleen.')).toEqual(['HP:0001744']);
    expect(found('The spleen was enlarged.')).toEqual(['HP:0001744']);
    expect(found('Muscle tone was decreased.')).toEqual(['HP:0001252']);
    expect(found('He had reduced muscle tone.')).toEqual(['HP:0001252']);
    expect(found('He had bilateral tonic-clonic convulsions.')).toEqual(['HP:0002069']);
    expect(found('He had trouble swallowing.')).toEqual(['HP:0002015']);
    expect(equivalentPhrases('Inability to walk')).toEqual(['unable to walk']);
    expect(equivalentPhrases('Loss of ability to walk')).toEqual(['lost the ability to walk']);
  });

  it('reads the optic nerve head as the optic disc', () => {
    const found = readerOf([
      ['HP:0000980', 'Pallor', ['HP:0000118']],
      ['HP:0000543', 'Optic disc pallor', ['HP:0000118'], ['Pale optic disc']],
    ]);
    expect(found('Fundoscopy showed bilateral optic nerve head pallor.')).toEqual(['HP:0000543']);
    expect(found('The optic disk pallor was marked.')).toEqual(['HP:0000543']);
    // The skin's pallor is still pallor.
    expect(found('He had severe pallor and bruises.')).toEqual(['HP:0000980']);
  });

  it('knows the older "retardation" for a delay and the short clinical names', () => {
    expect(equivalentPhrases('Psychomotor delay')).toContain('psychomotor retardation');
    expect(equivalentPhrases('Severe intellectual disability')).toContain(
      'severe intellectual retardation',
    );
    expect(equivalentPhrases('Reduced visual acuity')).toContain('reduced vision');
    expect(equivalentPhrases('Increased muscle tone')).toContain('increased tone');
    expect(equivalentPhrases('Hypoplastic mandible')).toContain('hypoplastic jaw');
    expect(equivalentPhrases('Thin upper lip vermilion')).toContain('thin upper vermilion');
    // The participle too: "milestones were retarded" = delayed milestones.
    expect(equivalentPhrases('Delayed developmental milestones')).toContain(
      'retarded developmental milestones',
    );
    const found = readerOf([
      [
        'HP:0001263',
        'Global developmental delay',
        ['HP:0000118'],
        ['Delayed developmental milestones'],
      ],
      ['HP:0002858', 'Meningioma', ['HP:0000118']],
      ['HP:0100009', 'Intracranial meningioma', ['HP:0002858']],
    ]);
    expect(found('Developmental milestones were mildly retarded.')).toEqual(['HP:0001263']);
    // A meningioma of the cranium is intracranial (the other site is spinal).
    expect(found('Symptoms were attributable to cranial meningiomas.')).toEqual(['HP:0100009']);
  });

  it('knows the Latin-derived adjectives and the lay names of the limbs', () => {
    expect(equivalentPhrases('Joint hypermobility')).toEqual(['articular hypermobility']);
    expect(equivalentPhrases('Lower limb muscle weakness')).toEqual(
      expect.arrayContaining([
        'leg muscle weakness',
        'lower limb muscular weakness',
        'leg muscular weakness',
      ]),
    );
    expect(equivalentPhrases('Short upper limbs')).toContain('short arms');
    // A word inside another word is not replaced ("armpit", "legal").
    expect(equivalentPhrases('Armpit hair')).toEqual([]);
  });

  it('matches the text forms through the extractor', () => {
    const hpo = buildOntology([
      ['HP:0000001', 'All', []],
      ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
      ['HP:0011808', 'Decreased patellar reflex', ['HP:0000118']],
      ['HP:0009933', 'Narrow naris', ['HP:0000118'], ['Small nostrils']],
      ['HP:0001336', 'Myoclonus', ['HP:0000118'], [{ text: 'Jerks', scope: 'exact' }]],
    ]);
    const p = createPhenome(hpo);
    expect(p.extract('Knee jerks were reduced.').map((t) => t.id)).toEqual(['HP:0011808']);
    expect(p.extract('small nares').map((t) => t.id)).toEqual(['HP:0009933']);
  });
});
