import { describe, expect, it } from 'vitest';
import {
  caseProfile,
  createPhenome,
  type PhenomeTerm,
  SHIPPED_PHENOME_OPTIONS,
  tableRowMark,
} from './phenome.ts';
import { buildMiniHpo, buildOntology } from './testing/build-ontology.ts';

const ontology = buildMiniHpo();
const phenome = createPhenome(ontology);
/** Longest mention only, every section read: what the defaults were before they were measured. */
const longestWhole = createPhenome(ontology, { nested: false, clinicalSectionsOnly: false });

function ids(terms: readonly PhenomeTerm[]): string[] {
  return terms.map((t) => t.id);
}
function find(terms: readonly PhenomeTerm[], id: string): PhenomeTerm {
  const t = terms.find((x) => x.id === id);
  if (!t) throw new Error(`${id} not found in ${JSON.stringify(terms)}`);
  return t;
}

describe('createPhenome: matching', () => {
  it('returns spans whose text is the exact slice of the input', () => {
    const text = 'The boy has seizures and cataracts.';
    const terms = phenome.extract(text);
    expect(ids(terms)).toEqual(['HP:0001250', 'HP:0000518']);
    for (const t of terms) expect(text.slice(t.start, t.end)).toBe(t.text);
    expect(find(terms, 'HP:0001250')).toMatchObject({
      start: 12,
      end: 20,
      label: 'Seizure',
      negated: false,
      subject: 'patient',
    });
  });

  it('matches inflected and British forms (plural, adjective, -ed)', () => {
    expect(ids(phenome.extract('Hypoplastic thumbs were noted.'))).toEqual(['HP:0009778']);
    expect(ids(phenome.extract('She had a seizure.'))).toEqual(['HP:0001250']);
    expect(ids(phenome.extract('Deafness and a tumour of the nerve.'))).toEqual([
      'HP:0000365',
      'HP:0002664',
    ]);
  });

  it('matches word-order variants with function words inside the mention', () => {
    const a = phenome.extract('thumb hypoplasia');
    const b = phenome.extract('hypoplasia of the thumb');
    expect(ids(a)).toEqual(['HP:0009778']);
    expect(ids(b)).toEqual(['HP:0009778']);
    // The literal order is preferred: a reordered match scores lower.
    expect((a[0] as PhenomeTerm).confidence).toBeLessThan((b[0] as PhenomeTerm).confidence);
  });

  it('skips laterality and severity modifiers inside a mention', () => {
    const terms = phenome.extract('hypoplasia of the left thumb');
    expect(ids(terms)).toEqual(['HP:0009778']);
    expect((terms[0] as PhenomeTerm).text).toBe('hypoplasia of the left thumb');
  });

  it('takes the longest, most specific match on overlapping mentions', () => {
    const terms = phenome.extract(
      'Posterior subcapsular cataracts and sensorineural hearing loss.',
    );
    expect(ids(terms)).toEqual(['HP:0007787', 'HP:0000407']);
    expect((terms[0] as PhenomeTerm).text).toBe('Posterior subcapsular cataracts');
  });

  it('prefers the severity-specific term named by the longer phrase', () => {
    expect(ids(longestWhole.extract('severe mental retardation'))).toEqual(['HP:0010864']);
    // The shipped compositional nesting adds the finding the severity grades.
    expect(ids(phenome.extract('severe mental retardation'))).toEqual(['HP:0010864', 'HP:0001249']);
    expect(ids(phenome.extract('mental retardation'))).toEqual(['HP:0001249']);
  });

  it('reports the nested more general terms only when asked', () => {
    const nested = createPhenome(ontology, { nested: true }).extract(
      'bilateral vestibular schwannoma',
    );
    expect(ids(nested).sort()).toEqual(['HP:0009588', 'HP:0100008']);
    expect(find(nested, 'HP:0100008')).toMatchObject({ nested: true, text: 'schwannoma' });
    expect(ids(longestWhole.extract('bilateral vestibular schwannoma'))).toEqual(['HP:0009588']);
  });

  it('runs the shipped configuration by default (compositional nesting, clinical sections)', () => {
    expect(SHIPPED_PHENOME_OPTIONS).toEqual({
      nested: 'compositional',
      clinicalSectionsOnly: true,
      minConfidence: 0,
      labValues: true,
    });
    const explicit = createPhenome(ontology, SHIPPED_PHENOME_OPTIONS);
    const text = 'bilateral vestibular schwannoma and posterior subcapsular cataracts';
    expect(ids(phenome.extract(text))).toEqual(ids(explicit.extract(text)));
    expect(ids(phenome.extract(text)).sort()).toEqual(['HP:0007787', 'HP:0009588', 'HP:0100008']);
  });

  it('reads "-ial" and bare "-ism" adjectives as their nouns', () => {
    expect(ids(phenome.extract('a petechial rash'))).toEqual(['HP:0000967']);
    expect(ids(phenome.extract('cryptorchid testes'))).toEqual(['HP:0000028']);
    expect(ids(phenome.extract('The child was hypotonic.'))).toEqual(['HP:0001252']);
  });

  it('needs a word of recurrence for a "Recurrent X" term found through its bare synonym', () => {
    expect(ids(phenome.extract('He had fractures of the femur.'))).toEqual([]);
    expect(ids(phenome.extract('He had repeated fractures.'))).toEqual(['HP:0002757']);
    expect(ids(phenome.extract('multiple fractures'))).toEqual(['HP:0002757']);
    expect(ids(phenome.extract('recurrent fractures'))).toEqual(['HP:0002757']);
  });

  it('reports nested terms of compositions only in compositional mode', () => {
    const comp = createPhenome(ontology, { nested: 'compositional' });
    // A tumour type qualified by its site names the tumour type in its own right.
    expect(ids(comp.extract('bilateral vestibular schwannoma')).sort()).toEqual([
      'HP:0009588',
      'HP:0100008',
    ]);
    // A subtype qualifier of a non-neoplastic finding does not.
    expect(ids(comp.extract('posterior subcapsular cataracts'))).toEqual(['HP:0007787']);
    expect(ids(comp.extract('sensorineural hearing loss'))).toEqual(['HP:0000407']);
    // A severity grade of a finding states the finding: Severe intellectual disability and
    // Intellectual disability; Severe muscular hypotonia's own finding is not named inside it.
    expect(ids(comp.extract('He has severe mental retardation.')).sort()).toEqual([
      'HP:0001249',
      'HP:0010864',
    ]);
  });

  it('expands coordinated modifiers and heads', () => {
    expect(ids(phenome.extract('sensorineural or conductive hearing loss')).sort()).toEqual([
      'HP:0000405',
      'HP:0000407',
    ]);
    expect(ids(phenome.extract('cleft lip and palate')).sort()).toEqual([
      'HP:0000175',
      'HP:0410030',
    ]);
  });

  it('gives a coordinated organ the finding before "of" ("anomalies of the hands and feet")', () => {
    // A generated organ phrase takes a coordinated organ (the word replaced is no abnormality noun).
    expect(ids(phenome.extract('Both girls had anomalies of the hands and feet.')).sort()).toEqual([
      'HP:0001155',
      'HP:0001760',
    ]);
    // An article may open the second organ, and a preposition after it ends the phrase.
    expect(
      ids(
        phenome.extract(
          'He was born with malformations of the hands and the feet with short nails.',
        ),
      ).sort(),
    ).toEqual(['HP:0001155', 'HP:0001760']);
    // The first organ's own modifier does not qualify the second one.
    const terms = phenome.extract(
      'Imaging showed hypoplasia of the inferior vermis and cerebellum.',
    );
    expect(ids(terms).sort()).toEqual(['HP:0001321', 'HP:0007068']);
    expect(find(terms, 'HP:0001321').text).toBe('hypoplasia of the inferior vermis and cerebellum');
  });

  it('gives the first of two coordinated words the head after the second ("a movement and balance disorder")', () => {
    const { terms, modifiers } = phenome.extractFindings(
      'Since infancy she has had a movement and tone disorder.',
    );
    expect(ids(terms)).toEqual(['HP:0100022']);
    expect(ids(modifiers)).toEqual(['HP:0003593']);
    expect(find(terms, 'HP:0100022').text).toBe('movement and tone disorder');
    // Only a name the ontology gives, not a generated organ phrase ("renal anomalies").
    expect(ids(phenome.extract('He had renal and dental anomalies.'))).toEqual([]);
    // Not when the head goes on ("movement and tone disorder seizure clinic").
    expect(
      ids(phenome.extract('She was seen at the movement and tone disorder seizure clinic.')),
    ).toEqual(['HP:0001250']);
  });

  it('gives a word before two coordinated modifiers to each ("reduced sensory and motor conduction velocity")', () => {
    const terms = phenome.extract(
      'Nerve studies showed reduced sensory and motor nerve conduction velocities with normal latencies.',
    );
    expect(ids(terms).sort()).toEqual(['HP:0003431', 'HP:0003448']);
    expect(find(terms, 'HP:0003448').text).toBe(
      'reduced sensory and motor nerve conduction velocities',
    );
    // Only when both readings are terms: "reduced hypotonia" is none, so the word stays with
    // the first.
    expect(
      ids(phenome.extract('She had reduced hypotonia and motor nerve conduction velocity.')),
    ).toEqual(['HP:0001252']);
  });

  it("reads a motor or sensory conduction velocity as the nerve's", () => {
    expect(ids(phenome.extract('EMG showed reduced motor conduction velocity.'))).toEqual([
      'HP:0003431',
    ]);
  });

  it('reads a stature stated by its score as Short stature, at its place', () => {
    const text = 'On examination her height was 74 cm (-4.18 SD).';
    const terms = phenome.extract(text);
    expect(ids(terms)).toEqual(['HP:0004322']);
    expect(find(terms, 'HP:0004322').text).toBe('height was 74 cm (-4.18 SD');
    // Named already at the same place: once.
    expect(ids(phenome.extract('Short stature (-3 SD) was noted.'))).toEqual(['HP:0004322']);
  });

  it('reads the British "leuco-" spelling', () => {
    expect(ids(phenome.extract('The blood count showed leucocytosis.'))).toEqual(['HP:0001974']);
  });

  it('reads a range of grades as each grade ("severe to profound intellectual disability")', () => {
    const terms = phenome.extract('He has severe to profound intellectual disability.');
    expect(ids(terms).sort()).toEqual(['HP:0001249', 'HP:0002187', 'HP:0010864']);
    expect(find(terms, 'HP:0010864').text).toBe('severe to profound intellectual disability');
    // The finding the grades share is reported once at its place.
    expect(terms.filter((t) => t.id === 'HP:0001249')).toHaveLength(1);
    // "to" between words that are no grades joins nothing.
    expect(ids(phenome.extract('He was referred to severe hypotonia clinics.'))).toEqual([
      'HP:0006829',
    ]);
  });

  it('reads a finding said to progress as its progressive form ("the hearing loss was slowly progressive")', () => {
    const terms = phenome.extract('By school age her hearing loss was slowly progressive.');
    expect(ids(terms)).toContain('HP:0001730');
    expect(ids(terms)).toContain('HP:0000365');
    expect(find(terms, 'HP:0001730').text).toBe('hearing loss was slowly progressive');
    expect(ids(phenome.extract('The hearing loss progressed over ten years.'))).toContain(
      'HP:0001730',
    );
    // Only where the HPO names a progressive form.
    expect(ids(phenome.extract('The seizures progressed despite treatment.'))).toEqual([
      'HP:0001250',
    ]);
  });

  it('reads "auricular" as of the auricle (pinna)', () => {
    expect(ids(phenome.extract('She had auricular anomalies.'))).toEqual(['HP:0000377']);
    expect(
      ids(phenome.extract('He had craniofacial, auricular and renal anomalies.')).sort(),
    ).toEqual(['HP:0000077', 'HP:0000377']);
  });

  it('reads a plural head shared by coordinated modifiers ("developmental and speech delays")', () => {
    expect(ids(phenome.extract('He had speech delays.'))).toEqual(['HP:0000750']);
    expect(ids(phenome.extract('He had developmental and speech delays.')).sort()).toEqual([
      'HP:0000750',
      'HP:0001263',
    ]);
  });

  it('gives a coordinated phrase that is no finding of its own the first word of the mention', () => {
    expect(
      ids(
        phenome.extract('Reflexes showed reduced patellar tendon reflex and ankle reflex.'),
      ).sort(),
    ).toEqual(['HP:0009072', 'HP:0011808']);
    // A phrase that names a finding by itself keeps it.
    expect(
      ids(phenome.extract('He had reduced patellar reflexes and clinodactyly.')).sort(),
    ).toEqual(['HP:0011808', 'HP:0030084']);
    expect(ids(phenome.extract('He had reduced patellar reflexes and normal tone.'))).toEqual([
      'HP:0011808',
    ]);
  });

  it('joins a prefix written with a hyphen to the word the HPO writes solid', () => {
    expect(ids(phenome.extract('There was hepato-splenomegaly.'))).toEqual(['HP:0001433']);
    expect(ids(phenome.extract('She had up-slanting palpebral fissures.'))).toEqual(['HP:0000582']);
    // Two words of their own stay two words; "non-" still negates.
    expect(ids(phenome.extract('He had end-stage renal disease.'))).toEqual(['HP:0003774']);
    const non = phenome.extract('A non-splenomegaly form.');
    expect(ids(non)).toEqual(['HP:0001744']);
    expect(non[0]?.negated).toBe(true);
  });

  it('reads names used interchangeably inside a phrase', () => {
    expect(ids(phenome.extract('Fundus showed retinal vessel attenuation.'))).toEqual([
      'HP:0007843',
    ]);
    expect(ids(phenome.extract('CT showed hypoplasia of the dens.'))).toEqual(['HP:0003311']);
    expect(ids(phenome.extract('She had a cognitive disability.'))).toEqual(['HP:0001249']);
  });

  it('reads copula constructions as the phrase ("the thumbs were hypoplastic")', () => {
    const terms = phenome.extract('Both thumbs were invariably hypoplastic.');
    expect(ids(terms)).toEqual(['HP:0009778']);
    expect((terms[0] as PhenomeTerm).text).toBe('thumbs were invariably hypoplastic');
  });

  it('maps lay wording from the curated lexicon', () => {
    const terms = phenome.extract('A floppy baby with fits.');
    expect(ids(terms)).toEqual(['HP:0001252', 'HP:0001250']);
    // Clinical wordings of a coordination deficit that the HPO does not list.
    expect(ids(phenome.extract('Loss of motor coordination was noted.'))).toEqual(['HP:0002311']);
    expect(ids(phenome.extract('She had lack of coordination.'))).toEqual(['HP:0002311']);
  });

  it('recognises organ abnormality phrasing of grouping terms', () => {
    expect(ids(phenome.extract('renal anomalies'))).toEqual(['HP:0000077']);
    expect(ids(phenome.extract('ocular findings'))).toEqual(['HP:0000478']);
  });

  it('reads the inheritance, onset and variability of the disease, each with its category', () => {
    const terms = phenome.extract(
      'Seizures with childhood onset, inherited in an autosomal dominant manner with variable expressivity.',
    );
    expect(terms.map((t) => [t.id, t.category, t.negated])).toEqual([
      ['HP:0001250', 'phenotype', false],
      ['HP:0011463', 'course', false],
      ['HP:0000006', 'inheritance', false],
      ['HP:0003828', 'modifier', false],
    ]);
    expect(ids(phenome.extract('Both were sporadic cases.'))).toEqual(['HP:0003745']);
    // Negation and hedging apply as to any mention.
    const neg = phenome.extract('The inheritance was not autosomal dominant.');
    expect(neg.map((t) => [t.id, t.negated])).toEqual([['HP:0000006', true]]);
  });

  it('returns the phenotypic abnormalities as terms and the clinical modifiers apart, none dropped', () => {
    const text =
      'Seizures with childhood onset, inherited in an autosomal dominant manner; no cataract.';
    const { terms, modifiers } = phenome.extractFindings(text);
    expect(terms.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', false],
      ['HP:0000518', true],
    ]);
    expect(modifiers.map((t) => [t.id, t.category, t.text])).toEqual([
      ['HP:0011463', 'course', 'childhood onset'],
      ['HP:0000006', 'inheritance', 'autosomal dominant'],
    ]);
    // Each modifier keeps the evidence a term carries (span, context, confidence).
    for (const m of modifiers) {
      expect(text.slice(m.start, m.end)).toBe(m.text);
      expect(m.confidence).toBeGreaterThan(0);
    }
    expect([...terms, ...modifiers].sort((a, b) => a.start - b.start)).toEqual(
      phenome.extract(text),
    );
  });

  it('does not read one-word modifiers, severity or laterality, or a branch name as a term', () => {
    // "Progressive", "Sporadic", "Severe", "Bilateral" qualify a finding; "age at onset" and
    // "mode of inheritance" name a category, not what the patient has.
    expect(
      ids(
        phenome.extract(
          'Severe progressive seizures, bilateral cataract, sporadic episodes; age at onset and mode of inheritance unknown.',
        ),
      ),
    ).toEqual(['HP:0001250', 'HP:0000518']);
  });

  it('reads a milestone reached late as its delay, with the context of the sentence', () => {
    const terms = phenome.extract(
      'She did not walk until the age of 2 years 6 months. Her brother walked at 3 years. He walked at 12 months.',
    );
    expect(terms.map((t) => [t.id, t.text, t.negated, t.subject])).toEqual([
      ['HP:0031936', 'did not walk until the age of 2 years 6 months', false, 'patient'],
      ['HP:0031936', 'walked at 3 years', false, 'family'],
    ]);
    // Named as a finding at the same place already: one mention.
    expect(ids(phenome.extract('Delayed walking at 24 months.'))).toEqual(['HP:0031936']);
  });

  it('reads a stated age at onset as its onset modifier, with negation and subject', () => {
    const { terms, modifiers } = phenome.extractFindings(
      'Seizures began at 3 months. Her mother had onset at 45 years. Hypotonia was present from birth. There was no onset before 16 years.',
    );
    expect(ids(terms)).toEqual(['HP:0001250', 'HP:0001252']);
    expect(modifiers.map((t) => [t.id, t.category, t.text, t.negated, t.subject])).toEqual([
      ['HP:0003593', 'course', 'began at 3 months', false, 'patient'],
      ['HP:0003596', 'course', 'onset at 45 years', false, 'family'],
      ['HP:0003577', 'course', 'present from birth', false, 'patient'],
    ]);
    // The owner named inside the statement.
    expect(
      phenome
        .extractFindings('Onset in her brother was at 12 years.')
        .modifiers.map((t) => [t.id, t.subject]),
    ).toEqual([['HP:0003621', 'family']]);
    // Named already ("Onset in infancy"): one mention.
    expect(ids(phenome.extractFindings('Onset in infancy.').modifiers)).toEqual(['HP:0003593']);
    expect(
      phenome
        .extractFindings('Seizures did not begin at 3 months.')
        .modifiers.map((t) => t.negated),
    ).toEqual([true]);
  });

  it('reads a death named by one noun, but neither the root nor the branch names', () => {
    const terms = phenome.extract(
      'Her mother had two miscarriages. The phenotypic abnormalities of our patient and the age of death are listed.',
    );
    expect(terms.map((t) => [t.id, t.category, t.subject])).toEqual([
      ['HP:0005268', 'course', 'family'],
    ]);
  });

  it('indexes only the roots asked for', () => {
    const findings = createPhenome(ontology, { roots: ['HP:0000118'] });
    expect(findings.extract('autosomal dominant inheritance')).toEqual([]);
    expect(ids(phenome.extract('autosomal dominant inheritance'))).toEqual(['HP:0000006']);
  });
});

