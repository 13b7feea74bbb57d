/**
 * Small curated vocabularies: general clinical lay wording and common clinical abbreviations
 * that the HPO does not (yet) list as synonyms, plus the function words allowed inside a
 * mention. Written from general clinical usage, not from any annotated corpus.
 */

export interface LexiconEntry {
  text: string;
  id: string;
  /** The HPO label when the entry was written; a test checks it still holds. */
  label: string;
}

/** The wordings of one HPO term: its id, its label when the wordings were written, the wordings. */
type TermWordings = readonly [id: string, label: string, texts: readonly string[]];

/** One entry per wording, in the order given. */
function byTerm(terms: readonly TermWordings[]): LexiconEntry[] {
  return terms.flatMap(([id, label, texts]) => texts.map((text) => ({ text, id, label })));
}

/** Lay and colloquial phrases (British and American) a patient or parent would use. */
export const LAY_LEXICON: readonly LexiconEntry[] = byTerm([
  ['HP:0001250', 'Seizure', ['fits', 'epilepsy', 'fitting', 'convulsion', 'convulsions']],
  ['HP:0000365', 'Hearing impairment', ['deaf']],
  ['HP:0000486', 'Strabismus', ['crossed eyes']],
  ['HP:0002329', 'Drowsiness', ['drowsy']],
  ['HP:0000739', 'Anxiety', ['anxious']],
  ['HP:0000545', 'Myopia', ['short sighted', 'short sightedness']],
  ['HP:0000540', 'Hypermetropia', ['long sighted']],
  ['HP:0001254', 'Lethargy', ['lethargic']],
  [
    'HP:0003487',
    'Babinski sign',
    ['upgoing plantar', 'upgoing plantars', 'upgoing plantar responses'],
  ],
  ['HP:0001344', 'Absent speech', ['non-verbal']],
  ['HP:0000132', 'Menorrhagia', ['heavy periods', 'heavy menstrual bleeding']],
  ['HP:0001252', 'Hypotonia', ['floppy', 'floppy baby', 'floppiness']],
  ['HP:0002027', 'Abdominal pain', ['tummy pain', 'tummy ache', 'stomach ache', 'belly pain']],
  ['HP:0001161', 'Hand polydactyly', ['extra fingers', 'extra finger']],
  ['HP:0000508', 'Ptosis', ['droopy eyelids', 'drooping eyelids']],
  ['HP:0000805', 'Enuresis', ['bedwetting', 'bed wetting']],
  ['HP:0000421', 'Epistaxis', ['nosebleeds', 'nose bleeds']],
  ['HP:0002312', 'Clumsiness', ['clumsy']],
  ['HP:0000752', 'Hyperactivity', ['hyperactive']],
  ['HP:0031936', 'Delayed ability to walk', ['late walking', 'walked late', 'delayed walking']],
  ['HP:0001263', 'Global developmental delay', ['slow development', 'developmentally delayed']],
  ['HP:0000347', 'Micrognathia', ['small jaw']],
  ['HP:0000316', 'Hypertelorism', ['wide set eyes', 'widely spaced eyes']],
  ['HP:0000601', 'Hypotelorism', ['close set eyes']],
  ['HP:0000411', 'Protruding ear', ['sticking out ears', 'bat ears']],
  ['HP:0001671', 'Abnormal cardiac septum morphology', ['hole in the heart']],
  ['HP:0001627', 'Abnormal heart morphology', ['heart defect']],
  ['HP:0001279', 'Syncope', ['passing out']],
  ['HP:0001336', 'Myoclonus', ['jerks', 'jerking']],
  ['HP:0030051', 'Tip-toe gait', ['toe walking', 'walks on tiptoes']],
  ['HP:0001508', 'Failure to thrive', ['not gaining weight', 'failure to gain weight']],
  ['HP:0003552', 'Muscle stiffness', ['stiff muscles']],
  ['HP:0002716', 'Lymphadenopathy', ['palpable lymph nodes', 'enlarged lymph nodes']],
  [
    'HP:0002311',
    'Incoordination',
    [
      'loss of coordination',
      'lack of coordination',
      'impaired coordination',
      'loss of motor coordination',
      'lack of motor coordination',
      'impaired motor coordination',
    ],
  ],
]);

/** Clinical abbreviations in common use that the HPO does not list (matched case-sensitively). */
export const CLINICAL_ABBREVIATIONS: readonly LexiconEntry[] = byTerm([
  ['HP:0001249', 'Intellectual disability', ['ID']],
  ['HP:0001263', 'Global developmental delay', ['DD']],
  ['HP:0001627', 'Abnormal heart morphology', ['CHD']],
  ['HP:0000407', 'Sensorineural hearing impairment', ['SNHL']],
  ['HP:0002020', 'Gastroesophageal reflux', ['GORD']],
  ['HP:0001433', 'Hepatosplenomegaly', ['HSM']],
  ['HP:0001518', 'Small for gestational age', ['SGA']],
  ['HP:0003774', 'Stage 5 chronic kidney disease', ['ESRD']],
  ['HP:0002870', 'Obstructive sleep apnea', ['OSA']],
  // Of clinical notes (history, review of systems, echo and neonatal reports). Not "GTC" (also a
  // codon and a genotyping program), "TOF" (time of flight), "UTI" (the HPO has only recurrent ones).
  ['HP:0000822', 'Hypertension', ['HTN']],
  ['HP:0002625', 'Deep venous thrombosis', ['DVT']],
  ['HP:0002094', 'Dyspnea', ['SOB']],
  ['HP:0001712', 'Left ventricular hypertrophy', ['LVH']],
  ['HP:0001657', 'Prolonged QT interval', ['LQTS']],
  ['HP:0001716', 'Wolff-Parkinson-White syndrome', ['WPW']],
  ['HP:0004383', 'Hypoplastic left ventricle', ['HLHS']],
  ['HP:0030746', 'Intraventricular hemorrhage', ['IVH']],
  ['HP:0033165', 'Necrotizing enterocolitis', ['NEC']],
  ['HP:0002069', 'Bilateral tonic-clonic seizure', ['GTCS']],
]);

