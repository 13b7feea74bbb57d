/**
 * Which files in RARELENS_SOURCES feed which genomic KB step. Paths are matched relative to the
 * sources directory (searched up to 3 levels deep); the first pattern that matches wins, and among
 * several files matching the same pattern the last in name order (newest release) is used.
 *
 * Recognised names (see docs/kb-sources.md for the table):
 *  - hgnc (required): hgnc_complete_set*.txt[.gz]
 *  - mane-summary: MANE.GRCh38.v*.summary.txt[.gz]
 *  - transcripts-grch38 (required): MANE.GRCh38.v*.{gtf,gff,gff3}[.gz], gencode.v*.annotation.{gtf,gff3}[.gz],
 *    *GRCh38*.{gtf,gff3}[.gz], hg38*.bed12[.gz] / *hg38*RefSeq*.bed[.gz]
 *  - transcripts-grch37: *GRCh37* or *hg19*.{gtf,gff3}[.gz], hg19*.bed12[.gz]
 *  - clinvar-grch38: clinvar*GRCh38*.vcf[.gz], vcf_GRCh38/clinvar*.vcf.gz
 *  - clinvar-grch37: clinvar*{b37,GRCh37,hg19}*.vcf[.gz], vcf_GRCh37/clinvar*.vcf.gz (lifted to GRCh38)
 *  - chain-hg19-hg38: hg19ToHg38.over.chain[.gz]
 *  - intervar-ps1: *PS1.AA.change.patho.hg38*
 *  - clinvar-gene-summary: *gene_specific_summary*.txt[.gz]
 *  - gnomad-constraint-v4: gnomad.v4*constraint*.{csv,tsv}[.gz]
 *  - gnomad-constraint-v2: gnomad.v2*{constraint,lof_metrics}*.{tsv,txt}[.gz,.bgz]
 *  - alphamissense-genes: AlphaMissense_gene_hg38.tsv[.gz]
 *  - mondo-omim / mondo-orphanet: mondo_hasdbxref_{omim,orphanet}.sssom.tsv[.gz]
 *  - gnomad-sites (several allowed, e.g. one per chromosome): gnomad*sites*.vcf[.gz,.bgz] on GRCh38
 *  - reference-fasta: *{GRCh38,hg38}*.{fa,fasta,fna} with a .fai index beside it
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

export interface ResolvedSource {
  name: string;
  path: string;
  /** Path relative to the sources directory (as recorded in the manifest). */
  rel: string;
}

export interface SourceSpec {
  name: string;
  required: boolean;
  multiple?: boolean;
  patterns: RegExp[];
  what: string;
}

