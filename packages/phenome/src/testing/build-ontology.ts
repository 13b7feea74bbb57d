/** Test builders: a small, hand-written HPO-shaped ontology with the structure the matcher relies on. */
import { Ontology, type Synonym, type Term } from '@rarelens/engine';

type TermSpec = [id: string, label: string, parents: string[], synonyms?: (string | Synonym)[]];

/** Builds an Ontology from [id, label, parents, synonyms] rows (string synonyms are exact). */
export function buildOntology(rows: readonly TermSpec[], extra: Partial<Term>[] = []): Ontology {
  const terms: Term[] = rows.map(([id, label, parents, synonyms = []]) => ({
    id,
    label,
    parents,
    synonyms: synonyms.map((s) => (typeof s === 'string' ? { text: s, scope: 'exact' } : s)),
    obsolete: false,
    altIds: [],
  }));
  for (const e of extra) {
    terms.push({
      id: 'HP:9999999',
      label: 'x',
      parents: [],
      synonyms: [],
      obsolete: false,
      altIds: [],
      ...e,
    });
  }
  return new Ontology({ version: 'test', terms });
}

/** A miniature HPO: nervous system, eye, ear, hand, heart, neoplasm branches plus inheritance. */
export function buildMiniHpo(): Ontology {
  return buildOntology(
    [
      ['HP:0000001', 'All', []],
      ['HP:0000118', 'Phenotypic abnormality', ['HP:0000001']],
      ['HP:0000005', 'Mode of inheritance', ['HP:0000001']],
      [
        'HP:0000006',
        'Autosomal dominant inheritance',
        ['HP:0000005'],
        [{ text: 'Autosomal dominant', scope: 'exact' }],
      ],
      ['HP:0003745', 'Sporadic', ['HP:0000005'], [{ text: 'Isolated cases', scope: 'exact' }]],
      ['HP:0012823', 'Clinical modifier', ['HP:0000001']],
      ['HP:0012824', 'Severity', ['HP:0012823']],
      ['HP:0012828', 'Severe', ['HP:0012824']],
      ['HP:0012832', 'Bilateral', ['HP:0012823']],
      ['HP:0003812', 'Phenotypic variability', ['HP:0012823']],
      ['HP:0003828', 'Variable expressivity', ['HP:0003812']],
      ['HP:0031797', 'Clinical course', ['HP:0000001']],
      ['HP:0003674', 'Onset', ['HP:0031797']],
      ['HP:0011463', 'Childhood onset', ['HP:0003674']],
      ['HP:0003676', 'Progressive', ['HP:0031797']],
      ['HP:0040006', 'Mortality/Aging', ['HP:0031797']],
      ['HP:0011420', 'Age of death', ['HP:0040006']],
      ['HP:0034241', 'Prenatal death', ['HP:0011420'], ['Intrauterine death']],
      ['HP:0005268', 'Miscarriage', ['HP:0034241'], ['Spontaneous abortion']],
      ['HP:0000707', 'Abnormality of the nervous system', ['HP:0000118']],
      ['HP:0001250', 'Seizure', ['HP:0000707'], ['Seizures', 'Epileptic seizure']],
      ['HP:0002121', 'Absence seizure', ['HP:0001250'], ['Absence seizures']],
      ['HP:0001251', 'Ataxia', ['HP:0000707']],
      [
        'HP:0001252',
        'Hypotonia',
        ['HP:0000707'],
        [{ text: 'Low muscle tone', scope: 'exact', type: 'layperson' }],
      ],
      ['HP:0001249', 'Intellectual disability', ['HP:0000707'], ['Mental retardation']],
      [
        'HP:0010864',
        'Severe intellectual disability',
        ['HP:0001249'],
        ['Severe mental retardation'],
      ],
      ['HP:0006829', 'Severe muscular hypotonia', ['HP:0001252'], ['Hypotonia, severe']],
      ['HP:0002187', 'Profound intellectual disability', ['HP:0001249']],
      ['HP:0001263', 'Global developmental delay', ['HP:0000707'], ['Developmental delay']],
      ['HP:0031936', 'Delayed ability to walk', ['HP:0000707'], ['Delayed walking']],
      [
        'HP:0000750',
        'Delayed speech and language development',
        ['HP:0000707'],
        ['Speech delay', 'Language delay'],
      ],
      ['HP:0011808', 'Decreased patellar reflex', ['HP:0000707']],
      ['HP:0009072', 'Decreased Achilles reflex', ['HP:0000707']],
      ['HP:0030084', 'Clinodactyly', ['HP:0001155']],
      ['HP:0001259', 'Coma', ['HP:0000707']],
      ['HP:0025406', 'Asthenia', ['HP:0000118'], ['Weakness']],
      ['HP:0001324', 'Muscle weakness', ['HP:0000118']],
      ['HP:0003701', 'Proximal muscle weakness', ['HP:0001324']],
      ['HP:0011727', 'Peroneal muscle weakness', ['HP:0001324']],
      ['HP:0012432', 'Chronic fatigue', ['HP:0000118']],
      ['HP:0002835', 'Aspiration', ['HP:0000118']],
      [
        'HP:0000729',
        'Autistic behavior',
        ['HP:0000707'],
        [{ text: 'ASD', scope: 'exact', type: 'abbreviation' }],
      ],
      ['HP:0000478', 'Abnormality of the eye', ['HP:0000118']],
      ['HP:0000518', 'Cataract', ['HP:0000478'], ['Cataracts']],
      ['HP:0007843', 'Attenuation of retinal blood vessels', ['HP:0000478']],
      ['HP:0000582', 'Upslanted palpebral fissure', ['HP:0000478'], ['Upslanting palpebral fissures']],
      ['HP:0001744', 'Splenomegaly', ['HP:0000118']],
      ['HP:0002527', 'Falls', ['HP:0000118']],
      ['HP:0000979', 'Purpura', ['HP:0000118'], ['Blood spots']],
      ['HP:0001433', 'Hepatosplenomegaly', ['HP:0000118']],
      ['HP:0003774', 'Stage 5 chronic kidney disease', ['HP:0000077'], ['End-stage renal disease']],
      ['HP:0000523', 'Subcapsular cataract', ['HP:0000518']],
      ['HP:0007787', 'Posterior subcapsular cataract', ['HP:0000523']],
      ['HP:0000598', 'Abnormality of the ear', ['HP:0000118']],
      ['HP:0000365', 'Hearing impairment', ['HP:0000598'], ['Hearing loss', 'Deafness']],
      [
        'HP:0000407',
        'Sensorineural hearing impairment',
        ['HP:0000365'],
        ['Sensorineural hearing loss'],
      ],
      ['HP:0000405', 'Conductive hearing impairment', ['HP:0000365'], ['Conductive hearing loss']],
      ['HP:0001155', 'Abnormality of the hand', ['HP:0000118']],
      ['HP:0001172', 'Abnormal thumb morphology', ['HP:0001155']],
      ['HP:0009778', 'Short thumb', ['HP:0001172'], ['Hypoplasia of the thumb']],
      ['HP:0001627', 'Abnormal heart morphology', ['HP:0000118']],
      [
        'HP:0001629',
        'Ventricular septal defect',
        ['HP:0001627'],
        [{ text: 'VSD', scope: 'exact', type: 'abbreviation' }],
      ],
      [
        'HP:0001631',
        'Atrial septal defect',
        ['HP:0001627'],
        [{ text: 'ASD', scope: 'exact', type: 'abbreviation' }],
      ],
      ['HP:0002664', 'Neoplasm', ['HP:0000118'], ['Tumor']],
      ['HP:0100008', 'Schwannoma', ['HP:0002664']],
      ['HP:0009588', 'Vestibular schwannoma', ['HP:0100008'], ['Acoustic neuroma']],
      ['HP:0000077', 'Abnormality of the kidney', ['HP:0000118']],
      ['HP:0000175', 'Cleft palate', ['HP:0000118']],
      ['HP:0410030', 'Cleft lip', ['HP:0000118']],
      ['HP:0001156', 'Brachydactyly', ['HP:0001155']],
      ['HP:0000924', 'Abnormality of the skeletal system', ['HP:0000118']],
      ['HP:0003311', 'Hypoplasia of the odontoid process', ['HP:0000924'], ['Odontoid hypoplasia']],
      ['HP:0032505', 'Hydrophobia', ['HP:0000707']],
      ['HP:0002757', 'Recurrent fractures', ['HP:0000924'], ['Fractures', 'Multiple fractures']],
      ['HP:0000967', 'Petechiae', ['HP:0000118']],
      ['HP:0000028', 'Cryptorchidism', ['HP:0000118']],
    ],
    [{ id: 'HP:0000099', label: 'Old seizure term', obsolete: true, replacedBy: 'HP:0001250' }],
  );
}
