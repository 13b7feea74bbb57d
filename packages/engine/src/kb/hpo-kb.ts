/**
 * HPO part of the knowledge base: the ontology (compact), disease -> phenotype annotations
 * (phenotype.hpoa), gene -> disease links (genes_to_disease.txt) and disease names and
 * OMIM <-> Orphanet equivalences from the Mondo SSSOM mapping sets.
 *
 * `buildHpoKb` reads the sources once and writes `hpo-kb.json` into the KB directory;
 * `loadHpoKb` reads that one file back (no 22 MB hp.json parse at analysis time).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Ontology, parseObo, parseObographs, type OntologyData, type Term } from '../hpo/ontology.ts';
import { nameTermMatcher } from './disease-name-terms.ts';
import { readKbJsonFile } from './io.ts';
import { KbSourceError, type KbBuildContext } from './types.ts';

export const HPO_KB_FILE = 'hpo-kb.json';
export const HPO_KB_FORMAT = 3;
/** Older formats the loader still reads: 2 has no onset frequencies (every onset term's frequency unknown). */
const HPO_KB_FORMATS_READ: readonly number[] = [2, HPO_KB_FORMAT];

/** HPO frequency classes (HP:004028x) and the point probability used for each (class midpoint). */
export const FREQUENCY_CLASSES: Readonly<Record<string, number>> = {
  'HP:0040280': 1.0, // Obligate (100%)
  'HP:0040281': 0.9, // Very frequent (80-99%)
  'HP:0040282': 0.545, // Frequent (30-79%)
  'HP:0040283': 0.17, // Occasional (5-29%)
  'HP:0040284': 0.025, // Very rare (1-4%)
  'HP:0040285': 0, // Excluded (0%)
};

/** Sub-ontology roots that are not phenotypic abnormalities. */
export const MODE_OF_INHERITANCE_ROOT = 'HP:0000005';
export const ONSET_ROOT = 'HP:0003674';

/** An age-of-onset term: under Onset (HP:0003674), not Onset itself (the patient's onset, not a feature). */
export function isOnsetTerm(ontology: Ontology, id: string): boolean {
  return id !== ONSET_ROOT && ontology.isA(id, ONSET_ROOT);
}

export type GeneDiseaseAssociation = 'MENDELIAN' | 'POLYGENIC' | 'UNKNOWN';

/** One phenotype annotation of a disease, after merging duplicate rows of the same term. */
export interface DiseaseAnnotation {
  /** Current HPO id (alternative/obsolete ids of the source were resolved at build time). */
  term: string;
  /** Probability that a patient with the disease shows the term; null when the source gives none. */
  frequency: number | null;
  /** The frequency as written (e.g. '3/7', 'HP:0040282', '17%'), for explanations. */
  frequencyText: string | null;
  /** Pooled patient counts when the source gives n/m fractions: [n, m] (n of m patients). */
  counts: [number, number] | null;
  /** Onset of this feature, when the source gives one (HPO onset term id). */
  onset: string | null;
}

export interface HpoDisease {
  /** 'OMIM:154700', 'ORPHA:558', 'DECIPHER:1'. */
  id: string;
  name: string;
  mondo: string | null;
  annotations: DiseaseAnnotation[];
  /** Terms the disease is annotated NOT to show (qualifier NOT, or frequency 0). */
  excluded: string[];
  /** Mode-of-inheritance terms (aspect I). */
  inheritance: string[];
  /** Onset terms of the disease (aspect C, under HP:0003674). */
  onset: string[];
  /**
   * Frequency of each onset term the source gives one for (the share of the disease's patients with
   * that onset: aspect C n/m fractions pooled over rows, else the largest percentage or frequency
   * class); a term without one is absent (frequency unknown). Absent altogether: all unknown.
   */
  onsetFrequency?: Readonly<Record<string, number>>;
  /** Gene symbols linked by genes_to_disease (MENDELIAN and UNKNOWN associations). */
  genes: string[];
}

