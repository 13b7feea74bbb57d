/**
 * The genomic half of the KB on disk (directory `genome/` of a KB) and its loader.
 *
 * Files (kbFormat 1), JSON values with integer columns as base64 little-endian Int32/Float32; the
 * large ones are written as KB containers (container.ts: the JSON skeleton and the long strings'
 * raw bytes, `<name>.bin`), which load without JSON.parse scanning the columns; a KB built before
 * the containers has `<name>.json` instead, read the same way (readGenomeKbFile):
 *  - genes                   GeneRecord[] (HGNC + MANE + constraint + AlphaMissense + ClinVar gene counts)
 *  - transcripts.grch38      { source, rows: TranscriptRow[] }   (exons + CDS, 0-based half-open)
 *  - transcripts.grch37      same, GRCh37 (display/igv only; loaded lazily)
 *  - clinvar.grch38          ClinvarFile (native GRCh38 + GRCh37 lifted)
 *  - missense.grch38         MissenseFile (ClinVar pathogenic missense positions, InterVar PS1 table)
 *  - refbases.grch38         reference bases recorded by GRCh38 sources (ClinVar REF, InterVar ref)
 *  - frequency.grch38        optional population AF table from gnomAD sites VCFs
 *  - genespans.json          GeneSpansFile (small, JSON)
 *  - genome.json             { referenceFasta, frequencySource }
 *  - hg19ToHg38.over.chain.gz  copy of the UCSC chain (lifting GRCh37 patient VCFs)
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ClinvarIndex, lowerBound, PathogenicMissenseIndex, type ClinvarFile, type ClinvarReleases, type MissenseFile } from '../clinvar/clinvar.ts';
import { GeneIndex } from '../genes/gene.ts';
import { TranscriptIndex } from '../transcripts/model.ts';
import { encodeKbContainer, readKbContainerFile } from './container.ts';
import { decodeFloat32, decodeInt32, fileExists, packTable, readKbJsonFile, TableView, type PackedTable } from './io.ts';
import { unpackTranscripts, type TranscriptsFile } from './transcripts.build.ts';

export const GENOME_DIR = 'genome';
/** UCSC hg19ToHg38 chain copied into the KB (for lifting GRCh37 input). */
export const CHAIN_FILE = 'hg19ToHg38.over.chain.gz';

export interface RefBasesFile {
  chroms: Record<string, { pos: string; bases: string }>;
}

export interface FrequencyFile {
  source: string;
  /** Chromosomes the table covers: absence elsewhere says nothing. */
  covered: string[];
  chroms: Record<string, { pos: string; ref: string[]; alt: string[]; af: string }>;
}

/** GRCh38 spans (MANE summary, 1-based inclusive) of genes that have no transcript model in the KB. */
export interface GeneSpansFile {
  table: PackedTable;
}

/** One chromosome's spans, sorted by start, with a running maximum of ends and each span's row in the file. */
interface ChromSpans {
  start: Int32Array;
  end: Int32Array;
  maxEnd: Int32Array;
  row: Int32Array;
  symbol: string[];
}

/** Gene spans without transcript models: such variants are attributed to the gene as `gene_variant`. */
export class GeneSpanIndex {
  private readonly byChrom = new Map<string, ChromSpans>();
  readonly size: number;
  constructor(file: GeneSpansFile) {
    const v = new TableView(file.table);
    this.size = v.n;
    if (v.n === 0) return;
    const symbol = v.str('symbol');
    const chrom = v.str('chrom');
    const start = v.i32('start');
    const end = v.i32('end');
    const rows = new Map<string, number[]>();
    for (let i = 0; i < v.n; i++) {
      const list = rows.get(chrom[i]!) ?? [];
      list.push(i);
      rows.set(chrom[i]!, list);
    }
    for (const [c, list] of rows) {
      // Stable: equal starts keep file order.
      list.sort((a, b) => start[a]! - start[b]! || a - b);
      const n = list.length;
      const spans: ChromSpans = { start: new Int32Array(n), end: new Int32Array(n), maxEnd: new Int32Array(n), row: Int32Array.from(list), symbol: list.map((i) => symbol[i]!) };
      let running = -Infinity;
      for (let k = 0; k < n; k++) {
        spans.start[k] = start[list[k]!]!;
        spans.end[k] = end[list[k]!]!;
        running = Math.max(running, spans.end[k]!);
        spans.maxEnd[k] = running;
      }
      this.byChrom.set(c, spans);
    }
  }
  /** Symbols of modelless genes whose span covers the 1-based position, in file order. */
  covering(chrom: string, pos: number): string[] {
    const s = this.byChrom.get(chrom);
    if (s === undefined) return [];
    const hits: number[] = [];
    for (let k = lastStartingBy(s, pos); k >= 0 && s.maxEnd[k]! >= pos; k--) if (s.end[k]! >= pos) hits.push(k);
    return hits.sort((a, b) => s.row[a]! - s.row[b]!).map((k) => s.symbol[k]!);
  }
  /** covering(chrom, pos)[0] without building the list (null when none): the annotator's per-record question. */
  first(chrom: string, pos: number): string | null {
    const s = this.byChrom.get(chrom);
    if (s === undefined) return null;
    let best = -1;
    for (let k = lastStartingBy(s, pos); k >= 0 && s.maxEnd[k]! >= pos; k--) if (s.end[k]! >= pos && (best < 0 || s.row[k]! < s.row[best]!)) best = k;
    return best < 0 ? null : s.symbol[best]!;
  }
}

