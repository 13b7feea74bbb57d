/**
 * Transcript models for the KB from UCSC BED12 (RefSeq refGene), GTF (GENCODE/MANE) or GFF3.
 * Output rows are 0-based half-open with the CDS including the stop codon (UCSC convention;
 * GTF/GFF3 CDS features exclude the stop codon, so `stop_codon` features are merged in).
 */
import type { GeneRecord } from '../genes/gene.ts';
import { toTranscriptColumns, type ManeStatus, type Transcript, type TranscriptRowColumns } from '../transcripts/model.ts';
import { normalizeKbContig } from './contig.ts';
import type { GeneBuildState } from './genes.build.ts';
import { packTable, parseIntField, readSourceLines, splitTsv, TableView, type PackedTable } from './io.ts';
import type { ResolvedSource } from './sources.ts';
import { KbSourceError } from './types.ts';

const stripVersion = (id: string): string => id.replace(/\.\d+$/, '');

export interface TranscriptBuildResult {
  transcripts: Transcript[];
  records: number;
  skipped: number;
  notes: string[];
}

/** Assigns a gene to an accession: HGNC/MANE accession map, else the same-strand MANE gene span covering most of it. */
function makeGeneAssigner(state: GeneBuildState, useSpans: boolean): (acc: string, chrom: string, strand: 1 | -1, start: number, end: number) => GeneRecord | null {
  const spans = new Map<string, GeneRecord[]>();
  if (useSpans) {
    for (const g of state.genes) {
      if (!g.span38) continue;
      const list = spans.get(g.span38.chrom);
      if (list) list.push(g);
      else spans.set(g.span38.chrom, [g]);
    }
  }
  return (acc, chrom, strand, start, end) => {
    const direct = state.accessionToGene.get(stripVersion(acc));
    if (direct) return direct;
    if (!useSpans) return null;
    let best: GeneRecord | null = null;
    let bestOverlap = 0;
    for (const g of spans.get(chrom) ?? []) {
      const s = g.span38!;
      if ((s.strand === '+' ? 1 : -1) !== strand) continue;
      const ov = Math.min(end, s.end) - Math.max(start, s.start - 1);
      if (ov > bestOverlap) {
        bestOverlap = ov;
        best = g;
      }
    }
    // Require the gene span to cover at least half of the transcript.
    return best && bestOverlap * 2 >= end - start ? best : null;
  };
}

/** UCSC BED12 (refGene as BED): unversioned RefSeq accessions, thickStart/thickEnd = CDS. */
export async function readBed12(src: ResolvedSource, state: GeneBuildState, assembly: 'GRCh38' | 'GRCh37', signal?: AbortSignal): Promise<TranscriptBuildResult> {
  const assign = makeGeneAssigner(state, assembly === 'GRCh38');
  const transcripts: Transcript[] = [];
  let records = 0;
  let skippedContig = 0;
  let skippedNoGene = 0;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line === '' || line.startsWith('#') || line.startsWith('track') || line.startsWith('browser')) continue;
    const c = splitTsv(line, 12, src.rel, n);
    records++;
    const chrom = normalizeKbContig(c[0]!);
    if (!chrom) {
      skippedContig++;
      continue;
    }
    const start = parseIntField(c[1], 'chromStart', src.rel, n);
    const end = parseIntField(c[2], 'chromEnd', src.rel, n);
    const id = c[3]!;
    const strandStr = c[5];
    if (strandStr !== '+' && strandStr !== '-') throw new KbSourceError(src.rel, `field strand: expected '+' or '-', got '${strandStr ?? ''}'`, n);
    const strand = strandStr === '+' ? 1 : -1;
    let cdsStart = parseIntField(c[6], 'thickStart', src.rel, n);
    let cdsEnd = parseIntField(c[7], 'thickEnd', src.rel, n);
    if (cdsEnd <= cdsStart) cdsStart = cdsEnd = end;
    const count = parseIntField(c[9], 'blockCount', src.rel, n);
    const sizes = c[10]!.split(',').filter(Boolean);
    const rel = c[11]!.split(',').filter(Boolean);
    if (sizes.length !== count || rel.length !== count) throw new KbSourceError(src.rel, `blockSizes/blockStarts do not have blockCount=${count} entries`, n);
    const exonStarts = new Int32Array(count);
    const exonEnds = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      exonStarts[i] = start + parseIntField(rel[i], 'blockStarts', src.rel, n);
      exonEnds[i] = exonStarts[i]! + parseIntField(sizes[i], 'blockSizes', src.rel, n);
      if (i > 0 && exonStarts[i]! < exonEnds[i - 1]!) throw new KbSourceError(src.rel, 'blocks overlap or are not ascending', n);
    }
    if (end < start || exonEnds[count - 1] !== end || exonStarts[0] !== start) throw new KbSourceError(src.rel, 'blocks do not span chromStart..chromEnd', n);
    if (cdsStart < start || cdsEnd > end) throw new KbSourceError(src.rel, 'thickStart/thickEnd outside the transcript', n);
    const gene = assign(id, chrom, strand, start, end);
    if (!gene) {
      skippedNoGene++;
      continue;
    }
    const mane: ManeStatus = state.maneStatus.get(stripVersion(id)) ?? null;
    transcripts.push({ id, gene: gene.symbol, hgncId: gene.hgncId, chrom, strand, start, end, cdsStart, cdsEnd, exonStarts, exonEnds, mane });
  }
  return {
    transcripts,
    records,
    skipped: skippedContig + skippedNoGene,
    notes: [`${skippedContig} rows on alt/fix/unplaced contigs skipped`, `${skippedNoGene} rows with no HGNC gene (accession not in HGNC/MANE${assembly === 'GRCh38' ? ' and not inside a same-strand MANE gene span' : ''}) skipped`],
  };
}