/**
 * A disease that genes_to_disease links to a gene, or (no genes) an OMIM disease that only the Mondo
 * mappings name, but that phenotype.hpoa does not annotate (usually newer than the annotation
 * release): only its name is known, and the features the name states.
 */
export interface NamedDisease {
  id: string;
  name: string;
  mondo: string | null;
  /** HPO phenotype terms named in the disease title (see disease-name-terms.ts). */
  nameTerms: string[];
  /** Mode-of-inheritance terms the title states. */
  inheritance: string[];
  genes: string[];
}

export interface HpoGene {
  symbol: string;
  ncbiGeneId: string;
  diseases: { id: string; association: GeneDiseaseAssociation }[];
}

export interface HpoKbVersions {
  hpo: string;
  annotations: string;
  mondo: string;
}

export interface HpoKb {
  versions: HpoKbVersions;
  ontology: Ontology;
  diseases: HpoDisease[];
  diseaseById: ReadonlyMap<string, HpoDisease>;
  /** Diseases without phenotype annotations known by name (gene-linked, or OMIM entries of the Mondo mappings), by id. */
  namedDiseases: ReadonlyMap<string, NamedDisease>;
  genes: ReadonlyMap<string, HpoGene>;
}

/** The JSON written to hpo-kb.json. Term references are indices into `terms.ids`. */
interface HpoKbFile {
  format: number;
  versions: HpoKbVersions;
  terms: { ids: string[]; labels: string[]; parents: number[][]; alias: Record<string, string> };
  /**
   * [id, name, mondo|'', annotations [term, freq(-1 = none), freqText|'', onset|-1, n, m][], excluded[], inheritance[], onset[], genes[],
   * onsetFrequency[] (format 3: per onset[] entry, -1 = none)]
   */
  diseases: [string, string, string, [number, number, string, number, number, number][], number[], number[], number[], string[], number[]?][];
  /** [symbol, ncbiGeneId, [[diseaseId, association]]] */
  genes: [string, string, [string, GeneDiseaseAssociation][]][];
  /** Gene-linked diseases without annotations: [id, name, mondo|'', nameTerms[], inheritance[], genes[]]. Absent in KBs built before it existed. */
  named?: [string, string, string, number[], number[], string[]][];
}

async function readMaybeGz(path: string): Promise<{ text: string; sha256: string }> {
  const raw = await readFile(path);
  const sha256 = createHash('sha256').update(raw).digest('hex');
  const buf = path.endsWith('.gz') ? gunzipSync(raw) : raw;
  return { text: buf.toString('utf8'), sha256 };
}

async function listDir(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir)).sort();
}

/** Parses an hpoa frequency field; returns undefined for an empty field. Throws on garbage. */
export function parseFrequency(raw: string): number | undefined {
  const s = raw.trim();
  if (s === '') return undefined;
  const cls = FREQUENCY_CLASSES[s];
  if (cls !== undefined) return cls;
  const frac = /^(\d+)\/(\d+)$/.exec(s);
  if (frac) {
    const n = Number(frac[1]);
    const m = Number(frac[2]);
    if (m === 0 || n > m) throw new RangeError(`invalid frequency fraction '${s}'`);
    return n / m;
  }
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(s);
  if (pct) {
    const p = Number(pct[1]) / 100;
    if (p > 1) throw new RangeError(`invalid frequency percentage '${s}'`);
    return p;
  }
  throw new RangeError(`unrecognised frequency '${s}'`);
}

export interface AnnotationAcc {
  /** Pooled n/m counts (fractions are pooled, other forms kept as max). */
  n: number;
  m: number;
  other: number | null;
  texts: string[];
  onset: string | null;
}

interface ParsedHpoa {
  version: string;
  hpoVersion: string | null;
  diseases: Map<string, { name: string; ann: Map<string, AnnotationAcc>; not: Set<string>; inh: Set<string>; onset: Map<string, AnnotationAcc> }>;
  rows: number;
  unresolved: number;
}

