/**
 * The HPO ontology graph: terms, labels, synonyms, is_a parents, alternative and obsolete ids.
 * Parsed from obographs JSON (hp.json) or OBO (hp.obo); both carry the same content.
 */

export type SynonymScope = 'exact' | 'related' | 'broad' | 'narrow';

export interface Synonym {
  text: string;
  scope: SynonymScope;
  /** e.g. 'layperson', 'abbreviation', 'plural_form', 'uk_spelling' when the ontology says so. */
  type?: string;
}

export interface Term {
  id: string;
  label: string;
  definition?: string;
  synonyms: Synonym[];
  parents: string[];
  obsolete: boolean;
  replacedBy?: string;
  consider?: string[];
  altIds: string[];
}

export interface OntologyData {
  version: string;
  terms: Term[];
}

const ROOT_ID = 'HP:0000001';
/** Phenotypic abnormality: the root of the clinical sub-ontology. */
export const PHENOTYPIC_ABNORMALITY = 'HP:0000118';

const SCOPE_BY_PRED: Record<string, SynonymScope> = {
  hasExactSynonym: 'exact',
  hasRelatedSynonym: 'related',
  hasBroadSynonym: 'broad',
  hasNarrowSynonym: 'narrow',
};

/** An in-memory ontology with cached ancestor sets. */
export class Ontology {
  readonly version: string;
  readonly terms = new Map<string, Term>();
  readonly children = new Map<string, string[]>();
  private readonly alias = new Map<string, string>();
  private readonly ancestorCache = new Map<string, ReadonlySet<string>>();

  constructor(data: OntologyData) {
    this.version = data.version;
    for (const t of data.terms) this.terms.set(t.id, t);
    for (const t of data.terms) {
      for (const alt of t.altIds) if (!this.terms.has(alt)) this.alias.set(alt, t.id);
      if (t.obsolete) continue;
      for (const p of t.parents) {
        const list = this.children.get(p);
        if (list) list.push(t.id);
        else this.children.set(p, [t.id]);
      }
    }
  }

  /** The current id for an id that may be an alternative or obsolete id; undefined if unknown. */
  resolve(id: string): string | undefined {
    let cur = id.trim().replace(/^HP_/, 'HP:');
    for (let hops = 0; hops < 5; hops++) {
      const t = this.terms.get(cur);
      if (t && !t.obsolete) return cur;
      const viaAlias = this.alias.get(cur);
      if (viaAlias) {
        cur = viaAlias;
        continue;
      }
      if (t?.replacedBy) {
        cur = t.replacedBy;
        continue;
      }
      if (t?.consider?.length === 1 && t.consider[0]) {
        cur = t.consider[0];
        continue;
      }
      return undefined;
    }
    return undefined;
  }

  get(id: string): Term | undefined {
    const r = this.resolve(id);
    return r ? this.terms.get(r) : undefined;
  }

  label(id: string): string | undefined {
    return this.get(id)?.label;
  }

  /** All ancestors of a (current) term, the term itself included. */
  ancestors(id: string): ReadonlySet<string> {
    const cached = this.ancestorCache.get(id);
    if (cached) return cached;
    const out = new Set<string>([id]);
    const t = this.terms.get(id);
    if (t) for (const p of t.parents) for (const a of this.ancestors(p)) out.add(a);
    this.ancestorCache.set(id, out);
    return out;
  }

  /** Is `ancestor` equal to or an ancestor of `id`? */
  isA(id: string, ancestor: string): boolean {
    return this.ancestors(id).has(ancestor);
  }

  /** Current (non-obsolete) term ids. */
  currentIds(): string[] {
    const ids: string[] = [];
    for (const t of this.terms.values()) if (!t.obsolete) ids.push(t.id);
    return ids;
  }

  toData(): OntologyData {
    return { version: this.version, terms: [...this.terms.values()] };
  }
}

function curie(iri: string): string {
  const m = /([A-Za-z]+)_(\d+)$/.exec(iri);
  return m ? `${m[1]}:${m[2]}` : iri;
}

interface ObographNode {
  id: string;
  lbl?: string;
  type?: string;
  meta?: {
    definition?: { val?: string };
    synonyms?: { pred: string; val: string; synonymType?: string }[];
    basicPropertyValues?: { pred: string; val: string }[];
    deprecated?: boolean;
  };
}
interface ObographDoc {
  graphs?: {
    meta?: { version?: string; basicPropertyValues?: { pred: string; val: string }[] };
    nodes?: ObographNode[];
    edges?: { sub: string; pred: string; obj: string }[];
  }[];
}

