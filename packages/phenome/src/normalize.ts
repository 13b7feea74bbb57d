/**
 * Text normalisation shared by the dictionary and the matcher: tokenisation with character
 * offsets, British -> American spelling, and a light medical stemmer. The dictionary and the
 * text go through exactly the same functions, so a collision between two stems only matters
 * when it merges two words that an HPO phrase distinguishes.
 */

/** A word of the input with its 0-based, end-exclusive character offsets. */
export interface Token {
  /** The original characters. */
  raw: string;
  start: number;
  end: number;
  /** Lower-cased, spelling-normalised and stemmed form used for matching. */
  norm: string;
  /** True when a hyphen joins this token to the next one ("oto-renal"). */
  hyphenNext: boolean;
  /** Punctuation between this token and the next one that stops a mention (comma, colon, bracket ...). */
  breakAfter: boolean;
}

// Words: letters and digits, with internal apostrophes ("Down's"). Hyphens separate tokens
// but are remembered so that "oto-renal" and "otorenal" can both be matched.
const WORD_RE = /[\p{L}\p{N}]+(?:['’`][\p{L}]+)?/gu;

/** Splits text into word tokens. Offsets are UTF-16 code-unit offsets into `text`. */
export function tokenize(text: string, normalise: (w: string) => string = normalizeWord): Token[] {
  const out: Token[] = [];
  WORD_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = WORD_RE.exec(text)) !== null) {
    const raw = m[0];
    out.push({
      raw,
      start: m.index,
      end: m.index + raw.length,
      norm: normalise(raw),
      hyphenNext: false,
      breakAfter: false,
    });
  }
  for (let i = 0; i < out.length; i++) {
    const a = out[i] as Token;
    const next = out[i + 1];
    const gapEnd = next ? next.start : text.length;
    const gap = text.slice(a.end, gapEnd);
    a.hyphenNext = next !== undefined && /^\s*[-‐‑–]\s*$/.test(gap);
    // Any punctuation other than a hyphen, slash or plain space ends a candidate mention.
    // A possessive apostrophe after a plural or name ("Gowers' sign") does not end a mention.
    a.breakAfter = next === undefined || /[^\s\-‐‑–/]/.test(gap.replace(/^['’`](?=\s)/, ''));
  }
  return out;
}

/** British -> American spelling for the medical vocabulary (applied to lower-case words). */
const SPELLING: [RegExp, string][] = [
  [/haem/g, 'hem'],
  [/aem/g, 'em'],
  [/^paed/, 'ped'],
  [/orthopaed/, 'orthoped'],
  [/oedem/g, 'edem'],
  [/oesoph/g, 'esoph'],
  [/oestr/g, 'estr'],
  [/^foet/, 'fet'],
  [/rrhoe/g, 'rrhe'],
  [/coel/g, 'cel'],
  [/aesth/g, 'esth'],
  [/gynaec/g, 'gynec'],
  [/caec/g, 'cec'],
  [/faec/g, 'fec'],
  // "leucocytosis", "leucopenia", "leucodystrophy", "leucaemia" (not "leucine", an amino acid).
  [/leuc(?=o|a?em)/g, 'leuk'],
  [/^(tum|col|behavi|hum|fav|lab|od|vap|rig)our/, '$1or'],
  [/(cent|fib|lit|met|theat)re(s?)$/, '$1er$2'],
  [/ogue$/, 'og'],
  [/sulph/g, 'sulf'],
  [/isation$/, 'ization'],
];

/** Irregular plurals and Latin/Greek forms frequent in clinical text. */
const IRREGULAR: Record<string, string> = {
  feet: 'foot',
  teeth: 'tooth',
  children: 'child',
  women: 'woman',
  men: 'man',
  phalanges: 'phalanx',
  testes: 'testis',
  indices: 'index',
  apices: 'apex',
  cortices: 'cortex',
  calyces: 'calyx',
  thoraces: 'thorax',
  appendices: 'appendix',
  bronchi: 'bronchus',
  nevi: 'nevus',
  naevi: 'nevus',
  calculi: 'calculus',
  alveoli: 'alveolus',
  villi: 'villus',
  glomeruli: 'glomerulus',
  nuclei: 'nucleus',
  emboli: 'embolus',
  thrombi: 'thrombus',
  foci: 'focus',
  hallux: 'hallux',
  halluces: 'hallux',
  pollices: 'pollex',
  digiti: 'digitus',
  ova: 'ovum',
  data: 'datum',
  criteria: 'criterion',
  ganglia: 'ganglion',
  diverticula: 'diverticulum',
  septa: 'septum',
  atria: 'atrium',
  bullae: 'bulla',
  lungs: 'lung',
  axes: 'axis',
  crises: 'crisis',
  diagnoses: 'diagnosis',
  bases: 'base',
  fits: 'fits',
  nares: 'naris',
  lens: 'lens',
  lenses: 'lens',
  palsies: 'palsy',
  dysostoses: 'dysostosis',
  epiphyses: 'epiphysis',
  metaphyses: 'metaphysis',
  diaphyses: 'diaphysis',
  apophyses: 'apophysis',
  hypophyses: 'hypophysis',
  anastomoses: 'anastomosis',
  ectases: 'ectasis',
  metastases: 'metastasis',
  synostoses: 'synostosis',
  exostoses: 'exostosis',
  stenoses: 'stenosis',
  fibroses: 'fibrosis',
  scolioses: 'scoliosis',
  sclerosis: 'sclerosis',
  stenosis: 'stenosis',
  is: 'is',
  was: 'was',
  has: 'has',
  this: 'this',
  his: 'his',
  its: 'its',
  us: 'us',
  as: 'as',
};

// Adjective -> noun forms ("hypoplastic" -> "hypoplasia", "scoliotic" -> "scoliosis") so that
// "hypoplastic thumb" meets "thumb hypoplasia". Ordered: first match wins.
const DERIVATION: [RegExp, string][] = [
  [/plastic$/, 'plasia'],
  [/trophic$/, 'trophy'],
  [/cephalic$/, 'cephaly'],
  [/gnathic$/, 'gnathia'],
  [/phthalmic$/, 'phthalmia'],
  [/dactylous$/, 'dactyly'],
  [/morphic$/, 'morphism'],
  [/pathic$/, 'pathy'],
  [/plegic$/, 'plegia'],
  [/cardic$/, 'cardia'],
  [/taxic$/, 'taxia'],
  [/tonic$/, 'tonia'],
  [/emic$/, 'emia'],
  [/uric$/, 'uria'],
  [/phasic$/, 'phasia'],
  [/lexic$/, 'lexia'],
  [/leptic$/, 'lepsy'],
  [/otic$/, 'osis'],
  [/kinetic$/, 'kinesia'],
  [/tensive$/, 'tension'],
  [/ical$/, 'ic'],
  // Latin adjectives of fixed names read as their English forms ("hydrops fetalis" / "fetal
  // hydrops", "arthrogryposis multiplex congenita" / "multiple congenital ...").
  [/^(\w{3,})(al|ar)is$/, '$1$2'],
  [/^congenita$/, 'congenital'],
];

/**
 * The adjective of an organ or bone read as its noun, so that "hyperostosis of the mandible"
 * has the words of Mandibular hyperostosis and "cortical bone thickening" those of Thickened
 * cortex of bones (phrases match on their words in any order). Only adjectives formed on the
 * noun itself (general anatomical English) and that name nothing but the organ: not
 * "temporal", "frontal", "radial", "digital", "cervical" or "fetal", which have other senses.
 */
const ANATOMICAL_ADJECTIVES: Record<string, string> = {
  mandibular: 'mandible',
  maxillary: 'maxilla',
  clavicular: 'clavicle',
  scapular: 'scapula',
  patellar: 'patella',
  tibial: 'tibia',
  fibular: 'fibula',
  ulnar: 'ulna',
  humeral: 'humerus',
  femoral: 'femur',
  sternal: 'sternum',
  sacral: 'sacrum',
  coccygeal: 'coccyx',
  calcaneal: 'calcaneus',
  phalangeal: 'phalanx',
  epiphyseal: 'epiphysis',
  metaphyseal: 'metaphysis',
  diaphyseal: 'diaphysis',
  acetabular: 'acetabulum',
  cortical: 'cortex',
  cerebellar: 'cerebellum',
  thalamic: 'thalamus',
  hypothalamic: 'hypothalamus',
  hippocampal: 'hippocampus',
  retinal: 'retina',
  corneal: 'cornea',
  scleral: 'sclera',
  conjunctival: 'conjunctiva',
  choroidal: 'choroid',
  macular: 'macula',
  foveal: 'fovea',
  cochlear: 'cochlea',
  gingival: 'gingiva',
  palatal: 'palate',
  tracheal: 'trachea',
  laryngeal: 'larynx',
  pharyngeal: 'pharynx',
  esophageal: 'esophagus',
  bronchial: 'bronchus',
  pleural: 'pleura',
  pericardial: 'pericardium',
  aortic: 'aorta',
  duodenal: 'duodenum',
  jejunal: 'jejunum',
  ileal: 'ileum',
  colonic: 'colon',
  rectal: 'rectum',
  anal: 'anus',
  umbilical: 'umbilicus',
  splenic: 'spleen',
  pancreatic: 'pancreas',
  ureteral: 'ureter',
  urethral: 'urethra',
  uterine: 'uterus',
  vaginal: 'vagina',
  ovarian: 'ovary',
  testicular: 'testis',
  scrotal: 'scrotum',
  penile: 'penis',
  pelvic: 'pelvis',
  thoracic: 'thorax',
  abdominal: 'abdomen',
  axillary: 'axilla',
};

const COMPARATIVES: Record<string, string> = {
  coarser: 'coarse', narrower: 'narrow', shorter: 'short', thinner: 'thin', broader: 'broad',
  wider: 'wide', longer: 'long', thicker: 'thick', larger: 'large', smaller: 'small',
  taller: 'tall', fuller: 'full', flatter: 'flat', deeper: 'deep', shallower: 'shallow',
};

/** "mandibular", "ulnar": an organ's adjective that the stemmer reads as its noun. */
export function isAnatomicalAdjective(word: string): boolean {
  return Object.hasOwn(ANATOMICAL_ADJECTIVES, word.toLowerCase());
}

const VOWEL = /[aeiouy]/;

/** Strips inflectional and a few derivational suffixes; keeps words of 3 letters or fewer. */
export function stem(word: string): string {
  let w = word;
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return finishStem(irregular);
  const base = COMPARATIVES[w];
  if (base !== undefined) return stem(base);
  const organ = ANATOMICAL_ADJECTIVES[w];
  if (organ !== undefined) return stem(organ);
  if (w.length <= 3 || /\d/.test(w)) return w;
  for (const [re, rep] of DERIVATION) {
    if (re.test(w)) {
      w = w.replace(re, rep);
      break;
    }
  }
  w = singular(w);
  // Inflections (keep a stem with a vowel and at least 3 letters).
  if (w.length > 5 && w.endsWith('ing') && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed') && VOWEL.test(w.slice(0, -2)))
    w = undouble(w.slice(0, -2));
  // "elevation"/"elevated", "dislocation"/"dislocated" share a stem ("elevat").
  if (w.length > 7 && w.endsWith('ation')) w = w.slice(0, -3);
  // The noun of a participle: "obstruction" = "obstructed", "infarction" = "infarcted".
  else if (w.length > 7 && w.endsWith('ction')) w = w.slice(0, -3);
  if (w.length > 6 && w.endsWith('ment')) w = w.slice(0, -4);
  else if (w.length > 6 && w.endsWith('ness')) w = w.slice(0, -4);
  else if (w.length > 6 && w.endsWith('ity')) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith('ly') && !w.endsWith('aly') && !w.endsWith('ely'))
    w = w.slice(0, -2);
  return finishStem(w);
}

/** Plural -> singular only (regular, Latin and Greek plurals). */
export function singular(word: string): string {
  let w = word;
  const irregular = IRREGULAR[w];
  if (irregular !== undefined) return irregular;
  if (w.length <= 3) return w;
  if (w.length > 6 && w.endsWith('oses')) w = w.slice(0, -4) + 'osis';
  else if (w.length > 6 && w.endsWith('ases') && /(iases|tases)$/.test(w))
    w = w.slice(0, -4) + 'asis';
  else if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'y';
  else if (w.length > 4 && w.endsWith('ae')) w = w.slice(0, -1);
  else if (/(ch|sh|x|ss|z)es$/.test(w)) w = w.slice(0, -2);
  // "delays", "kidneys", "days": a vowel before the "y" ("-ys" after a consonant is no plural).
  else if (w.length > 3 && w.endsWith('s') && (!/(ss|us|is|ys)$/.test(w) || /[aeiou]ys$/.test(w)))
    w = w.slice(0, -1);
  return w;
}

const surfaceCache = new Map<string, string>();

/**
 * The surface key of one word: folded and singular, but not stemmed. Single-word synonyms
 * match on it, so "Ordering" (a synonym of Atypical sorting) does not match "order".
 */
export function surfaceWord(word: string): string {
  return memoisedWordKey(surfaceCache, word, singular);
}

/**
 * The key of one word, memoised in `cache` (the vocabulary is small): acronyms keep their case
 * ("ASD" must not match the word "asd") and lose a plural "s"; other words are folded, then
 * `ofFolded` (singular or stem) applies.
 */
function memoisedWordKey(cache: Map<string, string>, word: string, ofFolded: (folded: string) => string): string {
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  const n = ACRONYM_RE.test(word) ? `^${word.replace(/s$/, '')}` : ofFolded(foldWord(word));
  if (cache.size < 500_000) cache.set(word, n);
  return n;
}

function finishStem(w: string): string {
  // A trailing silent "e" differs between "dilate"/"dilated" and "bruise"/"bruising".
  if (w.length > 5 && w.endsWith('e') && !w.endsWith('ee')) return w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  const a = w.at(-1);
  if (a !== undefined && w.length > 3 && a === w.at(-2) && !'lsz'.includes(a))
    return w.slice(0, -1);
  return w;
}

/** Lower-case, fold diacritics, American spelling. */
export function foldWord(word: string): string {
  let w = word.toLowerCase();
  if (/[\u0080-\uffff]/.test(w)) w = w.normalize('NFD').replace(/\p{M}/gu, '').replace(/[’]/g, "'");
  // A grave accent typed for an apostrophe ("Gower`s sign").
  w = w.replace(/`(?=s$)/, "'").replace(/'s$/, '');
  for (const [re, rep] of SPELLING) if (re.test(w)) w = w.replace(re, rep);
  return w;
}

const normCache = new Map<string, string>();
const ACRONYM_RE = /^(?=(?:[^A-Z]*[A-Z]){2})[A-Z][A-Z0-9]{1,5}s?$/;

/** The matching key of one word: folded then stemmed (memoised; the vocabulary is small). */
export function normalizeWord(word: string): string {
  return memoisedWordKey(normCache, word, stem);
}