interface TxAcc {
  id: string;
  gene: string;
  chrom: string;
  strand: 1 | -1;
  exons: number[];
  cdsMin: number;
  cdsMax: number;
  mane: ManeStatus;
}

function parseAttributes(field: string, gff3: boolean): Map<string, string> {
  const out = new Map<string, string>();
  if (gff3) {
    for (const kv of field.split(';')) {
      const i = kv.indexOf('=');
      if (i > 0) out.set(kv.slice(0, i).trim(), decodeURIComponent(kv.slice(i + 1).trim()));
    }
  } else {
    const re = /\s*([^\s;]+)\s+(?:"([^"]*)"|([^;\s]+))\s*;?/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(field))) {
      const key = m[1]!;
      const val = m[2] ?? m[3] ?? '';
      // GTF repeats `tag` keys; keep them all comma-joined.
      out.set(key, out.has(key) ? `${out.get(key)!},${val}` : val);
    }
  }
  return out;
}

/** GTF or GFF3 (GENCODE, MANE, RefSeq): exon, CDS and stop_codon features grouped by transcript. */
export async function readGtfOrGff(src: ResolvedSource, state: GeneBuildState, signal?: AbortSignal, onProgress?: (n: number) => void): Promise<TranscriptBuildResult> {
  const gff3 = /\.gff3?(\.gz)?$/.test(src.path);
  const byTx = new Map<string, TxAcc>();
  let records = 0;
  let skippedContig = 0;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line === '' || line.startsWith('#')) continue;
    const c = splitTsv(line, 9, src.rel, n);
    const type = c[2]!;
    if (type !== 'exon' && type !== 'CDS' && type !== 'stop_codon') continue;
    records++;
    if (onProgress && records % 200_000 === 0) onProgress(records);
    const chrom = normalizeKbContig(c[0]!);
    if (!chrom) {
      skippedContig++;
      continue;
    }
    const start = parseIntField(c[3], 'start', src.rel, n) - 1;
    const end = parseIntField(c[4], 'end', src.rel, n);
    const strandStr = c[6];
    if (strandStr !== '+' && strandStr !== '-') throw new KbSourceError(src.rel, `field strand: expected '+' or '-', got '${strandStr ?? ''}'`, n);
    const a = parseAttributes(c[8]!, gff3);
    const txId = a.get('transcript_id') ?? a.get('Parent')?.replace(/^(transcript:|rna-)/, '');
    if (!txId) throw new KbSourceError(src.rel, `${type} feature without transcript_id/Parent`, n);
    let t = byTx.get(txId);
    if (!t) {
      const tags = `${a.get('tag') ?? ''},${a.get('Note') ?? ''}`;
      const mane: ManeStatus = /MANE_Select|MANE Select/.test(tags) ? 'select' : /MANE_Plus_Clinical|MANE Plus Clinical/.test(tags) ? 'plus_clinical' : (state.maneStatus.get(stripVersion(txId)) ?? null);
      t = { id: txId, gene: a.get('gene_name') ?? a.get('gene') ?? '', chrom, strand: strandStr === '+' ? 1 : -1, exons: [], cdsMin: Infinity, cdsMax: -Infinity, mane };
      byTx.set(txId, t);
    }
    if (type === 'exon') t.exons.push(start, end);
    else {
      t.cdsMin = Math.min(t.cdsMin, start);
      t.cdsMax = Math.max(t.cdsMax, end);
    }
  }
  const transcripts: Transcript[] = [];
  let skippedNoGene = 0;
  for (const t of byTx.values()) {
    const gene = state.bySymbol.get(t.gene) ?? state.accessionToGene.get(stripVersion(t.id));
    if (!gene || t.exons.length === 0) {
      skippedNoGene++;
      continue;
    }
    const pairs: [number, number][] = [];
    for (let i = 0; i < t.exons.length; i += 2) pairs.push([t.exons[i]!, t.exons[i + 1]!]);
    pairs.sort((x, y) => x[0] - y[0]);
    const exonStarts = Int32Array.from(pairs.map((p) => p[0]));
    const exonEnds = Int32Array.from(pairs.map((p) => p[1]));
    const start = exonStarts[0]!;
    const end = exonEnds[exonEnds.length - 1]!;
    const coding = Number.isFinite(t.cdsMin);
    transcripts.push({
      id: t.id,
      gene: gene.symbol,
      hgncId: gene.hgncId,
      chrom: t.chrom,
      strand: t.strand,
      start,
      end,
      cdsStart: coding ? t.cdsMin : end,
      cdsEnd: coding ? t.cdsMax : end,
      exonStarts,
      exonEnds,
      mane: t.mane,
    });
  }
  return {
    transcripts,
    records,
    skipped: skippedContig + skippedNoGene,
    notes: [`${skippedContig} features on alt/fix/unplaced contigs skipped`, `${skippedNoGene} transcripts without an HGNC gene skipped`],
  };
}