/** Parses phenotype.hpoa, resolving term ids through the ontology. */
export function parseHpoa(text: string, ontology: Ontology, source: string): ParsedHpoa {
  const lines = text.split(/\r?\n/);
  let version = 'unknown';
  let hpoVersion: string | null = null;
  const diseases: ParsedHpoa['diseases'] = new Map();
  let header: string[] | null = null;
  let rows = 0;
  let unresolved = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') continue;
    if (line.startsWith('#')) {
      const v = /^#version:\s*(\S+)/.exec(line);
      if (v?.[1]) version = v[1];
      const hv = /^#hpo-version:.*releases\/([\d-]+)\//.exec(line);
      if (hv?.[1]) hpoVersion = hv[1];
      continue;
    }
    const f = line.split('\t');
    if (!header) {
      if (f[0] !== 'database_id') throw new KbSourceError(source, `expected header starting with 'database_id', got '${f[0]}'`, i + 1);
      header = f;
      continue;
    }
    if (f.length < 11) throw new KbSourceError(source, `expected 12 tab-separated columns, got ${f.length}`, i + 1);
    const [dbId, name, qualifier, hpoId, , , onsetRaw, freqRaw, , , aspect] = f as [string, string, string, string, string, string, string, string, string, string, string];
    rows++;
    if (!/^(OMIM|ORPHA|DECIPHER):\S+$/.test(dbId)) throw new KbSourceError(source, `database_id '${dbId}' is not OMIM/ORPHA/DECIPHER`, i + 1);
    const term = ontology.resolve(hpoId);
    if (!term) {
      unresolved++;
      continue;
    }
    let d = diseases.get(dbId);
    if (!d) {
      d = { name, ann: new Map(), not: new Set(), inh: new Set(), onset: new Map() };
      diseases.set(dbId, d);
    }
    const frequency = (): number | undefined => {
      try {
        return parseFrequency(freqRaw);
      } catch (e) {
        throw new KbSourceError(source, `frequency column: ${(e as Error).message}`, i + 1);
      }
    };
    switch (aspect) {
      case 'P': {
        const freq = frequency();
        if (qualifier === 'NOT' || freq === 0) {
          d.not.add(term);
          break;
        }
        const acc = accumulate(d.ann, term, freqRaw, freq);
        const onset = onsetRaw.trim() ? ontology.resolve(onsetRaw.trim()) : undefined;
        if (onset) acc.onset ??= onset;
        break;
      }
      case 'I':
        if (qualifier !== 'NOT') d.inh.add(term);
        break;
      case 'C': {
        // An onset row: the share of the disease's patients with this onset (e.g. 5/8), when given.
        if (!ontology.isA(term, ONSET_ROOT)) break;
        const freq = frequency();
        if (qualifier !== 'NOT') accumulate(d.onset, term, freqRaw, freq);
        break;
      }
      default:
        // 'M' (clinical modifier) and 'H' (past medical history) rows do not enter the ranking.
        break;
    }
  }
  if (!header) throw new KbSourceError(source, 'no header line (database_id ...) found');
  return { version, hpoVersion, diseases, rows, unresolved };
}

/** Adds one row's frequency to the term's accumulator (n/m fractions pooled, other forms kept as the largest). */
export function accumulate(accs: Map<string, AnnotationAcc>, term: string, freqRaw: string, freq: number | undefined): AnnotationAcc {
  let acc = accs.get(term);
  if (!acc) {
    acc = { n: 0, m: 0, other: null, texts: [], onset: null };
    accs.set(term, acc);
  }
  const frac = /^(\d+)\/(\d+)$/.exec(freqRaw.trim());
  if (frac) {
    acc.n += Number(frac[1]);
    acc.m += Number(frac[2]);
  } else if (freq !== undefined) {
    acc.other = Math.max(acc.other ?? 0, freq);
  }
  if (freqRaw.trim()) acc.texts.push(freqRaw.trim());
  return acc;
}