describe('caseProfile', () => {
  it("keeps the patient's stated findings: no relative's, hedged, nested or non-phenotype term", () => {
    const terms = createPhenome(ontology, { nested: true }).extract(
      'Autosomal dominant. The boy had vestibular schwannoma and no cataract. His mother had seizures. Brachydactyly cannot be ruled out.',
    );
    // The extractor reports them all, flagged.
    expect(new Set(ids(terms))).toEqual(
      new Set(['HP:0000006', 'HP:0009588', 'HP:0100008', 'HP:0000518', 'HP:0001250', 'HP:0001156']),
    );
    expect(caseProfile(terms)).toEqual({ present: ['HP:0009588'], excluded: ['HP:0000518'] });
  });

  it('does not exclude a finding that is also stated present', () => {
    const terms = phenome.extract('There were no seizures at first. Later the boy had seizures.');
    expect(caseProfile(terms)).toEqual({ present: ['HP:0001250'], excluded: [] });
  });
});

describe('createPhenome: abbreviations', () => {
  it('matches an unambiguous ontology abbreviation case-sensitively', () => {
    expect(ids(phenome.extract('Echo showed a VSD.'))).toEqual(['HP:0001629']);
    expect(phenome.extract('echo showed a vsd.')).toEqual([]);
  });

  it('reads words that are names of object properties as plain words', () => {
    expect(
      ids(phenome.extract('The constructor and toString of hasOwnProperty had seizures.')),
    ).toEqual(['HP:0001250']);
  });

  it('does not guess an abbreviation that names two terms', () => {
    expect(phenome.extract('The ASD was noted.')).toEqual([]);
  });

  it('propagates an in-text definition to later uses of the short form', () => {
    const text = 'He has an atrial septal defect (ASD). The ASD was closed.';
    const terms = phenome.extract(text);
    expect(ids(terms)).toEqual(['HP:0001631', 'HP:0001631', 'HP:0001631']);
    expect(terms.map((t) => t.text)).toEqual(['atrial septal defect', 'ASD', 'ASD']);
  });

  it('lets a definition of a non-phenotype override the ontology abbreviation', () => {
    const text =
      'Patients with the ventricular signalling disorder (VSD) were studied; VSD is rare.';
    expect(phenome.extract(text).filter((t) => t.text === 'VSD')).toEqual([]);
  });
});

