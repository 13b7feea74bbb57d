/**
 * Age of onset as phenotype evidence (issue 17 item 3), in the spirit of LIRICAL's likelihood
 * ratios: the patient's onset (an HPO term under Onset, HP:0003674) against the onset terms a
 * disease is annotated with (phenotype.hpoa aspect C; HpoDisease.onset).
 *
 * Onset is placed on an ordinal scale of nine age classes (the HPO onset classes, antenatal to
 * late onset). A term names one class, or several (Pediatric onset: infantile, childhood,
 * juvenile; Adult onset: young adult, middle age, late). A disease's onset distribution is the
 * mean over its onset terms, weighted by their frequencies, of each term's classes spread to their
 * ordinal neighbours by a kernel w^|distance| (a disease of infantile onset is often reported at
 * neonatal or childhood onset), mixed with a uniform floor eps:
 *   P(class | D) = (1 - eps) * sum over D's terms t of share(t) K(class | t) + eps / 9
 * share(t): the hpoa gives many onset rows a frequency f(t) (Infantile onset 12/15, Adult onset
 * 1/15); the terms with one split their equal shares in proportion to f(t)^power, a term without
 * one keeps its equal share 1/T (power 0, or no frequency known: the plain mean).
 * The background is the mean of P(class | D) over the diseases that have onset annotations. The
 * patient's onset S (a set of classes) gives
 *   LR(D) = P(S | D) / P(S | background),
 * raised to a weight (the LR's exponent); LR 1 when D has no onset annotation.
 *
 * Ages map to onset terms by the HPO definitions (`onsetTermOfDays`).
 */
import type { Ontology } from '../hpo/ontology.ts';
import { ONSET_ROOT } from '../kb/hpo-kb.ts';
import type { PhenotypeModel } from './model.ts';

/** The ordinal age classes, earliest first: the HPO term that names each. */
export const ONSET_CLASSES: readonly { term: string; name: string }[] = [
  { term: 'HP:0030674', name: 'antenatal' },
  { term: 'HP:0003577', name: 'congenital' },
  { term: 'HP:0003623', name: 'neonatal' },
  { term: 'HP:0003593', name: 'infantile' },
  { term: 'HP:0011463', name: 'childhood' },
  { term: 'HP:0003621', name: 'juvenile' },
  { term: 'HP:0011462', name: 'young adult' },
  { term: 'HP:0003596', name: 'middle age' },
  { term: 'HP:0003584', name: 'late' },
];
const K = ONSET_CLASSES.length;

/** Onset terms outside the age classes' subtrees, placed by their definitions. */
const OTHER_ONSET_CLASSES: Readonly<Record<string, readonly number[]>> = {
  'HP:4000040': [6, 7], // Puerpural onset: childbirth, an adult woman
  'HP:6000314': [7], // Perimenopausal onset
  'HP:6000315': [7, 8], // Postmenopausal onset
};

/**
 * The age classes (indices into ONSET_CLASSES) an onset term names: the class whose subtree holds
 * it, or every class below it (a grouping term such as Pediatric onset); [] for a term that is not
 * an onset term. Onset itself names every class.
 */
export function onsetClassesOf(ontology: Ontology, id: string): number[] {
  const term = ontology.resolve(id);
  if (!term || !ontology.isA(term, ONSET_ROOT)) return [];
  const own = ONSET_CLASSES.findIndex((c) => ontology.isA(term, c.term));
  if (own >= 0) return [own];
  const other = OTHER_ONSET_CLASSES[term];
  if (other) return [...other];
  return ONSET_CLASSES.flatMap((c, i) => (ontology.isA(c.term, term) ? [i] : []));
}

/** The patient's age of onset: the onset term used and the age classes it names. */
export interface PatientOnset {
  /** Current HPO id of the onset term. */
  term: string;
  /** Indices into ONSET_CLASSES. */
  classes: number[];
}