/** Final frequency of a merged annotation: pooled n/m when available, else the largest class. */
export function finishAnnotation(acc: AnnotationAcc): { frequency: number | null; text: string | null } {
  const text = acc.texts.length ? [...new Set(acc.texts)].join('; ') : null;
  if (acc.m > 0) {
    const pooled = acc.n / acc.m;
    return { frequency: acc.other != null ? Math.max(pooled, acc.other) : pooled, text };
  }
  return { frequency: acc.other, text };
}

function pickOntologyFile(files: string[], wantVersion: string | null): string | undefined {
  const json = files.filter((f) => /^hp.*\.json(\.gz)?$/.test(f));
  if (wantVersion) {
    const exact = json.find((f) => f.includes(wantVersion));
    if (exact) return exact;
  }
  if (json.length) return json[json.length - 1];
  return files.find((f) => /^hp.*\.obo(\.gz)?$/.test(f));
}

/** KB build step: HPO ontology + annotations + gene links + Mondo names -> hpo-kb.json. */
export async function buildHpoKb(ctx: KbBuildContext): Promise<void> {
  const hpoDir = join(ctx.sourcesDir, 'hpo');
  const files = await listDir(hpoDir);
  const hpoaFiles = files.filter((f) => /^phenotype.*\.hpoa(\.gz)?$/.test(f));
  const hpoaName = hpoaFiles[hpoaFiles.length - 1];
  if (!hpoaName) throw new KbSourceError('hpo/', 'no phenotype*.hpoa(.gz) found');
  const hpoa = await readMaybeGz(join(hpoDir, hpoaName));
  const wantVersion = /#hpo-version:.*releases\/([\d-]+)\//.exec(hpoa.text.slice(0, 2000))?.[1] ?? null;

  const ontName = pickOntologyFile(files, wantVersion);
  if (!ontName) throw new KbSourceError('hpo/', 'no hp*.json(.gz) or hp*.obo found');
  ctx.log(`HPO: ontology ${ontName}, annotations ${hpoaName}`);
  const ont = await readMaybeGz(join(hpoDir, ontName));
  let data: OntologyData;
  try {
    data = ontName.includes('.json') ? parseObographs(JSON.parse(ont.text)) : parseObo(ont.text);
  } catch (e) {
    throw new KbSourceError(`hpo/${ontName}`, (e as Error).message);
  }
  const ontology = new Ontology(data);
  if (wantVersion && data.version !== 'unknown' && !data.version.includes(wantVersion))
    ctx.warn(`HPO ontology ${data.version} differs from the release the annotations were made with (${wantVersion}); ids are resolved through alt/obsolete ids`);
  ctx.addSource({ name: 'hpo-ontology', path: `hpo/${ontName}`, version: data.version, sha256: ont.sha256, records: data.terms.length });
  ctx.signal?.throwIfAborted();

  const parsed = parseHpoa(hpoa.text, ontology, `hpo/${hpoaName}`);
  ctx.addSource({
    name: 'hpo-annotations',
    path: `hpo/${hpoaName}`,
    version: parsed.version,
    sha256: hpoa.sha256,
    records: parsed.rows,
    skipped: parsed.unresolved,
    ...(parsed.unresolved ? { notes: `${parsed.unresolved} rows name an HPO id unknown to the ontology` } : {}),
  });

  // genes_to_disease
  const g2dName = files.filter((f) => /^genes_to_disease.*\.txt(\.gz)?$/.test(f)).pop();
  const genes = new Map<string, HpoGene>();
  if (!g2dName) ctx.reportMissing('hpo-genes-to-disease', 'no hpo/genes_to_disease*.txt(.gz): genes are not ranked through diseases');
  else {
    const g2d = await readMaybeGz(join(hpoDir, g2dName));
    const lines = g2d.text.split(/\r?\n/);
    let records = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (line === '' || line.startsWith('#')) continue;
      const f = line.split('\t');
      if (i === 0 && f[0] === 'ncbi_gene_id') continue;
      if (f.length < 4) throw new KbSourceError(`hpo/${g2dName}`, `expected 5 tab-separated columns, got ${f.length}`, i + 1);
      const [ncbi, symbol, assoc, diseaseId] = f as [string, string, string, string];
      if (assoc !== 'MENDELIAN' && assoc !== 'POLYGENIC' && assoc !== 'UNKNOWN')
        throw new KbSourceError(`hpo/${g2dName}`, `association_type '${assoc}' is not MENDELIAN/POLYGENIC/UNKNOWN`, i + 1);
      records++;
      let g = genes.get(symbol);
      if (!g) {
        g = { symbol, ncbiGeneId: ncbi, diseases: [] };
        genes.set(symbol, g);
      }
      if (!g.diseases.some((d) => d.id === diseaseId)) g.diseases.push({ id: diseaseId, association: assoc });
    }
    ctx.addSource({ name: 'hpo-genes-to-disease', path: `hpo/${g2dName}`, version: parsed.version, sha256: g2d.sha256, records, notes: 'no version line; assumed to match the annotations' });
  }

  // Mondo: names + equivalence
  const mondoOf = new Map<string, string>();
  const mondoNames = new Map<string, string>();
  let mondoVersion = 'unknown';
  const disDir = join(ctx.sourcesDir, 'diseases');
  const mondoFiles = (await listDir(disDir)).filter((f) => /^mondo_.*\.sssom\.tsv(\.gz)?$/.test(f));
  if (!mondoFiles.length) ctx.reportMissing('mondo-mappings', 'no diseases/mondo_*.sssom.tsv(.gz): OMIM/Orphanet entries are not grouped');
  for (const name of mondoFiles) {
    const src = `diseases/${name}`;
    const m = await readMaybeGz(join(disDir, name));
    const lines = m.text.split(/\r?\n/);
    let header: string[] | null = null;
    let records = 0;
    let version = 'unknown';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (line === '') continue;
      if (line.startsWith('#')) {
        const v = /releases\/(\d{4}-\d{2}-\d{2})/.exec(line);
        if (v?.[1]) version = v[1];
        continue;
      }
      const f = line.split('\t');
      if (!header) {
        header = f;
        if (f[0] !== 'subject_id' || f[3] !== 'object_id') throw new KbSourceError(src, 'expected SSSOM columns subject_id ... object_id', i + 1);
        continue;
      }
      const [subj, subjLabel, , obj, objLabel] = f as [string, string, string, string, string];
      if (!subj.startsWith('MONDO:')) throw new KbSourceError(src, `subject_id '${subj}' is not a MONDO id`, i + 1);
      records++;
      const dbId = obj.replace(/^Orphanet:/, 'ORPHA:');
      // A source id xref'd from several Mondo classes is ambiguous: keep none.
      if (mondoOf.has(dbId) && mondoOf.get(dbId) !== subj) mondoOf.set(dbId, '');
      else mondoOf.set(dbId, subj);
      mondoNames.set(subj, subjLabel);
      if (!mondoNames.has(dbId)) mondoNames.set(dbId, objLabel);
    }
    mondoVersion = version;
    ctx.addSource({ name: `mondo-${name.replace(/^mondo_hasdbxref_|\.sssom.*$/g, '')}`, path: src, version, sha256: m.sha256, records });
  }

  // Compact output
  const ids = ontology.currentIds().sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const idx = (id: string): number => {
    const i = index.get(id);
    if (i === undefined) throw new Error(`internal: term ${id} not indexed`);
    return i;
  };
  const alias: Record<string, string> = {};
  for (const t of data.terms) {
    if (!t.obsolete) for (const a of t.altIds) if (!index.has(a)) alias[a] = t.id;
  }
  for (const t of data.terms) {
    if (!t.obsolete) continue;
    const r = ontology.resolve(t.id);
    if (r) alias[t.id] = r;
  }
  const out: HpoKbFile = {
    format: HPO_KB_FORMAT,
    versions: { hpo: data.version, annotations: parsed.version, mondo: mondoVersion },
    terms: {
      ids,
      labels: ids.map((id) => ontology.terms.get(id)?.label ?? id),
      parents: ids.map((id) => (ontology.terms.get(id)?.parents ?? []).filter((p) => index.has(p)).map(idx)),
      alias,
    },
    diseases: [],
    genes: [...genes.values()]
      .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
      .map((g) => [g.symbol, g.ncbiGeneId, g.diseases.map((d) => [d.id, d.association] as [string, GeneDiseaseAssociation])]),
  };
  const genesOf = new Map<string, string[]>();
  for (const g of genes.values())
    for (const d of g.diseases) {
      if (d.association === 'POLYGENIC') continue;
      const list = genesOf.get(d.id) ?? [];
      list.push(g.symbol);
      genesOf.set(d.id, list);
    }
  const diseaseIds = [...parsed.diseases.keys()].sort();
  for (const id of diseaseIds) {
    const d = parsed.diseases.get(id);
    if (!d) continue;
    const mondo = mondoOf.get(id) || '';
    const onsetTerms = [...d.onset.keys()].sort((a, b) => idx(a) - idx(b));
    const anns: [number, number, string, number, number, number][] = [];
    for (const [term, acc] of [...d.ann.entries()].sort((a, b) => idx(a[0]) - idx(b[0]))) {
      const fin = finishAnnotation(acc);
      anns.push([idx(term), fin.frequency ?? -1, fin.text ?? '', acc.onset && index.has(acc.onset) ? idx(acc.onset) : -1, acc.n, acc.m]);
    }
    out.diseases.push([
      id,
      d.name || mondoNames.get(id) || id,
      mondo,
      anns,
      [...d.not].map(idx).sort((a, b) => a - b),
      [...d.inh].map(idx).sort((a, b) => a - b),
      onsetTerms.map(idx),
      (genesOf.get(id) ?? []).sort(),
      onsetTerms.map((t) => finishAnnotation(d.onset.get(t)!).frequency ?? -1),
    ]);
  }
  // Gene-linked diseases that the annotations do not cover: their names, and the features named.
  const matcher = nameTermMatcher(ontology);
  out.named = [];
  let namedWithTerms = 0;
  for (const id of [...genesOf.keys()].sort()) {
    if (parsed.diseases.has(id)) continue;
    // The source's own title (OMIM/Orphanet wording) and the Mondo label, when they differ.
    const mondo = mondoOf.get(id) || '';
    const titles = [...new Set([mondoNames.get(id), mondo ? mondoNames.get(mondo) : undefined].filter((t): t is string => !!t))];
    const terms = [...new Set(titles.flatMap((t) => matcher.phenotypeTerms(t)))].filter((t) => index.has(t));
    const inheritance = [...new Set(titles.flatMap((t) => matcher.inheritanceTerms(t)))].filter((t) => index.has(t));
    if (terms.length) namedWithTerms++;
    out.named.push([id, titles[0] ?? id, mondo, terms.map(idx), inheritance.map(idx), (genesOf.get(id) ?? []).sort()]);
  }
  // OMIM diseases that Mondo knows (by title) but neither the annotations nor genes_to_disease do:
  // usually newer than both. Phenotype-only ranking lists them on a borrowed profile (phenotype/series.ts).
  let mondoOnly = 0;
  for (const id of [...mondoOf.keys()].filter((k) => k.startsWith('OMIM:')).sort()) {
    if (parsed.diseases.has(id) || genesOf.has(id)) continue;
    const mondo = mondoOf.get(id) || '';
    const titles = [...new Set([mondoNames.get(id), mondo ? mondoNames.get(mondo) : undefined].filter((t): t is string => !!t))];
    if (!titles.length) continue;
    const terms = [...new Set(titles.flatMap((t) => matcher.phenotypeTerms(t)))].filter((t) => index.has(t));
    const inheritance = [...new Set(titles.flatMap((t) => matcher.inheritanceTerms(t)))].filter((t) => index.has(t));
    mondoOnly++;
    out.named.push([id, titles[0] ?? id, mondo, terms.map(idx), inheritance.map(idx), []]);
  }
  await writeFile(join(ctx.outDir, HPO_KB_FILE), JSON.stringify(out));
  ctx.log(`HPO: ${ids.length} terms, ${out.diseases.length} diseases, ${out.genes.length} genes, ${out.named.length - mondoOnly} gene-linked diseases without annotations (${namedWithTerms} with features in their name), ${mondoOnly} OMIM diseases known only to Mondo`);
}