export interface TranscriptsFile {
  source: string;
  tx: PackedTable;
  exons: PackedTable;
}

/** Transcripts -> packed KB file (sorted by chrom, start). */
export function packTranscripts(source: string, list: Transcript[]): TranscriptsFile {
  const c = toTranscriptColumns(list);
  const n = c.id.length;
  return {
    source,
    tx: packTable(n, {
      str: { id: c.id, gene: c.gene, hgncId: c.hgncId, chrom: c.chrom },
      i32: { strand: c.strand, start: c.start, end: c.end, cdsStart: c.cdsStart, cdsEnd: c.cdsEnd, mane: c.mane, exonOffset: c.exonOffset, exonCount: c.exonCount },
    }),
    exons: packTable(c.exonStarts.length, { i32: { start: c.exonStarts, end: c.exonEnds } }),
  };
}

/** The KB's transcript file as columns; the string columns read by row (StrColumn: ~230k strings fewer to keep and mark). */
export function unpackTranscripts(f: TranscriptsFile): TranscriptRowColumns {
  const t = new TableView(f.tx);
  const e = new TableView(f.exons);
  return {
    id: t.strColumn('id'),
    gene: t.strColumn('gene'),
    hgncId: t.strColumn('hgncId'),
    chrom: t.strColumn('chrom'),
    strand: t.i32('strand'),
    start: t.i32('start'),
    end: t.i32('end'),
    cdsStart: t.i32('cdsStart'),
    cdsEnd: t.i32('cdsEnd'),
    mane: t.i32('mane'),
    exonOffset: t.i32('exonOffset'),
    exonCount: t.i32('exonCount'),
    exonStarts: e.i32('start'),
    exonEnds: e.i32('end'),
  };
}
