/**
 * Functional annotations already present in a VCF: Ensembl VEP (CSQ, or CSQ-format data under
 * another key, e.g. ANN) and SnpEff ANN; and population allele frequencies from recognised
 * INFO keys. The caller's own INFO AF (allele fraction among the called samples) is never read
 * as a population frequency.
 */

import type { Impact } from '../types.ts';
import type { AnnotationLayout } from './header.ts';

export interface TranscriptAnnotation {
  source: 'vep' | 'snpeff';
  /** Allele as written by the annotator ('-' for VEP deletions). */
  allele: string;
  /** Sequence Ontology terms as given, split on '&'. */
  consequences: string[];
  impact: Impact | null;
  gene: string | null;
  geneId: string | null;
  /** Feature id (transcript), e.g. ENST00000358487.10 or NM_000141.5. */
  transcript: string | null;
  biotype: string | null;
  /** HGVS c./n. as written, without the transcript prefix VEP adds (see hgvsCFull). */
  hgvsC: string | null;
  hgvsP: string | null;
  exon: string | null;
  intron: string | null;
  isManeSelect: boolean;
  isManePlusClinical: boolean;
  /** The MANE Select RefSeq id VEP reports for an Ensembl transcript, e.g. 'NM_000141.5'. */
  maneSelectId: string | null;
  isCanonical: boolean;
  /** Population allele frequencies from the annotation (VEP gnomAD_AF, MAX_AF, AF (1000G) ...). */
  frequencies: Record<string, number>;
  /** Every field by name, raw. */
  fields: Record<string, string>;
}

const IMPACTS = new Set<string>(['HIGH', 'MODERATE', 'LOW', 'MODIFIER']);

// VEP CSQ fields that are population frequencies. 'AF' inside CSQ is the 1000 Genomes global AF
// (it is the annotator's field, not the caller's INFO AF).
const VEP_FREQUENCY_FIELDS = new Set<string>([
  'AF', 'MAX_AF', 'gnomAD_AF', 'gnomADe_AF', 'gnomADg_AF', 'gnomAD_exomes_AF', 'gnomAD_genomes_AF',
  'ExAC_AF', 'ExAC_Adj_AF', 'AA_AF', 'EA_AF', 'AFR_AF', 'AMR_AF', 'EAS_AF', 'EUR_AF', 'SAS_AF',
]);

/** True for a VEP CSQ field that holds a population allele frequency. */
export function isVepFrequencyField(name: string): boolean {
  return VEP_FREQUENCY_FIELDS.has(name);
}

/** Recognised population-frequency INFO keys, with how their values map to alleles. */
export const POPULATION_AF_INFO_KEYS: Readonly<Record<string, 'A' | 'R'>> = {
  gnomAD_AF: 'A', gnomADe_AF: 'A', gnomADg_AF: 'A', gnomAD_exome_AF: 'A', gnomAD_genome_AF: 'A',
  gnomad_AF: 'A', gnomad_exome_AF: 'A', gnomad_genome_AF: 'A', gnomAD_exomes_AF: 'A', gnomAD_genomes_AF: 'A',
  gnomad_popmax: 'A', gnomAD_popmax: 'A', gnomAD_popmax_AF: 'A', AF_popmax: 'A', popmax_AF: 'A', gnomAD_AF_popmax: 'A',
  gnomAD_exome_ALL: 'A', gnomAD_genome_ALL: 'A', ExAC_ALL: 'A', '1000g2015aug_all': 'A', esp6500siv2_all: 'A',
  AF_EXAC: 'A', ExAC_AF: 'A', AF_TGP: 'A', '1000Gp3_AF': 'A', '1000G_AF': 'A', KG_AF: 'A', AF_ESP: 'A', ESP_AF: 'A',
  MAX_AF: 'A', MAX_AF_POPS: 'A', TOPMED_AF: 'A',
  // dbSNP: CAF and TOPMED list REF first, then each ALT.
  CAF: 'R', TOPMED: 'R',
};

export interface PopulationFrequency {
  /** Highest frequency over every recognised source. */
  af: number;
  /** Key it came from, e.g. 'gnomADg_AF' or 'CSQ:MAX_AF'. */
  source: string;
  /** Every recognised value found, by source. */
  all: Record<string, number>;
}

function nonEmpty(s: string | undefined): string | null {
  return s === undefined || s === '' ? null : s;
}