export const GENOMIC_SOURCES: SourceSpec[] = [
  { name: 'hgnc', required: true, patterns: [/(^|\/)hgnc_complete_set[^/]*\.txt(\.gz)?$/], what: 'HGNC complete set' },
  { name: 'mane-summary', required: false, patterns: [/(^|\/)MANE\.GRCh38\.v[\d.]+\.summary\.txt(\.gz)?$/], what: 'MANE summary' },
  {
    name: 'transcripts-grch38',
    required: true,
    patterns: [
      /(^|\/)MANE\.GRCh38\.v[\d.]+[^/]*\.(gtf|gff3?)(\.gz)?$/,
      /(^|\/)gencode\.v\d+[^/]*\.annotation\.(gtf|gff3)(\.gz)?$/,
      /(^|\/)[^/]*GRCh38[^/]*\.(gtf|gff3)(\.gz)?$/,
      /(^|\/)hg38[^/]*\.bed12(\.gz)?$/,
      /(^|\/)[^/]*hg38[^/]*RefSeq[^/]*\.bed(\.gz)?$/,
    ],
    what: 'GRCh38 transcript models (exons + CDS)',
  },
  {
    name: 'transcripts-grch37',
    required: false,
    patterns: [/(^|\/)[^/]*(GRCh37|hg19)[^/]*\.(gtf|gff3)(\.gz)?$/, /(^|\/)hg19[^/]*\.bed12(\.gz)?$/],
    what: 'GRCh37 transcript models (display only)',
  },
  {
    name: 'clinvar-grch38',
    required: false,
    patterns: [/(^|\/)clinvar[^/]*GRCh38[^/]*\.vcf(\.gz)?$/i, /(^|\/)vcf_GRCh38\/clinvar[^/]*\.vcf(\.gz)?$/],
    what: 'ClinVar VCF on GRCh38',
  },
  {
    name: 'clinvar-grch37',
    required: false,
    patterns: [/(^|\/)clinvar[^/]*(b37|GRCh37|hg19)[^/]*\.vcf(\.gz)?$/i, /(^|\/)vcf_GRCh37\/clinvar[^/]*\.vcf(\.gz)?$/],
    what: 'ClinVar VCF on GRCh37 (lifted to GRCh38)',
  },
  { name: 'chain-hg19-hg38', required: false, patterns: [/(^|\/)hg19ToHg38\.over\.chain(\.gz)?$/], what: 'UCSC hg19->hg38 liftOver chain' },
  { name: 'intervar-ps1', required: false, patterns: [/(^|\/)[^/]*PS1\.AA\.change\.patho\.hg38[^/]*$/], what: 'InterVar PS1 pathogenic missense table' },
  { name: 'clinvar-gene-summary', required: false, patterns: [/(^|\/)[^/]*gene_specific_summary[^/]*\.txt(\.gz)?$/], what: 'ClinVar gene_specific_summary' },
  { name: 'gnomad-constraint-v4', required: false, patterns: [/(^|\/)gnomad\.v4[^/]*constraint[^/]*\.(csv|tsv)(\.gz)?$/], what: 'gnomAD v4 constraint' },
  { name: 'gnomad-constraint-v2', required: false, patterns: [/(^|\/)gnomad\.v2[^/]*(constraint|lof_metrics)[^/]*\.(tsv|txt)(\.b?gz)?$/], what: 'gnomAD v2.1.1 constraint' },
  { name: 'alphamissense-genes', required: false, patterns: [/(^|\/)AlphaMissense_gene_hg38\.tsv(\.gz)?$/], what: 'AlphaMissense gene means (CC BY-NC-SA 4.0)' },
  { name: 'mondo-omim', required: false, patterns: [/(^|\/)mondo_hasdbxref_omim\.sssom\.tsv(\.gz)?$/], what: 'Mondo<->OMIM names' },
  { name: 'mondo-orphanet', required: false, patterns: [/(^|\/)mondo_hasdbxref_orphanet\.sssom\.tsv(\.gz)?$/], what: 'Mondo<->Orphanet names' },
  { name: 'gnomad-sites', required: false, multiple: true, patterns: [/(^|\/)gnomad[^/]*sites[^/]*\.vcf(\.b?gz)?$/i], what: 'gnomAD sites VCF(s) with AF (GRCh38)' },
  { name: 'reference-fasta', required: false, patterns: [/(^|\/)[^/]*(GRCh38|hg38)[^/]*\.(fa|fasta|fna)$/i], what: 'GRCh38 reference FASTA (+ .fai)' },
];

/** Lists files under dir (relative paths), up to `depth` directory levels. */
export async function listSourceFiles(dir: string, depth = 3): Promise<string[]> {
  const out: string[] = [];
  async function walk(d: string, level: number): Promise<void> {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      // Follow symlinks (deployments often link release files into the sources directory).
      const st = e.isSymbolicLink() ? await stat(p).catch(() => null) : e;
      if (!st) continue;
      if (st.isDirectory() && level < depth && !e.name.startsWith('.')) await walk(p, level + 1);
      else if (st.isFile()) out.push(relative(dir, p).split('\\').join('/'));
    }
  }
  await walk(dir, 0);
  return out.sort();
}

/** Resolves one spec against the file list; [] when nothing matches. */
export function resolveSource(spec: SourceSpec, files: string[], dir: string): ResolvedSource[] {
  for (const re of spec.patterns) {
    const hits = files.filter((f) => re.test(f) && !f.endsWith('.tbi') && !f.endsWith('.csi') && !f.endsWith('.fai'));
    if (hits.length) {
      const chosen = spec.multiple ? hits : [hits[hits.length - 1]!];
      return chosen.map((rel) => ({ name: spec.name, path: join(dir, rel), rel }));
    }
  }
  return [];
}
