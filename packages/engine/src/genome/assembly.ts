/**
 * Genome assembly detection from VCF header lines. Evidence, strongest first: primary-contig
 * lengths in ##contig lines, versioned contig accessions (NC_000001.11), `assembly=` attributes,
 * and ##reference / ##assembly names. Never a silent default: no evidence gives null (ask the
 * user), and evidence for both assemblies is an error (CONVENTIONS §5).
 */

import type { Assembly } from '../types.ts';
import { CONTIG_LENGTHS, HG19_CHRM_LENGTH, assemblyOfContigAlias, isPrimaryContig, normalizeContig } from './contigs.ts';

export interface AssemblyEvidence {
  assembly: Assembly;
  /** What was seen, e.g. "##contig 1 length=249250621". */
  source: string;
}

export interface AssemblyDetection {
  assembly: Assembly | null;
  evidence: AssemblyEvidence[];
}

export class AssemblyConflictError extends Error {
  constructor(readonly evidence: AssemblyEvidence[]) {
    const show = (a: Assembly): string =>
      evidence
        .filter((e) => e.assembly === a)
        .slice(0, 3)
        .map((e) => e.source)
        .join('; ');
    super(`header mixes GRCh37 and GRCh38: GRCh37 from ${show('GRCh37')}; GRCh38 from ${show('GRCh38')}`);
    this.name = 'AssemblyConflictError';
  }
}

// Name tokens, matched case-insensitively against ##reference/##assembly values and contig
// `assembly=` attributes. GCA_000001405.15+ is GRCh38; .1-.14 are GRCh37 patches.
const NAME_PATTERNS: Array<[RegExp, Assembly]> = [
  [/grch38|hg38|\bb38\b|assembly38|hs38|gca_000001405\.(1[5-9]|[2-9]\d)|gcf_000001405\.(2[6-9]|[3-9]\d)/i, 'GRCh38'],
  [/grch37|hg19|\bb37\b|hs37|human_g1k_v37|g1k_v37|assembly37|gca_000001405\.([1-9]|1[0-4])\b|gcf_000001405\.(1[3-9]|2[0-5])\b/i, 'GRCh37'],
];

function assemblyFromName(value: string): Assembly | null {
  const hits = new Set<Assembly>();
  for (const [re, a] of NAME_PATTERNS) if (re.test(value)) hits.add(a);
  return hits.size === 1 ? [...hits][0]! : null;
}

/** Parse the `<ID=..,length=..>` structure of a ##contig line (values may be quoted). */
export function parseStructuredMeta(body: string): Map<string, string> {
  const out = new Map<string, string>();
  let s = body.trim();
  if (s.startsWith('<')) s = s.slice(1);
  if (s.endsWith('>')) s = s.slice(0, -1);
  let i = 0;
  while (i < s.length) {
    const eq = s.indexOf('=', i);
    if (eq === -1) break;
    const key = s.slice(i, eq).trim();
    let j = eq + 1;
    let value: string;
    if (s[j] === '"') {
      let k = j + 1;
      let buf = '';
      while (k < s.length && s[k] !== '"') {
        if (s[k] === '\\' && k + 1 < s.length) k++;
        buf += s[k];
        k++;
      }
      value = buf;
      j = k + 1;
      const comma = s.indexOf(',', j);
      i = comma === -1 ? s.length : comma + 1;
    } else {
      const comma = s.indexOf(',', j);
      const end = comma === -1 ? s.length : comma;
      value = s.slice(j, end);
      i = end + 1;
    }
    out.set(key, value);
  }
  return out;
}

/** Collect assembly evidence from VCF meta lines (those starting with '##'). */
export function collectAssemblyEvidence(headerLines: readonly string[]): AssemblyEvidence[] {
  const evidence: AssemblyEvidence[] = [];
  for (const raw of headerLines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('##contig=')) {
      const attrs = parseStructuredMeta(line.slice('##contig='.length));
      const id = attrs.get('ID');
      if (id === undefined) continue;
      const pinned = assemblyOfContigAlias(id);
      if (pinned !== null) evidence.push({ assembly: pinned, source: `##contig ${id}` });
      const name = normalizeContig(id);
      const lengthStr = attrs.get('length');
      const length = lengthStr === undefined ? NaN : Number(lengthStr);
      if (Number.isFinite(length) && isPrimaryContig(name)) {
        if (name === 'MT') {
          if (length === HG19_CHRM_LENGTH) evidence.push({ assembly: 'GRCh37', source: `##contig ${id} length=${length} (hg19 chrM)` });
        } else if (CONTIG_LENGTHS.GRCh37[name] === length) {
          evidence.push({ assembly: 'GRCh37', source: `##contig ${id} length=${length}` });
        } else if (CONTIG_LENGTHS.GRCh38[name] === length) {
          evidence.push({ assembly: 'GRCh38', source: `##contig ${id} length=${length}` });
        }
      }
      const asm = attrs.get('assembly');
      if (asm !== undefined) {
        const a = assemblyFromName(asm);
        if (a !== null) evidence.push({ assembly: a, source: `##contig ${id} assembly=${asm}` });
      }
    } else if (line.startsWith('##reference=') || line.startsWith('##assembly=')) {
      const eq = line.indexOf('=');
      const value = line.slice(eq + 1);
      const a = assemblyFromName(value);
      if (a !== null) evidence.push({ assembly: a, source: line.slice(0, 120) });
    }
  }
  return evidence;
}

/**
 * Detect the assembly of a VCF from its header lines, with the evidence used.
 * Throws AssemblyConflictError when the header points at both assemblies.
 */
export function detectAssemblyWithEvidence(header: readonly string[] | { meta: readonly string[] }): AssemblyDetection {
  const evidence = collectAssemblyEvidence('meta' in header ? header.meta : header);
  const kinds = new Set(evidence.map((e) => e.assembly));
  if (kinds.size > 1) throw new AssemblyConflictError(evidence);
  const first = evidence[0];
  return { assembly: first === undefined ? null : first.assembly, evidence };
}

/**
 * 'GRCh37' | 'GRCh38' from header evidence (the '##' lines, or a parsed VcfHeader), null when
 * the header does not say (ask the user). Throws AssemblyConflictError on mixed evidence.
 */
export function detectAssembly(header: readonly string[] | { meta: readonly string[] }): Assembly | null {
  return detectAssemblyWithEvidence(header).assembly;
}

/**
 * Assembly of a single contig given its length, for checking records against the header
 * (null when the length is not a known primary-contig length or is shared, as for MT).
 */
export function assemblyOfContigLength(contig: string, length: number): Assembly | null {
  const name = normalizeContig(contig);
  if (name === 'MT') return length === HG19_CHRM_LENGTH ? 'GRCh37' : null;
  if (CONTIG_LENGTHS.GRCh37[name] === length) return 'GRCh37';
  if (CONTIG_LENGTHS.GRCh38[name] === length) return 'GRCh38';
  return null;
}