/** VEP percent-encodes some characters in HGVS (notably '=' as %3D). */
function decodeVep(s: string | null): string | null {
  if (s === null || !s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function stripTranscriptPrefix(s: string | null): string | null {
  if (s === null) return null;
  const colon = s.indexOf(':');
  return colon === -1 ? s : s.slice(colon + 1);
}

/** Parse one comma-separated entry of a CSQ/ANN value into a transcript annotation. */
export function parseAnnotationEntry(entry: string, layout: AnnotationLayout): TranscriptAnnotation {
  const values = entry.split('|');
  const fields: Record<string, string> = {};
  layout.fields.forEach((name, i) => {
    fields[name] = values[i] ?? '';
  });
  if (layout.style === 'snpeff') {
    // Allele | Annotation | Annotation_Impact | Gene_Name | Gene_ID | Feature_Type | Feature_ID |
    // Transcript_BioType | Rank | HGVS.c | HGVS.p | cDNA.pos/len | CDS.pos/len | AA.pos/len | Distance | Errors
    const v = (i: number): string | null => nonEmpty(values[i]);
    const impact = values[2] ?? '';
    const rank = v(8);
    const consequences = (values[1] ?? '').split('&').filter((c) => c !== '');
    const isIntron = consequences.includes('intron_variant');
    return {
      source: 'snpeff',
      allele: values[0] ?? '',
      consequences,
      impact: IMPACTS.has(impact) ? (impact as Impact) : null,
      gene: v(3),
      geneId: v(4),
      transcript: v(6),
      biotype: v(7),
      hgvsC: v(9),
      hgvsP: v(10),
      exon: rank !== null && !isIntron ? rank : null,
      intron: rank !== null && isIntron ? rank : null,
      isManeSelect: false,
      isManePlusClinical: false,
      maneSelectId: null,
      isCanonical: false,
      frequencies: {},
      fields,
    };
  }
  const f = (name: string): string | null => nonEmpty(fields[name]);
  const impact = fields.IMPACT ?? '';
  const frequencies: Record<string, number> = {};
  for (const name of layout.fields) {
    if (!VEP_FREQUENCY_FIELDS.has(name)) continue;
    const raw = fields[name];
    if (raw === undefined || raw === '') continue;
    // VEP may list several values joined by '&' (co-located variants); take the highest.
    let best = -1;
    for (const part of raw.split('&')) {
      const n = Number(part);
      if (part !== '' && Number.isFinite(n) && n >= 0 && n <= 1 && n > best) best = n;
    }
    if (best >= 0) frequencies[name] = best;
  }
  const mane = f('MANE_SELECT') ?? null;
  const maneLegacy = f('MANE');
  return {
    source: 'vep',
    allele: fields.Allele ?? '',
    consequences: (fields.Consequence ?? '').split('&').filter((c) => c !== ''),
    impact: IMPACTS.has(impact) ? (impact as Impact) : null,
    gene: f('SYMBOL'),
    geneId: f('Gene'),
    transcript: f('Feature'),
    biotype: f('BIOTYPE'),
    hgvsC: stripTranscriptPrefix(decodeVep(f('HGVSc'))),
    hgvsP: stripTranscriptPrefix(decodeVep(f('HGVSp'))),
    exon: f('EXON'),
    intron: f('INTRON'),
    isManeSelect: mane !== null || (maneLegacy !== null && maneLegacy.startsWith('NM_')) || maneLegacy === 'MANE_Select',
    isManePlusClinical: f('MANE_PLUS_CLINICAL') !== null || maneLegacy === 'MANE_Plus_Clinical',
    maneSelectId: mane ?? (maneLegacy !== null && maneLegacy.startsWith('NM_') ? maneLegacy : null),
    isCanonical: fields.CANONICAL === 'YES',
    frequencies,
    fields,
  };
}

/**
 * The allele strings VEP writes for each ALT: when every allele (REF and ALTs) shares its first
 * base, that base is removed from all of them and an empty allele becomes '-'.
 */
export function vepAlleleStrings(ref: string, alts: readonly string[]): string[] {
  const first = ref.charAt(0);
  const literal = alts.filter((a) => !a.startsWith('<') && a !== '*');
  const shared = literal.length > 0 && literal.every((a) => a.length > 0 && a.charAt(0) === first) && (ref.length > 1 || literal.some((a) => a.length > 1));
  const allShare = shared && alts.every((a) => a.startsWith('<') || a === '*' || a.charAt(0) === first);
  return alts.map((a) => {
    if (a.startsWith('<') || a === '*') return a;
    if (!allShare) return a;
    const s = a.slice(1);
    return s === '' ? '-' : s;
  });
}