/** Parses obographs JSON (the official hp.json). Throws on a document that is not HPO. */
export function parseObographs(doc: unknown): OntologyData {
  const graph = (doc as ObographDoc).graphs?.[0];
  if (!graph?.nodes || !graph.edges) throw new Error('hp.json: not an obographs document (no graphs[0].nodes/edges)');
  const versionIri = graph.meta?.version ?? '';
  const versionInfo = graph.meta?.basicPropertyValues?.find((p) => p.pred.endsWith('versionInfo'))?.val;
  const version = versionInfo ?? /releases\/([\d-]+)\//.exec(versionIri)?.[1] ?? 'unknown';
  const terms = new Map<string, Term>();
  for (const n of graph.nodes) {
    if (n.type !== 'CLASS' || !n.id.includes('/HP_')) continue;
    const id = curie(n.id);
    const meta = n.meta ?? {};
    const t: Term = {
      id,
      label: (n.lbl ?? id).replace(/^obsolete /, ''),
      synonyms: [],
      parents: [],
      obsolete: meta.deprecated === true,
      altIds: [],
    };
    if (meta.definition?.val) t.definition = meta.definition.val;
    for (const s of meta.synonyms ?? []) {
      const scope = SCOPE_BY_PRED[s.pred];
      if (!scope) continue;
      const syn: Synonym = { text: s.val, scope };
      const type = s.synonymType ? /#(\w+)$/.exec(s.synonymType)?.[1] : undefined;
      if (type) syn.type = type;
      t.synonyms.push(syn);
    }
    for (const p of meta.basicPropertyValues ?? []) {
      if (p.pred.endsWith('hasAlternativeId')) t.altIds.push(curie(p.val));
      else if (p.pred.endsWith('IAO_0100001')) t.replacedBy = curie(p.val);
      else if (p.pred.endsWith('#consider')) (t.consider ??= []).push(curie(p.val));
    }
    terms.set(id, t);
  }
  for (const e of graph.edges) {
    if (e.pred !== 'is_a') continue;
    const sub = terms.get(curie(e.sub));
    const obj = curie(e.obj);
    if (sub && terms.has(obj)) sub.parents.push(obj);
  }
  if (!terms.has(ROOT_ID)) throw new Error('hp.json: root term HP:0000001 missing');
  return { version, terms: [...terms.values()] };
}

/** Parses OBO 1.2/1.4 text (hp.obo). */
export function parseObo(text: string): OntologyData {
  let version = 'unknown';
  const terms: Term[] = [];
  let cur: Term | null = null;
  let inTerm = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('[')) {
      if (cur) terms.push(cur);
      cur = null;
      inTerm = line === '[Term]';
      continue;
    }
    const m = /^([a-z_-]+):\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, tag, rawValue] = m as unknown as [string, string, string];
    const value = rawValue.replace(/\s+!.*$/, '');
    if (!inTerm) {
      if (tag === 'data-version') version = value.replace(/^hp\/releases\//, '').replace(/\/.*$/, '');
      continue;
    }
    switch (tag) {
      case 'id':
        cur = { id: value, label: value, synonyms: [], parents: [], obsolete: false, altIds: [] };
        break;
      case 'name':
        if (cur) cur.label = value.replace(/^obsolete /, '');
        break;
      case 'def':
        if (cur) cur.definition = /^"((?:[^"\\]|\\.)*)"/.exec(value)?.[1] ?? value;
        break;
      case 'synonym': {
        const s = /^"((?:[^"\\]|\\.)*)"\s+(EXACT|RELATED|BROAD|NARROW)(?:\s+([\w:]+))?/.exec(value);
        if (cur && s) {
          const syn: Synonym = { text: s[1] ?? '', scope: (s[2] ?? 'EXACT').toLowerCase() as SynonymScope };
          if (s[3]) syn.type = s[3].replace(/^hp:/i, '').toLowerCase();
          cur.synonyms.push(syn);
        }
        break;
      }
      case 'is_a':
        cur?.parents.push(value.split(/\s/)[0] ?? value);
        break;
      case 'alt_id':
        cur?.altIds.push(value);
        break;
      case 'is_obsolete':
        if (cur) cur.obsolete = value === 'true';
        break;
      case 'replaced_by':
        if (cur) cur.replacedBy = value;
        break;
      case 'consider':
        if (cur) (cur.consider ??= []).push(value);
        break;
      default:
        break;
    }
  }
  if (cur) terms.push(cur);
  if (!terms.some((t) => t.id === ROOT_ID)) throw new Error('hp.obo: root term HP:0000001 missing');
  return { version, terms: terms.filter((t) => t.id.startsWith('HP:')) };
}