/**
 * The patient's age of onset from the terms the patient has (present terms; excluded terms are not
 * an onset): the one rule the ranking, the phenopacket export and the PDF report share. The onset
 * is when the disease first shows, so of several onset terms the earliest is used (lowest age
 * class; ties: the one naming fewer classes, then the first given); Onset itself and a term with no
 * age class are not used. Terms that are not onset terms are skipped silently (they are findings);
 * every onset term not used is listed in `ignored` with the reason.
 */
export function patientOnset(ontology: Ontology, present: readonly string[]): { onset: PatientOnset | null; ignored: { id: string; reason: string }[] } {
  const ignored: { id: string; reason: string }[] = [];
  const onsets: PatientOnset[] = [];
  for (const id of present) {
    const term = ontology.resolve(id);
    if (!term || !ontology.isA(term, ONSET_ROOT)) continue;
    const classes = onsetClassesOf(ontology, term);
    if (term === ONSET_ROOT || classes.length === 0) ignored.push({ id, reason: 'too general an onset term (no age class)' });
    else if (!onsets.some((o) => o.term === term)) onsets.push({ term, classes });
  }
  let best: PatientOnset | null = null;
  for (const o of onsets) {
    if (!best) best = o;
    else {
      const [a, b] = [Math.min(...o.classes), Math.min(...best.classes)];
      if (a < b || (a === b && o.classes.length < best.classes.length)) best = o;
    }
  }
  for (const o of onsets) {
    if (o === best || !best) continue;
    ignored.push({
      id: o.term,
      reason: ontology.isA(best.term, o.term)
        ? 'implied by a more specific onset term'
        : `a later onset than ${ontology.label(best.term) ?? best.term}: the onset is when the disease first shows`,
    });
  }
  return { onset: best, ignored };
}

export interface OnsetOptions {
  /** Kernel weight per ordinal step of the disease's onset classes (0: the stated classes only). */
  onsetNeighbour: number;
  /** Uniform floor mixed into every disease's onset distribution (0, 1). */
  onsetSmoothing: number;
  /** Exponent of the onset LR (0: onset is not used). */
  onsetWeight: number;
  /** Largest onset LR (after the weight): 1 lets onset only count against a disease whose onset disagrees; Infinity: no cap. */
  onsetMaxLr: number;
  /** Exponent of an onset term's frequency in its share of the disease's onset distribution (0: every term weighs the same). */
  onsetFrequencyPower: number;
}

type KernelOptions = Pick<OnsetOptions, 'onsetNeighbour' | 'onsetSmoothing' | 'onsetFrequencyPower'>;

/**
 * Each onset term's share of the distribution: equal (1/T), except that the terms whose frequency
 * is known split their equal shares in proportion to frequency^power (all zero: equally).
 */
export function onsetShares(terms: readonly string[], frequency: Readonly<Record<string, number>> | undefined, power: number): number[] {
  const T = terms.length;
  const w = terms.map((t) => frequency?.[t]);
  const known = w.filter((f): f is number => f !== undefined);
  const sum = known.reduce((a, f) => a + f ** power, 0);
  return w.map((f) => (f === undefined || !(sum > 0) ? 1 / T : (known.length / T) * (f ** power / sum)));
}

/** P(class | disease) of every disease with onset annotations, and the background. */
export interface OnsetTable {
  /** Per disease: null (no onset annotation) or its distribution over the K classes. */
  dist: (Float64Array | null)[];
  background: Float64Array;
}

/**
 * A distribution over the classes from onset terms (their kernels, each term by its share:
 * `onsetShares` of the frequencies given), or null when none names a class.
 */