/** Index of the last span starting at or before pos (-1 when none); spans before it may cover pos while the running end reaches it. */
function lastStartingBy(s: ChromSpans, pos: number): number {
  let lo = 0;
  let hi = s.start.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (s.start[mid]! <= pos) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}

export interface GenomeMeta {
  referenceFasta: string | null;
  frequencySource: string | null;
}

/** Reference bases known from KB sources (sparse), for codon reconstruction without a FASTA. */
export class RefBaseIndex {
  private readonly chroms = new Map<string, { pos: Int32Array; bases: string }>();
  constructor(file: RefBasesFile) {
    for (const [c, v] of Object.entries(file.chroms)) this.chroms.set(c, { pos: decodeInt32(v.pos), bases: v.bases });
  }
  /** Base at 0-based position, or null. */
  base(chrom: string, pos0: number): string | null {
    const e = this.chroms.get(chrom);
    if (!e) return null;
    const i = lowerBound(e.pos, pos0);
    return i < e.pos.length && e.pos[i] === pos0 ? e.bases[i]! : null;
  }
}

/** Allele frequencies from a deployment's gnomAD sites VCF(s). */
export class FrequencyIndex {
  private readonly chroms = new Map<string, { pos: Int32Array; ref: string[]; alt: string[]; af: Float32Array }>();
  readonly covered: ReadonlySet<string>;
  readonly source: string;
  constructor(file: FrequencyFile) {
    this.source = file.source;
    this.covered = new Set(file.covered);
    for (const [c, v] of Object.entries(file.chroms)) this.chroms.set(c, { pos: decodeInt32(v.pos), ref: v.ref, alt: v.alt, af: decodeFloat32(v.af) });
  }
  /** AF of the allele; 0 when the chromosome is covered and the allele is absent; null when not covered. */
  lookup(chrom: string, pos: number, ref: string, alt: string): number | null {
    if (!this.covered.has(chrom)) return null;
    const e = this.chroms.get(chrom);
    if (!e) return 0;
    for (let i = lowerBound(e.pos, pos); i < e.pos.length && e.pos[i] === pos; i++) if (e.ref[i] === ref && e.alt[i] === alt) return e.af[i]!;
    return 0;
  }
}

export interface GenomeKb {
  genes: GeneIndex;
  /** GRCh38 transcript models (exons + CDS), MANE flagged. */
  transcripts: TranscriptIndex;
  clinvar: ClinvarIndex;
  pathogenicMissense: PathogenicMissenseIndex;
  refBases: RefBaseIndex;
  frequencies: FrequencyIndex | null;
  referenceFasta: string | null;
  /** Genes with a MANE span but no transcript model. */
  geneSpans: GeneSpanIndex;
  /** Path of the hg19->hg38 chain inside the KB, or null when the KB was built without one. */
  chainPath: string | null;
  /** GRCh37 models for display (igv); loaded on first call, null when the KB has none. */
  loadTranscriptsGrch37(): Promise<TranscriptIndex | null>;
}

async function readKbJson<T>(dir: string, name: string): Promise<T> {
  return readKbJsonFile<T>(join(dir, name), (e) => `cannot read KB file: ${e.message}; rebuild the KB with 'rarelens kb build'`);
}

/** The genome KB's large files, written as containers (container.ts). */
export const CONTAINER_FILES: ReadonlySet<string> = new Set(['genes', 'transcripts.grch38', 'transcripts.grch37', 'clinvar.grch38', 'missense.grch38', 'refbases.grch38', 'frequency.grch38']);

/** Writes a genome KB file (`name` without extension): a container for the large ones, else JSON. */
export async function writeGenomeKbFile(genomeDir: string, name: string, value: unknown): Promise<void> {
  if (CONTAINER_FILES.has(name)) await writeFile(join(genomeDir, `${name}.bin`), encodeKbContainer(value));
  else await writeFile(join(genomeDir, `${name}.json`), JSON.stringify(value));
}