describe('createPhenome: reverse abbreviation definitions', () => {
  it('resolves "SF (long form)" and blocks an unrelated ontology abbreviation', () => {
    const defined = phenome.extract('An ASD (atrial septal defect) was seen. The ASD closed.');
    expect(defined.filter((t) => t.text === 'ASD').map((t) => t.id)).toEqual([
      'HP:0001631',
      'HP:0001631',
    ]);
    const other = phenome.extract('The VSD (vascular smooth dysplasia) study. VSD is rare.');
    expect(other.filter((t) => t.text === 'VSD')).toEqual([]);
  });
});

describe('createPhenome: context', () => {
  it('flags negated mentions and stops the scope at a terminator', () => {
    const terms = phenome.extract('No seizures or cataracts, but hearing loss was present.');
    expect(find(terms, 'HP:0001250').negated).toBe(true);
    expect(find(terms, 'HP:0000518').negated).toBe(true);
    expect(find(terms, 'HP:0000365').negated).toBe(false);
  });

  it('denies the cause, not the finding, in "no cause of X" / "no explanation for X"', () => {
    for (const text of [
      'No hormonal or systemic cause of seizures was identified.',
      'No explanation for the seizures was found.',
      'There was no obvious reason for the seizures.',
    ])
      expect(find(phenome.extract(text), 'HP:0001250').negated, text).toBe(false);
    expect(find(phenome.extract('There were no seizures.'), 'HP:0001250').negated).toBe(true);
  });

  it('negates a whole list after "none of the patients had"', () => {
    const terms = phenome.extract(
      'None of the patients had seizures, cataracts or hearing loss. Two had deafness.',
    );
    expect(terms.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', true],
      ['HP:0000518', true],
      ['HP:0000365', true],
      ['HP:0000365', false],
    ]);
  });

  it('handles denies, without, post-negation and sentence boundaries', () => {
    expect(find(phenome.extract('She denies hearing loss.'), 'HP:0000365').negated).toBe(true);
    expect(find(phenome.extract('Deafness without cataract.'), 'HP:0000518').negated).toBe(true);
    expect(find(phenome.extract('Deafness without cataract.'), 'HP:0000365').negated).toBe(false);
    expect(find(phenome.extract('Seizures were absent.'), 'HP:0001250').negated).toBe(true);
    expect(
      find(phenome.extract('There was no fever. Seizures started at 2.'), 'HP:0001250').negated,
    ).toBe(false);
  });

  it('reads the value a note writes after a finding: "Seizures: no", "splenomegaly (-)"', () => {
    const read = (text: string): [string, boolean][] =>
      phenome.extract(text).map((t) => [t.label, t.negated]);
    expect(read('Seizures: no. Hypotonia: yes.')).toEqual([
      ['Seizure', true],
      ['Hypotonia', false],
    ]);
    expect(read('Hepatosplenomegaly (+), splenomegaly (-), cataract (−), ataxia (neg).')).toEqual([
      ['Hepatosplenomegaly', false],
      ['Splenomegaly', true],
      ['Cataract', true],
      ['Ataxia', true],
    ]);
    expect(read('Ataxia: absent; seizures: negative; cataract: none; anemia: present.')).toEqual([
      ['Ataxia', true],
      ['Seizure', true],
      ['Cataract', true],
      ['Anemia', false],
    ]);
    // A value that continues, a number, or a dash between words is not such a value.
    expect(read('Seizures: no history of treatment. Ataxia: -2 points.')).toEqual([
      ['Seizure', false],
      ['Ataxia', false],
    ]);
    // "No." before a number is the abbreviation of "number": no sentence ends there.
    expect(read('Seizures (patient no. 3) were frequent.')).toEqual([['Seizure', false]]);
  });

  it('limits "without" and "absence of" to the first phrase of a list', () => {
    const terms = phenome.extract('Deafness without cataract, seizures and hypotonia.');
    expect(find(terms, 'HP:0000518').negated).toBe(true);
    expect(find(terms, 'HP:0001250').negated).toBe(false);
    const listed = phenome.extract('There were no cataracts, seizures or deafness.');
    expect(listed.every((t) => t.negated)).toBe(true);
    expect(listed).toHaveLength(3);
  });

  it('negates a whole list closed by "or" after "without" / "absence of"', () => {
    const born = phenome.extract('She was born without complications, seizures or hypotonia.');
    expect(born.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', true],
      ['HP:0001252', true],
    ]);
    const but = phenome.extract('Absence of cataract, ataxia, or seizures, but deafness.');
    expect(but.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0000518', true],
      ['HP:0001251', true],
      ['HP:0001250', true],
      ['HP:0000365', false],
    ]);
    // A verb after the comma starts another clause.
    const verb = phenome.extract('He walked without support, and had seizures or ataxia.');
    expect(verb.every((t) => !t.negated)).toBe(true);
    expect(verb).toHaveLength(2);
  });

  it('distributes a negation into the parenthesis that lists what the negated phrase names', () => {
    const terms = phenome.extract(
      'The boy lacked the other cardinal signs (seizures, cataract, and ataxia) of the syndrome, but had hearing loss.',
    );
    expect(terms.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', true],
      ['HP:0000518', true],
      ['HP:0001251', true],
      ['HP:0000365', false],
    ]);
    // A parenthesis after a finding that is not negated stays positive.
    const plain = phenome.extract(
      'Hypotonia (with seizures and ataxia) was present without cataract.',
    );
    expect(plain.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001252', false],
      ['HP:0001250', false],
      ['HP:0001251', false],
      ['HP:0000518', true],
    ]);
  });

  it('negates every item of a clause-opening list before "were absent" / "were not observed"', () => {
    for (const sentence of [
      'Seizures, cataract and ataxia were absent.',
      'On examination: seizures, cataract, and ataxia were not observed.',
    ]) {
      const terms = phenome.extract(sentence);
      expect(terms).toHaveLength(3);
      expect(terms.every((t) => t.negated)).toBe(true);
    }
    // The list must open its clause and hold no verb: here only the reflexes are absent.
    const verb = phenome.extract('She had seizures, cataract and ataxia were absent.');
    expect(verb.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', false],
      ['HP:0000518', false],
      ['HP:0001251', true],
    ]);
  });

  it('negates what "was not documented / recorded" after it', () => {
    for (const sentence of [
      'Seizures or ataxia were not documented.',
      'Seizures were not recorded.',
    ]) {
      const terms = phenome.extract(sentence);
      expect(terms.length).toBeGreaterThan(0);
      expect(terms.every((t) => t.negated)).toBe(true);
    }
    // A new feature of the patient's disease is no negation.
    expect(
      find(phenome.extract('Ataxia was not reported in this syndrome before.'), 'HP:0001251')
        .negated,
    ).toBe(false);
    // A documented finding is stated.
    expect(find(phenome.extract('Seizures were documented by EEG.'), 'HP:0001250').negated).toBe(
      false,
    );
  });

  it('reads "absence of seizures" as a negation, not as absence seizures', () => {
    const terms = phenome.extract(
      'There was an absence of seizures. Her brother had absence seizures.',
    );
    expect(terms.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001250', true],
      ['HP:0002121', false],
    ]);
  });

  it('treats "cannot be ruled out" as uncertainty, not negation', () => {
    const t = find(phenome.extract('Seizures cannot be ruled out.'), 'HP:0001250');
    expect(t).toMatchObject({ negated: false, uncertain: true });
    const p = find(phenome.extract('Possible cataract on the left.'), 'HP:0000518');
    expect(p.uncertain).toBe(true);
    expect(p.confidence).toBeLessThan(1);
  });

  it('reads the query marks of notes as uncertainty: "?seizures", "r/o ataxia", "cataract?"', () => {
    const read = (text: string): [string, boolean, boolean][] =>
      phenome.extract(text).map((t) => [t.label, t.negated, t.uncertain === true]);
    expect(read('?seizures, r/o ataxia. Cataract.')).toEqual([
      ['Seizure', false, true],
      ['Ataxia', false, true],
      ['Cataract', false, false],
    ]);
    expect(read('Impression: R/O seizures; anemia? Hypotonia present.')).toEqual([
      ['Seizure', false, true],
      ['Anemia', false, true],
      ['Hypotonia', false, false],
    ]);
    // A question mark elsewhere in the sentence is no query of the finding.
    expect(read('Seizures were frequent (why?).')).toEqual([['Seizure', false, false]]);
  });

  it('negates "was negative for", "we ruled out", "X was ruled out", "unlikely" and "within normal limits"', () => {
    const listed = phenome.extract('Eye examination was negative for cataracts or deafness.');
    expect(listed).toHaveLength(2);
    expect(listed.every((t) => t.negated)).toBe(true);
    const ruled = phenome.extract('Therefore, we ruled out seizures and cataract as causes.');
    expect(ruled.every((t) => t.negated)).toBe(true);
    expect(find(phenome.extract('Seizures were ruled out.'), 'HP:0001250').negated).toBe(true);
    expect(find(phenome.extract('Seizures seemed unlikely.'), 'HP:0001250').negated).toBe(true);
    expect(find(phenome.extract('The boy has seizures.'), 'HP:0001250').negated).toBe(false);
    const history = phenome.extract(
      'The family history was negative with respect to deafness, including cataracts.',
    );
    expect(history.every((t) => t.negated)).toBe(true);
  });

  it('negates a finding written with the prefix "non-" unless the pair names both', () => {
    expect(find(phenome.extract('These were non-epileptic seizures.'), 'HP:0001250').negated).toBe(
      true,
    );
    expect(find(phenome.extract('These were epileptic seizures.'), 'HP:0001250').negated).toBe(
      false,
    );
  });

  it('does not read what genes or a gene panel are for as a finding in a case report', () => {
    const report = (sentence: string): string =>
      `We report a boy. ${'He was born at term. '.repeat(150)}${sentence}`;
    expect(
      ids(phenome.extract(report('We sequenced 133 candidate genes for hereditary ataxia.'))),
    ).toEqual([]);
    expect(
      ids(
        phenome.extract(report('Exome sequencing covered the genes associated with hearing loss.')),
      ),
    ).toEqual([]);
    // A finding after the panel's disease in the same sentence is still read.
    expect(
      ids(phenome.extract(report('A panel for epilepsy was negative although he had ataxia.'))),
    ).toEqual(['HP:0001251']);
    expect(ids(phenome.extract(report('The gene was expressed; he had ataxia.')))).toEqual([
      'HP:0001251',
    ]);
    // An abstract's disease name also names the finding (the GSC+ reading).
    expect(ids(phenome.extract('The gene for hereditary ataxia maps to 6p.'))).toEqual([
      'HP:0001251',
    ]);
  });

  it('does not read a rating instrument or a procedure as a finding', () => {
    expect(ids(phenome.extract('He was awake (Glasgow Coma Scale score of 15).'))).toEqual([]);
    expect(ids(phenome.extract('He fell into a coma.'))).toEqual(['HP:0001259']);
    expect(ids(phenome.extract('Bone marrow aspiration showed a normal marrow.'))).toEqual([]);
    expect(ids(phenome.extract('Recurrent aspiration was noted.'))).toEqual(['HP:0002835']);
    expect(ids(phenome.extract('Bone marrow (BM) aspiration showed a normal marrow.'))).toEqual([]);
    // The procedure reporting its result, without the organ before it.
    expect(ids(phenome.extract('Aspiration showed active BM.'))).toEqual([]);
    expect(ids(phenome.extract('A repeat aspiration revealed a normal marrow.'))).toEqual([]);
    expect(ids(phenome.extract('Videofluoroscopy showed aspiration.'))).toEqual(['HP:0002835']);
  });

  it('does not read "falling asleep" as falls or "dried blood spots" as purpura', () => {
    expect(
      ids(phenome.extract('She fell asleep on a bus after falling asleep at school.')),
    ).toEqual([]);
    expect(ids(phenome.extract('He had frequent falls.'))).toEqual(['HP:0002527']);
    expect(ids(phenome.extract('DNA was extracted from newborn dried blood spots.'))).toEqual([]);
    expect(ids(phenome.extract('She had blood spots on her legs.'))).toEqual(['HP:0000979']);
  });

  it('does not read the finding in an eponymous disease name, unless it is a neoplasm', () => {
    expect(
      ids(phenome.extract('Her brother had Fanconi anemia; she had Diamond-Blackfan anemia.')),
    ).toEqual([]);
    // Title case and a capitalised first word are no eponym; a neoplasm so named is one.
    expect(
      ids(phenome.extract('Severe anemia was treated. Two patients had Burkitt lymphoma.')),
    ).toEqual(['HP:0001903', 'HP:0002665']);
    // After "(" a capital names a disease when the parenthesis spells out the acronym before it.
    expect(ids(phenome.extract('Recombinants map FACC (Fanconi anemia, group C) to 9q.'))).toEqual(
      [],
    );
    expect(ids(phenome.extract('Laboratory tests (Severe anemia was found) followed.'))).toEqual([
      'HP:0001903',
    ]);
  });

  it('does not read "fall short / into / within" as falls or "collecting system" as collecting', () => {
    expect(
      ids(
        phenome.extract(
          'They fall short of the criteria. The cases fall into two groups; values fell within the range.',
        ),
      ),
    ).toEqual([]);
    expect(ids(phenome.extract('He often falls on the stairs and had falls at night.'))).toEqual([
      'HP:0002527',
      'HP:0002527',
    ]);
    expect(ids(phenome.extract('The right kidney had a double collecting system.'))).toEqual([]);
    expect(ids(phenome.extract('He spends hours collecting bottle caps.'))).toEqual(['HP:0030212']);
  });

  it('does not read an identifier as intellectual disability', () => {
    for (const text of [
      'Patient IDs\tSex\tAge',
      'Patient(s) ID AN_002501-37 are listed.',
      'Sample ID: P12345',
    ])
      expect(ids(phenome.extract(text))).toEqual([]);
    expect(ids(phenome.extract('The patient had ID and seizures.'))).toEqual([
      'HP:0001249',
      'HP:0001250',
    ]);
    expect(ids(phenome.extract('She had ID at 2 years.'))).toEqual(['HP:0001249']);
  });

  it('reads weakness in a body region or muscle group as muscle weakness, bare weakness as asthenia', () => {
    expect(ids(phenome.extract('She had proximal weakness.'))).toEqual(['HP:0003701']);
    expect(ids(phenome.extract('There was mild weakness in both legs.'))).toEqual(['HP:0001324']);
    expect(ids(phenome.extract('He complained of fatigue and weakness.'))).toEqual(['HP:0025406']);
    // The first muscle group named after "of", when the HPO has "<group> muscle weakness";
    // a grade (MRC) may stand between.
    expect(
      ids(phenome.extract('Testing showed weakness MRC grade 2 of the neck flexors.')),
    ).toEqual(['HP:0000467']);
    expect(
      ids(phenome.extract('She had weakness of the peroneal and anterior tibial muscles.')),
    ).toEqual(['HP:0011727']);
    for (const text of [
      'She had weakness of the tibial and peroneal muscles.',
      'There was a weakness grade 4 of the hip flexors.',
      'Facial muscles showed a slight weakness.',
      'The arms showed a grade 4 weakness.',
    ])
      expect(ids(phenome.extract(text))).toEqual(['HP:0001324']);
    expect(ids(phenome.extract('She reported weakness of the whole body.'))).toEqual([
      'HP:0025406',
    ]);
  });

  it('reads a bound prefix before a slash with the ending of the next word', () => {
    const terms = phenome.extract('He had brachy/plagiocephaly and cataract.');
    expect(terms.map((t) => [t.id, t.text])).toEqual([
      ['HP:0000248', 'brachy'],
      ['HP:0001357', 'plagiocephaly'],
      ['HP:0000518', 'cataract'],
    ]);
    // Whole words on both sides are no prefix.
    expect(ids(phenome.extract('His mother/father had seizures.'))).toEqual(['HP:0001250']);
  });

  it('reads "profound X" as "Severe X" only where the HPO has no "Profound X"', () => {
    expect(ids(longestWhole.extract('She had profound hypotonia.'))).toEqual(['HP:0006829']);
    expect(ids(longestWhole.extract('He had profound intellectual disability.'))).toEqual([
      'HP:0002187',
    ]);
    expect(ids(longestWhole.extract('He had severe intellectual disability.'))).toEqual([
      'HP:0010864',
    ]);
  });

  it('does not read a finding named inside a disease name as the finding', () => {
    expect(ids(phenome.extract('She had chronic fatigue.'))).toEqual(['HP:0012432']);
    expect(ids(phenome.extract('The boy was hypotonic.'))).toEqual(['HP:0001252']);
    expect(ids(phenome.extract('a hypotonic chondrodysplasia'))).toEqual([]);
    const report = `We report a boy with seizures. ${'He was born at term. '.repeat(150)}He had chronic fatigue syndrome.`;
    expect(ids(phenome.extract(report))).toEqual(['HP:0001250']);
    // In an abstract the syndrome's name is annotated as the finding it names.
    expect(ids(phenome.extract('A girl with chronic fatigue syndrome.'))).toEqual(['HP:0012432']);
  });

  it('reads a grave accent typed for an apostrophe', () => {
    expect(ids(phenome.extract('Brachydactyly and Down`s face.'))).toEqual(['HP:0001156']);
    expect(ids(phenome.extract('The boy`s seizures stopped.'))).toEqual(['HP:0001250']);
  });

  it('does not read a cited author, a species or a gene named after a finding', () => {
    expect(ids(phenome.extract('As Coma (1975) noted, the boy had seizures.'))).toEqual([
      'HP:0001250',
    ]);
    expect(ids(phenome.extract('He fell into a coma (1975 cases were reviewed).'))).toEqual([
      'HP:0001259',
    ]);
    expect(ids(phenome.extract('The cataract locus was mapped; she had seizures.'))).toEqual([
      'HP:0001250',
    ]);
  });

  it('keeps a post-trigger to its own phrase', () => {
    const t = phenome.extract('Both had seizures with increased tone and absent reflexes.');
    expect(find(t, 'HP:0001250').negated).toBe(false);
    expect(find(phenome.extract('Seizures absent.'), 'HP:0001250').negated).toBe(true);
  });

  it('treats "may be absent" as hedging', () => {
    expect(find(phenome.extract('Deafness may be absent.'), 'HP:0000365')).toMatchObject({
      negated: false,
      uncertain: true,
    });
  });

  it('attributes findings of relatives to the family', () => {
    const terms = phenome.extract('His mother has cataracts. The patient has seizures.');
    expect(find(terms, 'HP:0000518').subject).toBe('family');
    expect(find(terms, 'HP:0001250').subject).toBe('patient');
    expect(find(phenome.extract('Family history of deafness.'), 'HP:0000365').subject).toBe(
      'family',
    );
    expect(
      find(phenome.extract('Cataracts were also seen in his sister.'), 'HP:0000518').subject,
    ).toBe('family');
  });

  it("attributes a relative's finding named by a possessive or by 'of' to the family", () => {
    const subject = (text: string): string => find(phenome.extract(text), 'HP:0000518').subject;
    expect(subject("His sister's cataracts were operated.")).toBe('family');
    expect(subject('The cataracts of his brother were operated.')).toBe('family');
    expect(subject("The cataracts of the proband's sister were operated.")).toBe('family');
    // The patient's own, by possessive or by "of".
    expect(subject("The proband's cataracts were operated.")).toBe('patient');
    expect(subject('The cataracts of the proband were operated.')).toBe('patient');
  });

  it("attributes the findings of the patient's children and spouse to the family", () => {
    const terms = phenome.extract(
      'The proband reported that her first daughter presented cataract and seizures. He is the first son of healthy parents and has deafness.',
    );
    expect(terms.map((t) => [t.id, t.subject])).toEqual([
      ['HP:0000518', 'family'],
      ['HP:0001250', 'family'],
      ['HP:0000365', 'patient'],
    ]);
  });

  it('keeps the patient as subject when a relative is only the object of a preposition', () => {
    expect(
      find(phenome.extract('Born to healthy parents, she developed seizures.'), 'HP:0001250')
        .subject,
    ).toBe('patient');
  });
});