export function onsetDistribution(ontology: Ontology, terms: readonly string[], o: KernelOptions, frequency?: Readonly<Record<string, number>>): Float64Array | null {
  const placed = terms.map((t) => ({ t, s: onsetClassesOf(ontology, t) })).filter((x) => x.s.length > 0);
  if (!placed.length) return null;
  const shares = onsetShares(placed.map((x) => x.t), frequency, o.onsetFrequencyPower);
  const p = new Float64Array(K);
  for (const [ti, { s }] of placed.entries()) {
    const share = shares[ti] ?? 0;
    for (const a of s) {
      let z = 0;
      const row = new Float64Array(K);
      for (let b = 0; b < K; b++) {
        row[b] = o.onsetNeighbour ** Math.abs(b - a);
        z += row[b] ?? 0;
      }
      for (let b = 0; b < K; b++) p[b] = (p[b] ?? 0) + ((row[b] ?? 0) / z / s.length) * share;
    }
  }
  for (let b = 0; b < K; b++) p[b] = (1 - o.onsetSmoothing) * (p[b] ?? 0) + o.onsetSmoothing / K;
  return p;
}

const tables = new WeakMap<PhenotypeModel, Map<string, OnsetTable>>();

/** The onset table of a model's diseases under the kernel options (built once per model and options). */
export function getOnsetTable(model: PhenotypeModel, o: KernelOptions): OnsetTable {
  if (!(o.onsetNeighbour >= 0 && o.onsetNeighbour <= 1)) throw new RangeError(`onsetNeighbour must be in [0, 1], got ${o.onsetNeighbour}`);
  if (!(o.onsetSmoothing > 0 && o.onsetSmoothing < 1)) throw new RangeError(`onsetSmoothing must be in (0, 1), got ${o.onsetSmoothing}`);
  if (!(o.onsetFrequencyPower >= 0 && Number.isFinite(o.onsetFrequencyPower))) throw new RangeError(`onsetFrequencyPower must be finite and >= 0, got ${o.onsetFrequencyPower}`);
  const key = `${o.onsetNeighbour}/${o.onsetSmoothing}/${o.onsetFrequencyPower}`;
  let byKey = tables.get(model);
  if (!byKey) tables.set(model, (byKey = new Map<string, OnsetTable>()));
  const cached = byKey.get(key);
  if (cached) return cached;
  const dist = model.diseases.map((d) => onsetDistribution(model.kb.ontology, d.onset, o, d.onsetFrequency));
  const background = onsetBackground(dist);
  const table = { dist, background };
  byKey.set(key, table);
  return table;
}

/** Mean of the given distributions (uniform when there are none). */
export function onsetBackground(dist: readonly (Float64Array | null)[]): Float64Array {
  const bg = new Float64Array(K);
  let n = 0;
  for (const p of dist) {
    if (!p) continue;
    n++;
    for (let b = 0; b < K; b++) bg[b] = (bg[b] ?? 0) + (p[b] ?? 0);
  }
  for (let b = 0; b < K; b++) bg[b] = n ? (bg[b] ?? 0) / n : 1 / K;
  return bg;
}

/** P(patient classes | distribution): the sum over the patient's classes. */
export function onsetProbability(p: Float64Array, classes: readonly number[]): number {
  let s = 0;
  for (const b of classes) s += p[b] ?? 0;
  return s;
}

/** The onset LR of one disease distribution (null: no onset annotation, LR 1), weighted. */
export function onsetLr(p: Float64Array | null, background: Float64Array, classes: readonly number[], weight: number, maxLr = Infinity): number {
  if (!p || !classes.length || weight === 0) return 1;
  return Math.min(maxLr, (onsetProbability(p, classes) / onsetProbability(background, classes)) ** weight);
}

/** Adds the weighted natural-log onset LR of the patient's classes to every disease's total. */
export function addOnsetLn(model: PhenotypeModel, classes: readonly number[], o: OnsetOptions, total: Float64Array): void {
  if (!classes.length || o.onsetWeight === 0) return;
  const { dist, background } = getOnsetTable(model, o);
  const lnBg = Math.log(onsetProbability(background, classes));
  const lnMax = Math.log(o.onsetMaxLr);
  for (let d = 0; d < dist.length; d++) {
    const p = dist[d];
    if (p) total[d] = (total[d] ?? 0) + Math.min(lnMax, o.onsetWeight * (Math.log(onsetProbability(p, classes)) - lnBg));
  }
}

