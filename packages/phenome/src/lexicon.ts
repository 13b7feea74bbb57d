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

/** Lay and colloquial phrases (British and American) a patient or parent would use. */
export const LAY_LEXICON: readonly LexiconEntry[] = [
  { text: 'fits', id: 'HP:0001250', label: 'Seizure' },
  { text: 'epilepsy', id: 'HP:0001250', label: 'Seizure' },
  { text: 'fitting', id: 'HP:0001250', label: 'Seizure' },
  { text: 'floppy', id: 'HP:0001252', label: 'Hypotonia' },
  { text: 'floppy baby', id: 'HP:0001252', label: 'Hypotonia' },
  { text: 'floppiness', id: 'HP:0001252', label: 'Hypotonia' },
  { text: 'tummy pain', id: 'HP:0002027', label: 'Abdominal pain' },
  { text: 'tummy ache', id: 'HP:0002027', label: 'Abdominal pain' },
  { text: 'stomach ache', id: 'HP:0002027', label: 'Abdominal pain' },
  { text: 'belly pain', id: 'HP:0002027', label: 'Abdominal pain' },
  { text: 'extra fingers', id: 'HP:0001161', label: 'Hand polydactyly' },
  { text: 'extra finger', id: 'HP:0001161', label: 'Hand polydactyly' },
  { text: 'droopy eyelids', id: 'HP:0000508', label: 'Ptosis' },
  { text: 'drooping eyelids', id: 'HP:0000508', label: 'Ptosis' },
  { text: 'bedwetting', id: 'HP:0000805', label: 'Enuresis' },
  { text: 'bed wetting', id: 'HP:0000805', label: 'Enuresis' },
  { text: 'nosebleeds', id: 'HP:0000421', label: 'Epistaxis' },
  { text: 'nose bleeds', id: 'HP:0000421', label: 'Epistaxis' },
  { text: 'clumsy', id: 'HP:0002312', label: 'Clumsiness' },
  { text: 'hyperactive', id: 'HP:0000752', label: 'Hyperactivity' },
  { text: 'late walking', id: 'HP:0031936', label: 'Delayed ability to walk' },
  { text: 'walked late', id: 'HP:0031936', label: 'Delayed ability to walk' },
  { text: 'delayed walking', id: 'HP:0031936', label: 'Delayed ability to walk' },
  { text: 'slow development', id: 'HP:0001263', label: 'Global developmental delay' },
  { text: 'developmentally delayed', id: 'HP:0001263', label: 'Global developmental delay' },
  { text: 'small jaw', id: 'HP:0000347', label: 'Micrognathia' },
  { text: 'wide set eyes', id: 'HP:0000316', label: 'Hypertelorism' },
  { text: 'widely spaced eyes', id: 'HP:0000316', label: 'Hypertelorism' },
  { text: 'close set eyes', id: 'HP:0000601', label: 'Hypotelorism' },
  { text: 'sticking out ears', id: 'HP:0000411', label: 'Protruding ear' },
  { text: 'bat ears', id: 'HP:0000411', label: 'Protruding ear' },
  { text: 'hole in the heart', id: 'HP:0001671', label: 'Abnormal cardiac septum morphology' },
  { text: 'heart defect', id: 'HP:0001627', label: 'Abnormal heart morphology' },
  { text: 'passing out', id: 'HP:0001279', label: 'Syncope' },
  { text: 'jerks', id: 'HP:0001336', label: 'Myoclonus' },
  { text: 'jerking', id: 'HP:0001336', label: 'Myoclonus' },
  { text: 'toe walking', id: 'HP:0030051', label: 'Tip-toe gait' },
  { text: 'walks on tiptoes', id: 'HP:0030051', label: 'Tip-toe gait' },
  { text: 'not gaining weight', id: 'HP:0001508', label: 'Failure to thrive' },
  { text: 'failure to gain weight', id: 'HP:0001508', label: 'Failure to thrive' },
  { text: 'stiff muscles', id: 'HP:0003552', label: 'Muscle stiffness' },
  { text: 'palpable lymph nodes', id: 'HP:0002716', label: 'Lymphadenopathy' },
  { text: 'enlarged lymph nodes', id: 'HP:0002716', label: 'Lymphadenopathy' },
];

/** Clinical abbreviations in common use that the HPO does not list (matched case-sensitively). */
export const CLINICAL_ABBREVIATIONS: readonly LexiconEntry[] = [
  { text: 'ID', id: 'HP:0001249', label: 'Intellectual disability' },
  { text: 'DD', id: 'HP:0001263', label: 'Global developmental delay' },
  { text: 'CHD', id: 'HP:0001627', label: 'Abnormal heart morphology' },
  { text: 'SNHL', id: 'HP:0000407', label: 'Sensorineural hearing impairment' },
  { text: 'GORD', id: 'HP:0002020', label: 'Gastroesophageal reflux' },
  { text: 'HSM', id: 'HP:0001433', label: 'Hepatosplenomegaly' },
  { text: 'SGA', id: 'HP:0001518', label: 'Small for gestational age' },
  { text: 'ESRD', id: 'HP:0003774', label: 'Stage 5 chronic kidney disease' },
  { text: 'OSA', id: 'HP:0002870', label: 'Obstructive sleep apnea' },
];

/**
 * Common wordings of the inheritance and variability of a disease that the HPO lists under no
 * term (its own one-word labels "Sporadic", "Dominant" are too ambiguous to index alone).
 */
export const NON_PHENOTYPE_PHRASES: readonly LexiconEntry[] = [
  { text: 'dominantly inherited', id: 'HP:0000006', label: 'Autosomal dominant inheritance' },
  { text: 'recessively inherited', id: 'HP:0000007', label: 'Autosomal recessive inheritance' },
  { text: 'sporadic case', id: 'HP:0003745', label: 'Sporadic' },
  { text: 'sporadic patient', id: 'HP:0003745', label: 'Sporadic' },
  { text: 'sporadic form', id: 'HP:0003745', label: 'Sporadic' },
  { text: 'occurred sporadically', id: 'HP:0003745', label: 'Sporadic' },
  { text: 'phenotypic variation', id: 'HP:0003812', label: 'Phenotypic variability' },
  { text: 'clinical variability', id: 'HP:0003812', label: 'Phenotypic variability' },
  { text: 'intrafamilial variability', id: 'HP:0003812', label: 'Phenotypic variability' },
  { text: 'interfamilial variability', id: 'HP:0003812', label: 'Phenotypic variability' },
  { text: 'variable expression', id: 'HP:0003828', label: 'Variable expressivity' },
];

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