describe('createPhenome: sections', () => {
  const paper = [
    'Seizures in a boy',
    'Introduction',
    'Cataract is common in other syndromes and was reported before.',
    'Case presentation',
    'The boy had seizures and deafness.',
    'Discussion',
    'Brachydactyly has been described in related disorders.',
    'References',
    'Hypotonia in mice. J Genet 2001.',
  ].join('\n');

  it('keeps only the title and case sections of a sectioned full text when asked', () => {
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true }).extract(paper);
    expect([...new Set(ids(focused))].sort()).toEqual(['HP:0000365', 'HP:0001250']);
    expect(new Set(ids(longestWhole.extract(paper)))).toEqual(
      new Set(['HP:0001250', 'HP:0000518', 'HP:0000365', 'HP:0001156', 'HP:0001252']),
    );
  });

  it('reads a sectioned article from its case sections, not its title', () => {
    const titled = paper.replace('Seizures in a boy', 'Cataract in a boy');
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true }).extract(titled);
    expect([...new Set(ids(focused))].sort()).toEqual(['HP:0000365', 'HP:0001250']);
  });

  it('drops organ-level grouping terms from a sectioned article only', () => {
    const withGroup = paper.replace(
      'seizures and deafness',
      'seizures, deafness and ear anomalies',
    );
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true });
    expect([...new Set(ids(focused.extract(withGroup)))].sort()).toEqual([
      'HP:0000365',
      'HP:0001250',
    ]);
    expect(ids(focused.extract('The boy had ear anomalies.'))).toEqual(['HP:0000598']);
  });

  it("drops statements about the disease or a population from a case report, not the patient's findings", () => {
    const report = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had seizures. The syndrome is characterized by deafness and cataract.',
    );
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true });
    expect([...new Set(ids(focused.extract(report)))]).toEqual(['HP:0001250']);
    const own = paper.replace(
      'The boy had seizures and deafness.',
      'Our patient had seizures, and, as typically seen in the syndrome, deafness.',
    );
    expect([...new Set(ids(focused.extract(own)))].sort()).toEqual(['HP:0000365', 'HP:0001250']);
    // A frequency adverb describes the patient as often as the disease.
    const usual = paper.replace(
      'The boy had seizures and deafness.',
      'Seizures usually occurred at night. Deafness was typically worse in winter.',
    );
    expect([...new Set(ids(focused.extract(usual)))].sort()).toEqual(['HP:0000365', 'HP:0001250']);
    // A long case report without headings is read the same way.
    const letter = `We report a boy with seizures. ${'He was born at term. '.repeat(150)}The syndrome is characterized by deafness.`;
    expect([...new Set(ids(focused.extract(letter)))]).toEqual(['HP:0001250']);
    // A statement about molecules or an experiment is not the patient's either.
    const molecular = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had seizures. The variant lies in a hydrophobic residue of the domain. Knockout mice show deafness.',
    );
    expect([...new Set(ids(focused.extract(molecular)))]).toEqual(['HP:0001250']);
    // ... nor one about an animal model.
    for (const other of [
      'Affected animals show deafness and cataract.',
      'A mouse model of the disease has deafness and cataract.',
      'Murine deafness and cataract were described.',
      // ... or about another disease (a differential diagnosis).
      'Although Norrie disease also shows deafness and cataract, it was not considered.',
      'Patients with Norrie disease present with deafness and cataract.',
    ]) {
      const model = paper.replace(
        'The boy had seizures and deafness.',
        `The boy had seizures. ${other}`,
      );
      expect([...new Set(ids(focused.extract(model)))], other).toEqual(['HP:0001250']);
    }
    const patientCells = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had seizures. His cells transfected in vitro showed deafness.',
    );
    expect([...new Set(ids(focused.extract(patientCells)))].sort()).toEqual([
      'HP:0000365',
      'HP:0001250',
    ]);
    // A text without case sections (an abstract, a note) describes the disease on purpose.
    expect(ids(focused.extract('The syndrome is characterized by deafness.'))).toEqual([
      'HP:0000365',
    ]);
  });

  it('reads the items of a list that a colon opens and semicolons separate with its lead-in', () => {
    const criteria = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had seizures. The minor criteria were ascertained, including the following: neurological signs, e.g., ataxia; sensory signs, i.e., deafness, cataract; and other features.',
    );
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true });
    expect([...new Set(ids(focused.extract(criteria)))]).toEqual(['HP:0001250']);
    // A list of the patient's own findings is read as before.
    const own = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had the following: seizures since infancy; deafness, cataract; and ataxia.',
    );
    expect(
      [...new Set(ids(focused.extract(own)).filter((id) => id !== 'HP:0003593'))].sort(),
    ).toEqual(['HP:0000365', 'HP:0000518', 'HP:0001250', 'HP:0001251']);
    // Semicolons without a colon before them do not join clauses.
    const clauses = paper.replace(
      'The boy had seizures and deafness.',
      'The boy had seizures; such signs, e.g., ataxia, are frequent; deafness was noted.',
    );
    expect([...new Set(ids(focused.extract(clauses)))].sort()).toEqual([
      'HP:0000365',
      'HP:0001250',
    ]);
  });

  it('reads a numbered subsection as part of its section unless it names a patient', () => {
    const numbered = [
      'Seizures in a boy',
      '1. Introduction',
      'Cataract is common in other syndromes.',
      '1.1. Patient 1',
      'The boy had seizures.',
      '2. Materials and methods',
      'DNA was extracted.',
      '3. Discussion',
      '3.1. Gene defects and clinical manifestations',
      'Deafness has been reported in this syndrome.',
      '3.2. Skeletal abnormalities',
      'Brachydactyly is frequent.',
      'References',
      'A. Author. J Genet 2001.',
    ].join('\n');
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true });
    expect([...new Set(ids(focused.extract(numbered)))]).toEqual(['HP:0001250']);
  });

  it('leaves a text without headings whole', () => {
    const note = 'Cataract.\nThe boy had seizures.\nNo deafness.';
    const focused = createPhenome(ontology, { clinicalSectionsOnly: true }).extract(note);
    expect(ids(focused)).toEqual(ids(longestWhole.extract(note)));
  });
});