const DAY = 1;
const YEAR = 365.25 * DAY;
const MONTH = YEAR / 12;

/** Age in days of an ISO 8601 duration (PnYnMnWnD, time part ignored); throws on anything else. */
export function isoDurationDays(iso: string): number {
  const m = /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:\d+(?:\.\d+)?[HMS])+)?$/.exec(iso.trim());
  if (!m || iso.trim() === 'P' || iso.trim() === 'PT') throw new Error(`'${iso}' is not an ISO 8601 duration (PnYnMnWnD)`);
  const [y, mo, w, d] = [m[1], m[2], m[3], m[4]].map((x) => (x ? Number(x) : 0)) as [number, number, number, number];
  return y * YEAR + mo * MONTH + w * 7 + d;
}

/** The adult onset subclasses of Young adult onset (HP:0011462), with their upper age in years. */
const YOUNG_ADULT: readonly { term: string; below: number }[] = [
  { term: 'HP:0025708', below: 19 }, // Early young adult onset: 16 to under 19 years
  { term: 'HP:0025709', below: 25 }, // Intermediate young adult onset: 19 to under 25 years
  { term: 'HP:0025710', below: 40 }, // Late young adult onset: 25 to under 40 years
];

/**
 * The HPO onset term of an age after birth in days: the one place ages become onset terms (the
 * bench's phenopacket onsets through `onsetTermOfAge`, PhenomeAI's onset statements). Boundaries
 * are the definitions in hp.json (2026-01-08):
 * - Congenital onset "present at birth": age 0;
 * - Neonatal onset "within the first 28 days of life": under 28 days (day 28 is the 29th day of
 *   life, and Infantile onset is "between 28 days to one year of life");
 * - Infantile: 28 days to under 1 year; Childhood "between 1 and 5 years": 1 to under 5;
 * - Juvenile "between the age of 5 and 15 years": 5 to under 16 (Adult onset is "the age of 16
 *   years or later");
 * - Early / Intermediate / Late young adult onset: 16 to under 19 / 19 to under 25 / 25 to under 40
 *   (their own definitions; Young adult onset is 16 to 40);
 * - Middle age onset "at the age of 40 to 60 years": 40 to 60 inclusive;
 * - Late onset "after the age of 60 years": older than 60 years.
 * A year is 365.25 days. Throws a RangeError for a negative or non-finite age.
 */
export function onsetTermOfDays(days: number): string {
  if (!(Number.isFinite(days) && days >= 0)) throw new RangeError(`age ${days} days is not a finite age after birth`);
  const at = (i: number): string => ONSET_CLASSES[i]?.term ?? ONSET_ROOT;
  const years = days / YEAR;
  if (days === 0) return at(1);
  if (days < 28) return at(2);
  if (years < 1) return at(3);
  if (years < 5) return at(4);
  if (years < 16) return at(5);
  const young = YOUNG_ADULT.find((y) => years < y.below);
  if (young) return young.term;
  if (years <= 60) return at(7);
  return at(8);
}

/** The HPO onset term of an age after birth given as an ISO 8601 duration (`onsetTermOfDays`). */
export function onsetTermOfAge(iso: string): string {
  return onsetTermOfDays(isoDurationDays(iso));
}

/** A gestational age (before birth): Antenatal onset. */
export function onsetTermOfGestationalAge(weeks: number): string {
  if (!(Number.isFinite(weeks) && weeks >= 0 && weeks <= 45)) throw new Error(`gestational age ${weeks} weeks is not between 0 and 45`);
  return ONSET_CLASSES[0]?.term ?? ONSET_ROOT;
}