/** The path of a genome KB file (`name` without extension) as this KB has it: `<name>.bin`, else `<name>.json`; null when neither. */
export async function genomeKbFilePath(genomeDir: string, name: string): Promise<string | null> {
  const bin = join(genomeDir, `${name}.bin`);
  if (await fileExists(bin)) return bin;
  const json = join(genomeDir, `${name}.json`);
  return (await fileExists(json)) ? json : null;
}

/**
 * A genome KB file (`name` without extension): the container `<name>.bin`, or `<name>.json` of a
 * KB built before the containers. Missing or unreadable: a KbSourceError naming the file.
 */
export async function readGenomeKbFile<T>(genomeDir: string, name: string): Promise<T> {
  const path = (await genomeKbFilePath(genomeDir, name)) ?? join(genomeDir, `${name}${CONTAINER_FILES.has(name) ? '.bin' : '.json'}`);
  const problem = (e: NodeJS.ErrnoException) => `cannot read KB file: ${e.message}; rebuild the KB with 'rarelens kb build'`;
  return path.endsWith('.bin') ? readKbContainerFile<T>(path, problem) : readKbJsonFile<T>(path, problem);
}

/**
 * ClinVar releases from the KB manifest, for KBs whose clinvar.grch38.json predates its own
 * `releases` (a missing or unreadable manifest leaves them unknown: shown as such, never guessed).
 */
async function clinvarReleasesFromManifest(kbDir: string): Promise<ClinvarReleases> {
  const path = join(kbDir, 'manifest.json');
  if (!(await fileExists(path))) return {};
  const manifest = await readKbJsonFile<{ sources?: { name?: unknown; version?: unknown }[] }>(path, (e) => `cannot read the KB manifest: ${e.message}`);
  const versionOf = (name: string): string | undefined => {
    const v = manifest.sources?.find((x) => x.name === name)?.version;
    return typeof v === 'string' && v !== 'unknown' ? v : undefined;
  };
  const out: ClinvarReleases = {};
  const v38 = versionOf('clinvar-grch38');
  const v37 = versionOf('clinvar-grch37');
  if (v38) out.grch38 = v38;
  if (v37) out['grch37-lifted'] = v37;
  return out;
}

/** Loads `<kbDir>/genome`. */
export async function loadGenomeKb(kbDir: string): Promise<GenomeKb> {
  const dir = join(kbDir, GENOME_DIR);
  const [genes, tx, clinvar, missense, refbases, meta] = await Promise.all([
    readGenomeKbFile<PackedTable>(dir, 'genes'),
    readGenomeKbFile<TranscriptsFile>(dir, 'transcripts.grch38'),
    readGenomeKbFile<ClinvarFile>(dir, 'clinvar.grch38'),
    readGenomeKbFile<MissenseFile>(dir, 'missense.grch38'),
    readGenomeKbFile<RefBasesFile>(dir, 'refbases.grch38'),
    readKbJson<GenomeMeta>(dir, 'genome.json'),
  ]);
  const spansPath = await genomeKbFilePath(dir, 'genespans');
  const geneSpans = new GeneSpanIndex(spansPath !== null ? await readGenomeKbFile<GeneSpansFile>(dir, 'genespans') : { table: packTable(0, {}) });
  const frequencies = (await genomeKbFilePath(dir, 'frequency.grch38')) !== null ? new FrequencyIndex(await readGenomeKbFile<FrequencyFile>(dir, 'frequency.grch38')) : null;
  let tx37: Promise<TranscriptIndex | null> | null = null;
  return {
    genes: new GeneIndex(genes),
    transcripts: new TranscriptIndex(unpackTranscripts(tx)),
    clinvar: new ClinvarIndex(clinvar, clinvar.releases ? {} : await clinvarReleasesFromManifest(kbDir)),
    pathogenicMissense: new PathogenicMissenseIndex(missense),
    refBases: new RefBaseIndex(refbases),
    frequencies,
    referenceFasta: meta.referenceFasta,
    geneSpans,
    chainPath: (await fileExists(join(dir, CHAIN_FILE))) ? join(dir, CHAIN_FILE) : null,
    loadTranscriptsGrch37() {
      tx37 ??= (async () => {
        if ((await genomeKbFilePath(dir, 'transcripts.grch37')) === null) return null;
        const f = await readGenomeKbFile<TranscriptsFile>(dir, 'transcripts.grch37');
        return new TranscriptIndex(unpackTranscripts(f));
      })();
      return tx37;
    },
  };
}