describe('createPhenome: robustness', () => {
  it('returns nothing for empty, whitespace or punctuation-only input', () => {
    expect(phenome.extract('')).toEqual([]);
    expect(phenome.extract('   \n\t ')).toEqual([]);
    expect(phenome.extract('.,;:!?()')).toEqual([]);
  });

  it('returns nothing for nonsense rather than noise', () => {
    expect(phenome.extract('Blorf wuzzle kranth the quibbly snorp of zanf.')).toEqual([]);
  });

  it('handles a 1 MB input in reasonable time with correct offsets', () => {
    const unit = 'The child has seizures and no cataracts; his mother has deafness. ';
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const t0 = performance.now();
    const terms = phenome.extract(text);
    const ms = performance.now() - t0;
    const copies = Math.ceil(1_000_000 / unit.length);
    expect(terms.filter((t) => t.id === 'HP:0001250')).toHaveLength(copies);
    expect(terms.filter((t) => t.id === 'HP:0000518' && t.negated)).toHaveLength(copies);
    const last = terms.at(-1) as PhenomeTerm;
    expect(text.slice(last.start, last.end)).toBe(last.text);
    expect(ms).toBeLessThan(10_000);
  });

  it('rejects an out-of-range minConfidence and filters by it', () => {
    expect(() => createPhenome(ontology, { minConfidence: 2 })).toThrow(RangeError);
    const strict = createPhenome(ontology, { minConfidence: 0.9 });
    expect(ids(strict.extract('Cataract. Possible seizures.'))).toEqual(['HP:0000518']);
  });

  it('reports the context of an arbitrary span', () => {
    const text = 'No seizures.';
    expect(phenome.contextOf(text, 3, 11)).toEqual({
      negated: true,
      uncertain: false,
      subject: 'patient',
    });
    expect(() => phenome.contextOf(text, 5, 50)).toThrow(RangeError);
  });
});