/** Loads hpo-kb.json written by `buildHpoKb`. */
export async function loadHpoKb(dir: string): Promise<HpoKb> {
  const path = join(dir, HPO_KB_FILE);
  const file = await readKbJsonFile<HpoKbFile>(path, (e) => `cannot read HPO KB: ${e.message}`);
  if (!HPO_KB_FORMATS_READ.includes(file.format))
    throw new KbSourceError(path, `HPO KB format ${file.format}, expected ${HPO_KB_FORMATS_READ.join(' or ')}: rebuild the KB`);
  return hpoKbFromFile(file);
}

/** The onset frequencies of a format-3 disease row (per onset term, -1 = none) as a record of the known ones. */
function onsetFrequencyOf(disease: string, onset: readonly string[], freq: readonly number[]): Record<string, number> {
  if (freq.length !== onset.length) throw new Error(`HPO KB: disease ${disease}: ${freq.length} onset frequencies for ${onset.length} onset terms`);
  const out: Record<string, number> = {};
  onset.forEach((t, i) => {
    const f = freq[i] ?? -1;
    if (f >= 0) out[t] = f;
  });
  return out;
}

function hpoKbFromFile(file: HpoKbFile): HpoKb {
  const { ids, labels, parents, alias } = file.terms;
  const altIds = new Map<string, string[]>();
  for (const [alt, cur] of Object.entries(alias)) {
    const list = altIds.get(cur) ?? [];
    list.push(alt);
    altIds.set(cur, list);
  }
  const id = (i: number): string => {
    const v = ids[i];
    if (v === undefined) throw new Error(`HPO KB: term index ${i} out of range`);
    return v;
  };
  const terms: Term[] = ids.map((tid, i) => ({
    id: tid,
    label: labels[i] ?? tid,
    synonyms: [],
    parents: (parents[i] ?? []).map(id),
    obsolete: false,
    altIds: altIds.get(tid) ?? [],
  }));
  const ontology = new Ontology({ version: file.versions.hpo, terms });
  const diseases: HpoDisease[] = file.diseases.map(([did, name, mondo, anns, not, inh, onset, genes, onsetFreq]) => ({
    id: did,
    name,
    mondo: mondo || null,
    annotations: anns.map(([t, f, text, on, n, m]) => ({
      term: id(t),
      frequency: f < 0 ? null : f,
      frequencyText: text || null,
      onset: on < 0 ? null : id(on),
      counts: m > 0 ? ([n, m] as [number, number]) : null,
    })),
    excluded: not.map(id),
    inheritance: inh.map(id),
    onset: onset.map(id),
    ...(onsetFreq ? { onsetFrequency: onsetFrequencyOf(did, onset.map(id), onsetFreq) } : {}),
    genes,
  }));
  const genes = new Map<string, HpoGene>(
    file.genes.map(([symbol, ncbi, ds]) => [symbol, { symbol, ncbiGeneId: ncbi, diseases: ds.map(([d, association]) => ({ id: d, association })) }]),
  );
  const namedDiseases = new Map<string, NamedDisease>(
    (file.named ?? []).map(([did, name, mondo, terms, inh, gs]) => [did, { id: did, name, mondo: mondo || null, nameTerms: terms.map(id), inheritance: inh.map(id), genes: gs }]),
  );
  return { versions: file.versions, ontology, diseases, diseaseById: new Map(diseases.map((d) => [d.id, d])), namedDiseases, genes };
}