/**
 * Clinical names of conditions the HPO has as a finding under another name: bronchopulmonary
 * dysplasia is the chronic lung disease of prematurity.
 */
export const CLINICAL_NAMES: readonly LexiconEntry[] = byTerm([
  [
    'HP:0006528',
    'Chronic lung disease',
    ['bronchopulmonary dysplasia', 'chronic lung disease of prematurity'],
  ],
]);

/**
 * Common wordings of the inheritance and variability of a disease that the HPO lists under no
 * term (its own one-word labels "Sporadic", "Dominant" are too ambiguous to index alone).
 */
export const NON_PHENOTYPE_PHRASES: readonly LexiconEntry[] = byTerm([
  ['HP:0000006', 'Autosomal dominant inheritance', ['dominantly inherited']],
  ['HP:0000007', 'Autosomal recessive inheritance', ['recessively inherited']],
  [
    'HP:0003745',
    'Sporadic',
    ['sporadic case', 'sporadic patient', 'sporadic form', 'occurred sporadically'],
  ],
  [
    'HP:0003812',
    'Phenotypic variability',
    [
      'phenotypic variation',
      'clinical variability',
      'intrafamilial variability',
      'interfamilial variability',
    ],
  ],
  ['HP:0003828', 'Variable expressivity', ['variable expression']],
]);

/**
 * Function words that may appear inside a mention without counting as content
 * ("hypoplasia of the thumb" = "thumb hypoplasia"). Negations are deliberately absent, and so
 * are "and"/"or": a conjunction inside a window must be part of the phrase ("cleft lip and
 * palate"), else "meningiomas and spinal" would read as "spinal meningioma".
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'of',
  'the',
  'a',
  'an',
  'in',
  'on',
  'at',
  'to',
  'by',
  'for',
  'from',
  'into',
  'its',
  'their',
  'his',
  'her',
  'both',
  // Copulas and frequency adverbs: "the patellae were absent" = "absent patellae",
  // "motor development was delayed" = "delayed motor development".
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'also',
  'often',
  'usually',
  'always',
  'invariably',
  'sometimes',
  // Not "frequently" or "generally": they stem to "frequent" and "general", content words of
  // phrases ("Frequent infections").
]);

/**
 * Modifiers that may be skipped inside a text mention when the phrase without them is an HPO
 * term ("hypoplasia of the right thumb"). Only words that never change which term is meant.
 */
export const SKIPPABLE_MODIFIERS: ReadonlySet<string> = new Set([
  'left',
  'right',
  'bilateral',
  'unilateral',
  'mild',
  'mildly',
  'moderate',
  'moderately',
  'marked',
  'markedly',
  'severe',
  'severely',
  'slight',
  'slightly',
  'very',
  'significant',
  'significantly',
  'extreme',
  'extremely',
  'obvious',
  'apparent',
  'noticeable',
  'striking',
  'strikingly',
  'variable',
  'variably',
  'frequently',
  'generally',
  // Where a finding is most marked: "muscle weakness predominantly in the proximal lower limbs"
  // = "muscle weakness in the proximal lower limbs".
  'predominantly',
  'mainly',
  'mostly',
  'primarily',
  'chiefly',
  'especially',
  'particularly',
  // The specimen of a measurement: "low serum copper" = "low copper" (the phrase with the word
  // still matches where the HPO names it).
  'serum',
  'plasma',
]);

/**
 * Nouns that, after an organ or its adjective, name an unspecified abnormality of that organ
 * ("renal anomalies", "ocular manifestations", "neurological signs").
 */
export const ABNORMALITY_NOUNS: readonly string[] = [
  'anomaly',
  'abnormality',
  'malformation',
  'defect',
  'involvement',
  'manifestation',
  'finding',
  'feature',
  'sign',
  'symptom',
  'disorder',
  'disease',
  'change',
  'lesion',
  'problem',
  'dysfunction',
  'deformity',
];

/** Anatomical adjectives of general clinical English, keyed by the organ as HPO labels name it. */
export const ORGAN_ADJECTIVES: Readonly<Record<string, readonly string[]>> = {
  eye: ['ocular', 'ophthalmic', 'ophthalmologic', 'ophthalmological'],
  ear: ['otologic', 'otological', 'aural'],
  // The auricle is the pinna.
  pinna: ['auricular'],
  kidney: ['renal'],
  heart: ['cardiac'],
  liver: ['hepatic'],
  skin: ['cutaneous', 'dermatologic', 'dermatological'],
  'nervous system': ['neurologic', 'neurological'],
  brain: ['cerebral'],
  cerebellum: ['cerebellar'],
  face: ['facial'],
  'skeletal system': ['skeletal'],
  lung: ['pulmonary'],
  mouth: ['oral'],
  teeth: ['dental'],
  'vertebral column': ['spinal', 'vertebral'],
  limbs: ['limb'],
  musculature: ['muscular', 'muscle'],
  'cardiovascular system': ['cardiovascular'],
  'immune system': ['immune', 'immunologic', 'immunological'],
  'genitourinary system': ['genitourinary', 'urogenital'],
  nose: ['nasal'],
  thorax: ['thoracic', 'chest'],
  abdomen: ['abdominal'],
  blood: ['hematologic', 'hematological'],
  'endocrine system': ['endocrine'],
  'gastrointestinal tract': ['gastrointestinal'],
  'respiratory system': ['respiratory'],
};