describe('createPhenome: tables in a sectioned article', () => {
  it('drops a term named only in a table row, keeps one also named in the prose', () => {
    const paper = [
      'A family',
      'Introduction',
      'Hypotonia is common.',
      'Case presentation',
      'The boy had seizures.',
      'Patient\tSeizures\tCataract',
      'P1\tyes\tyes',
      'Discussion',
      'Deafness is described.',
    ].join('\n');
    expect([...new Set(ids(phenome.extract(paper)))]).toEqual(['HP:0001250']);
    // A text without sections keeps its table.
    expect([...new Set(ids(phenome.extract('Seizures\tCataract')))]).toEqual([
      'HP:0001250',
      'HP:0000518',
    ]);
  });

  it('reads a row that marks its finding per patient, in an article and in a plain note', () => {
    const paper = [
      'Five patients',
      'Introduction',
      'Hypotonia is common.',
      'Results',
      'Patient\t1\t2\t3',
      'Seizures\t-\t+\t-',
      'Cataract\t-\tno\tNA',
      'Deafness\t√\t\t√',
      'Hypotonia\t12 months\t3 years\t-',
      'Discussion',
      'Deafness is described.',
    ].join('\n');
    const terms = phenome.extract(paper);
    // Present in one patient: reported; absent in every marked column: negated.
    expect(find(terms, 'HP:0001250').negated).toBe(false);
    expect(find(terms, 'HP:0000518').negated).toBe(true);
    expect(find(terms, 'HP:0000365').negated).toBe(false);
    // A row of values, not marks, keeps the table rule (named only in a table: not reported).
    expect(ids(terms)).not.toContain('HP:0001252');
    expect(phenome.extract('Seizures\tno\nCataract\tyes')).toMatchObject([
      { id: 'HP:0001250', negated: true },
      { id: 'HP:0000518', negated: false },
    ]);
  });

  it('reads a row written without its empty cells between table rows as a table row', () => {
    const paper = [
      'Five patients',
      'Introduction',
      'Hypotonia is common.',
      'Results',
      'Feature\tP1\tP2',
      'Seizures\t√\t√',
      'Eyes',
      'Cataract',
      'Deafness\t√\t',
      'Discussion',
      'Ataxia is described.',
    ].join('\n');
    const found = [...new Set(ids(phenome.extract(paper).filter((t) => !t.negated)))];
    // The unmarked row "Cataract" states nothing; the marked rows are read.
    expect(found).toEqual(['HP:0001250', 'HP:0000365']);
    // A sentence between two tables is prose.
    const prose = paper.replace('Cataract', 'The boy also had a cataract.');
    expect(ids(phenome.extract(prose))).toContain('HP:0000518');
  });

  it('reads marks only for the row header, not for a mention in a value cell', () => {
    expect(tableRowMark('Eyes\tCataract\t+', 5, 13)).toBeUndefined();
    expect(tableRowMark('Cataract\t+\t-', 0, 8)).toBe('present');
    expect(tableRowMark('Cataract\t-\t?', 0, 8)).toBe('absent');
    expect(tableRowMark('Cataract\t?\t', 0, 8)).toBeUndefined();
    expect(tableRowMark('Cataract\tsee text\t+', 0, 8)).toBeUndefined();
    expect(tableRowMark('Cataract in one eye', 0, 8)).toBeUndefined();
  });

  it('reads a "Results and discussion" section as the findings', () => {
    const paper = [
      'A boy',
      'Introduction',
      'Hypotonia is common.',
      'Methods',
      'Deafness was assessed.',
      'Results and discussion',
      'The boy had seizures.',
      'References',
    ].join('\n');
    expect([...new Set(ids(phenome.extract(paper)))]).toEqual(['HP:0001250']);
  });
});

