/**
 * Tests against the real HPO release in RARELENS_SOURCES (default ../shared/data). They are
 * skipped, loudly, when the reference data is not present.
 */
import { existsSync } from 'node:fs';
import type { Ontology } from '@rarelens/engine';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_ABBREVIATIONS } from './abbreviations.ts';
import {
  CLINICAL_ABBREVIATIONS,
  CLINICAL_NAMES,
  LAY_LEXICON,
  NON_PHENOTYPE_PHRASES,
} from './lexicon.ts';
import { defaultHpoPath, loadOntologyFile } from './load.ts';
import { createPhenome, type Phenome } from './phenome.ts';

const hpoPath = defaultHpoPath();
const hasData = existsSync(hpoPath);

describe.skipIf(!hasData)(`PhenomeAI on the real HPO (${hpoPath})`, () => {
  let ontology: Ontology;
  let phenome: Phenome;
  beforeAll(() => {
    ontology = loadOntologyFile(hpoPath);
    phenome = createPhenome(ontology);
  });
  /** The labels of the terms read from a text, sorted. */
  const sortedLabels = (text: string): string[] =>
    phenome
      .extract(text)
      .map((t) => t.label)
      .sort();

  it('has every curated lexicon id as a current phenotype term with the recorded label', () => {
    expect(phenome.stats.skippedLexicon).toEqual([]);
    const senses = Object.values(CONTEXT_ABBREVIATIONS)
      .flat()
      .flatMap((s) => (s.id ? [{ id: s.id, label: s.label }] : []));
    for (const e of [...LAY_LEXICON, ...CLINICAL_ABBREVIATIONS, ...CLINICAL_NAMES, ...senses]) {
      const t = ontology.terms.get(e.id);
      expect(t?.obsolete, e.id).toBe(false);
      expect(t?.label, e.id).toBe(e.label);
      expect(ontology.isA(e.id, 'HP:0000118'), e.id).toBe(true);
    }
    for (const e of NON_PHENOTYPE_PHRASES) {
      const t = ontology.terms.get(e.id);
      expect(t?.obsolete, e.id).toBe(false);
      expect(t?.label, e.id).toBe(e.label);
      expect(ontology.isA(e.id, 'HP:0000118'), e.id).toBe(false);
    }
  });

  it('reads lay and older clinical words: deaf, convulsions, enlarged spleen, unable to walk', () => {
    const cases: [string, string][] = [
      ['She was deaf.', 'HP:0000365'],
      ['He had convulsions.', 'HP:0001250'],
      ['The spleen was enlarged.', 'HP:0001744'],
      ['He had an enlarged tongue.', 'HP:0000158'],
      ['Muscle tone was decreased.', 'HP:0001252'],
      ['He had trouble swallowing.', 'HP:0002015'],
      ['She had crossed eyes.', 'HP:0000486'],
      ['She was drowsy.', 'HP:0002329'],
      ['He was unable to walk.', 'HP:0002540'],
      ['She lost the ability to walk.', 'HP:0002505'],
      ['She was anxious.', 'HP:0000739'],
      ['She was short-sighted.', 'HP:0000545'],
      ['He was long-sighted.', 'HP:0000540'],
      ['He had kidney failure.', 'HP:0000083'],
      ['She had lung hypoplasia.', 'HP:0002089'],
      ['There was brain edema.', 'HP:0002181'],
      ['Both thumbs were missing.', 'HP:0009777'],
      ['She had raised blood pressure.', 'HP:0032263'],
      ['She was lethargic.', 'HP:0001254'],
      ['She had heavy periods.', 'HP:0000132'],
      ['He had upgoing plantars.', 'HP:0003487'],
      ['She was non-verbal.', 'HP:0001344'],
    ];
    for (const [text, id] of cases)
      expect(
        phenome.extract(text).map((t) => t.id),
        text,
      ).toEqual([id]);
  });

  it('reads BPD and ASD by their context, not by the one sense the ontology lists', () => {
    const read = (text: string): [string, string][] =>
      phenome.extract(text).map((t) => [t.text, t.id]);
    // HPO lists BPD only as Borderline personality disorder: in a neonatal note it is
    // bronchopulmonary dysplasia, the chronic lung disease of prematurity.
    expect(read('Born at 26 weeks of gestation, he developed BPD and needed home oxygen.')).toEqual(
      [['BPD', 'HP:0006528']],
    );
    expect(read('The preterm boy had bronchopulmonary dysplasia.')).toEqual([
      ['bronchopulmonary dysplasia', 'HP:0006528'],
    ]);
    expect(read('She has a history of BPD and self-harm.')).toEqual([
      ['BPD', 'HP:0012076'],
      ['self-harm', 'HP:0100716'],
    ]);
    expect(read('He has BPD.')).toEqual([]);
    expect(read('Fetal ultrasound at 20 weeks showed a BPD of 45 mm.')).toEqual([]);
    // ASD names two terms in the HPO: the context chooses.
    expect(read('Echocardiography showed an ASD.')).toEqual([['ASD', 'HP:0001631']]);
    expect(read('She was diagnosed with ASD and repetitive behaviours.').slice(0, 1)).toEqual([
      ['ASD', 'HP:0000729'],
    ]);
    // The HPO's one reading of TGA and CVI, only where the context agrees.
    expect(read('Globin-R (5-TTG CCA AAG TGA TGG GCC AG-3) was used.')).toEqual([]);
    expect(read('Echocardiography showed TGA.')).toEqual([['TGA', 'HP:0001669']]);
    expect(read('She has chronic CVI with leg oedema.').map((x) => x[1])).toContain('HP:0005293');
    // A definition in the text wins over the context.
    expect(
      read('An ASD (atrial septal defect) was found; social skills were poor.').map((x) => x[1]),
    ).toContain('HP:0001631');
  });

  it('reads inheritance and onset of the disease on the full HPO, outside the phenotype category', () => {
    const terms = phenome.extract(
      'The disorder is inherited in an autosomal dominant manner with incomplete penetrance; our patient had childhood-onset ataxia.',
    );
    expect(terms.map((t) => [t.id, t.category])).toEqual([
      ['HP:0000006', 'inheritance'],
      ['HP:0003829', 'inheritance'],
      ['HP:0011463', 'course'],
      ['HP:0001251', 'phenotype'],
    ]);
  });

  it('extracts a typical clinical description with negation and family history', () => {
    const text =
      'A 4-year-old boy with global developmental delay, microcephaly and recurrent fits. ' +
      'He was floppy at birth. There is no hepatomegaly. His mother has bilateral cataracts. ' +
      'Echocardiography showed a VSD.';
    const terms = phenome.extract(text);
    const byId = new Map(terms.map((t) => [t.id, t]));
    expect(byId.get('HP:0001263')?.negated).toBe(false);
    expect(byId.has('HP:0000252')).toBe(true);
    expect(byId.has('HP:0001250')).toBe(true);
    expect(byId.has('HP:0001252')).toBe(true);
    expect(byId.get('HP:0002240')?.negated).toBe(true);
    expect(byId.get('HP:0000518')?.subject).toBe('family');
    expect(byId.has('HP:0001629')).toBe(true);
    for (const t of terms) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('defines an abbreviation in the text and reuses it', () => {
    const terms = phenome.extract('She has intellectual disability (ID). The ID is moderate.');
    expect(terms.filter((t) => t.id === 'HP:0001249').map((t) => t.text)).toEqual([
      'intellectual disability',
      'ID',
      'ID',
    ]);
  });

  it('reads the curated lay phrases and abbreviations in a sentence', () => {
    const terms = phenome.extract('Born SGA, he had palpable lymph nodes, HSM and OSA.');
    expect(terms.map((t) => [t.id, t.negated])).toEqual([
      ['HP:0001518', false],
      ['HP:0002716', false],
      ['HP:0001433', false],
      ['HP:0002870', false],
    ]);
  });

  it('reads the abbreviations of clinical notes that the HPO does not list', () => {
    const read = (text: string): [string, string, boolean][] =>
      phenome.extract(text).map((t) => [t.text, t.id, t.negated]);
    expect(read('PMH: HTN, DVT in 2019. He c/o SOB on exertion.')).toEqual([
      ['HTN', 'HP:0000822', false],
      ['DVT', 'HP:0002625', false],
      ['SOB', 'HP:0002094', false],
    ]);
    expect(read('Echo showed LVH; ECG was consistent with LQTS.')).toEqual([
      ['LVH', 'HP:0001712', false],
      ['LQTS', 'HP:0001657', false],
    ]);
    expect(read('A preterm infant with IVH and NEC, born with HLHS.')).toEqual([
      ['IVH', 'HP:0030746', false],
      ['NEC', 'HP:0033165', false],
      ['HLHS', 'HP:0004383', false],
    ]);
    expect(read('He had WPW and GTCS, but no HTN.').map((x) => [x[1], x[2]])).toEqual([
      ['HP:0001716', false],
      ['HP:0002069', false],
      ['HP:0000822', true],
    ]);
    // Case-sensitive: the words "sob" and "nec" are no findings.
    expect(read('She began to sob; nec plus ultra.')).toEqual([]);
  });

  it('lets a recurrence name that the text does not support leave the mentions inside it', () => {
    // "Fractures of the long bones" is a synonym of Recurrent long bone fractures; without a
    // word of recurrence it is not read, and must not hide "delayed healing of fractures".
    const labels = (text: string): string[] => phenome.extract(text).map((t) => t.label);
    expect(labels('Six men had delayed healing of fractures of the long bones.')).toEqual([
      'Delayed fracture healing',
    ]);
    expect(labels('He had recurrent fractures of the long bones.')).toContain(
      'Recurrent long bone fractures',
    );
  });

  it('reads a list of predicates after a copula as said of the subject ("were small, low-set and ...")', () => {
    expect(sortedLabels('The ears were small, low-set and posteriorly rotated.')).toEqual([
      'Low-set ears',
      'Microtia',
      'Posteriorly rotated ears',
    ]);
    expect(sortedLabels('The fingers were long, thin and tapering.')).toEqual([
      'Long fingers',
      'Slender finger',
      'Tapered finger',
    ]);
    // Not without a copula, and not across a finding of its own.
    expect(sortedLabels('He had long fingers, seizures and ataxia.')).toEqual([
      'Ataxia',
      'Long fingers',
      'Seizure',
    ]);
  });

  it('reads the organ after "of" as the site of an anomaly its adjective qualifies', () => {
    expect(sortedLabels('He had skeletal anomalies of the hands and feet.')).toEqual([
      'Abnormal foot morphology',
      'Abnormality of the hand',
    ]);
    expect(sortedLabels('He had skeletal anomalies.')).toEqual([
      'Abnormality of the skeletal system',
    ]);
  });

  it("reads an organ's adjective as the organ, in either word order", () => {
    const ids = (text: string): string[] =>
      phenome
        .extract(text)
        .filter((t) => !t.negated)
        .map((t) => t.label);
    expect(ids('Radiographs showed hyperostosis of the mandible.')).toEqual([
      'Mandibular hyperostosis',
    ]);
    expect(ids('There was thickening of the cortical bone.')).toEqual([
      'Thickened cortex of bones',
    ]);
    expect(ids('The long bones had sclerosis of the diaphyses.')).toContain('Diaphyseal sclerosis');
    // The adjective qualifies the next word ("ulnar ray"), not the organ alone.
    expect(ids('He had aplasia of the ulnar rays.')).not.toContain('Aplasia of the ulna');
    expect(ids('MRI showed small cerebellar hemispheres.')).not.toContain('Cerebellar hypoplasia');
  });

  it('reads a comparative as its adjective ("coarser facial features")', () => {
    const labels = phenome
      .extract('With age she developed coarser facial features.')
      .map((t) => t.label);
    expect(labels).toContain('Coarse facial features');
  });

  it('reports the finding a severity grades beside the graded term', () => {
    const labels = (text: string): string[] =>
      phenome
        .extract(text)
        .filter((t) => !t.negated)
        .map((t) => t.label)
        .sort();
    expect(labels('Our patient has severe mental retardation.')).toEqual([
      'Intellectual disability',
      'Severe intellectual disability',
    ]);
    expect(labels('Urinalysis showed mild proteinuria.')).toEqual([
      'Mild proteinuria',
      'Proteinuria',
    ]);
    // A qualifier that is not a severity grade stays one term.
    expect(labels('She has sensorineural hearing loss.')).toEqual([
      'Sensorineural hearing impairment',
    ]);
  });

  it('returns nothing for non-English text or nonsense', () => {
    expect(phenome.extract('Der Hund läuft schnell über die Straße und bellt laut.')).toEqual([]);
    expect(phenome.extract('El perro corre rápido por la calle y ladra fuerte.')).toEqual([]);
    expect(phenome.extract('qwv zzkt plorb fnarg 1234 ---- xyzzy')).toEqual([]);
  });
});