describe('createPhenome: a one-word synonym in another sense', () => {
  const ontology = buildOntology([
    ['HP:0000001', 'All', []],
    ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
    ['HP:0001367', 'Abnormal joint morphology', ['HP:0000118']],
    ['HP:0009811', 'Abnormality of the elbow', ['HP:0000118']],
    ['HP:0034392', 'Joint contracture', ['HP:0001367'], ['Contracture']],
    ['HP:0041092', 'Emotional hypersensitivity', ['HP:0000118'], ['Hypersensitivity']],
    ['HP:0100962', 'Excessive shyness', ['HP:0000118'], ['Shyness']],
    ['HP:0001903', 'Anemia', ['HP:0000118']],
  ]);
  const ids = (text: string): string[] =>
    createPhenome(ontology)
      .extract(text)
      .map((t) => t.id);

  it('reads a synonym that drops its qualifier as another sense when "of" names no site or person', () => {
    expect(
      ids('In vitro studies showed hypersensitivity of erythroid progenitors to EPO.'),
    ).toEqual([]);
    expect(ids('The knees had a contracture of 10°.')).toEqual([]);
    // The site the qualifier names, a person, or no "of" keep the term.
    expect(ids('She had a contracture of the elbow.')).toEqual(['HP:0034392']);
    expect(ids('There was hypersensitivity of the child to noise.')).toEqual(['HP:0041092']);
    expect(ids('Marked shyness of strangers.')).toEqual(['HP:0100962']);
    expect(ids('He showed hypersensitivity and a contracture.')).toEqual([
      'HP:0041092',
      'HP:0034392',
    ]);
  });
});
