/**
 * UCSC chain-file liftover (https://genome.ucsc.edu/goldenPath/help/chain.html).
 *
 * A chain aligns a source ("target" in UCSC terms: the assembly we lift FROM) interval to a
 * destination ("query") interval as ungapped blocks. Chain coordinates are 0-based half-open;
 * query coordinates on a '-' strand chain count from the end of the reverse-complemented contig.
 * We index every ungapped block per source contig, sorted by start, with a running maximum of
 * block ends so overlapping chains (alt/random contigs) are all found by one binary search.
 */

import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { normalizeContig } from '../genome/contigs.ts';

export type Strand = '+' | '-';

export interface LiftedPosition {
  chrom: string;
  /** 1-based position on the destination assembly. */
  pos: number;
  strand: Strand;
}

export interface LiftVariantInput {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
}

export interface LiftedVariant {
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  strand: Strand;
}

export type LiftFailureReason =
  | 'unknown_contig'
  | 'unmapped'
  | 'crosses_chain_gap'
  | 'breakend_not_liftable'
  | 'invalid_position';

export interface LiftFailure {
  failed: LiftFailureReason;
  detail: string;
}

export interface LiftOptions {
  /**
   * What the source 'MT' contig is. GRCh37 proper (b37, '##contig=<ID=MT,length=16569>') uses the
   * rCRS, identical to GRCh38's MT, so positions map 1:1. UCSC hg19 'chrM' (16,571 bp) is a
   * different sequence and is lifted through the chain. Default 'rCRS'.
   */
  mitochondrion?: 'rCRS' | 'hg19';
}

export class ChainParseError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'ChainParseError';
  }
}

interface ChainHeader {
  score: number;
  destChrom: string;
  destSize: number;
  destStrand: Strand;
  id: string;
}

/** All blocks of one source contig, struct-of-arrays for cache-friendly binary search. */
interface ContigIndex {
  srcStart: Float64Array;
  srcEnd: Float64Array;
  /** Destination start of the block, in destination-strand coordinates. */
  destStart: Float64Array;
  chainIdx: Int32Array;
  /** maxEnd[i] = max(srcEnd[0..i]): lets a lookup stop scanning left once no block can reach. */
  maxEnd: Float64Array;
}

interface BlockHit {
  block: number;
  chain: ChainHeader;
}

const COMPLEMENT: Record<string, string> = {
  A: 'T', C: 'G', G: 'C', T: 'A', N: 'N',
  a: 't', c: 'g', g: 'c', t: 'a', n: 'n',
  R: 'Y', Y: 'R', K: 'M', M: 'K', S: 'S', W: 'W', B: 'V', V: 'B', D: 'H', H: 'D',
};

/** Reverse complement of a DNA string (IUPAC-aware; '*' and other symbols kept). */
export function reverseComplement(seq: string): string {
  let out = '';
  for (let i = seq.length - 1; i >= 0; i--) {
    const c = seq.charAt(i);
    out += COMPLEMENT[c] ?? c;
  }
  return out;
}

function isPrimaryName(name: string): boolean {
  return !name.includes('_');
}

export class LiftoverChain {
  private readonly chains: ChainHeader[];
  private readonly index: Map<string, ContigIndex>;
  /** Source contig sizes by canonical name. */
  readonly sourceSizes: ReadonlyMap<string, number>;

  constructor(
    readonly source: string,
    chains: ChainHeader[],
    index: Map<string, ContigIndex>,
    sourceSizes: Map<string, number>,
  ) {
    this.chains = chains;
    this.index = index;
    this.sourceSizes = sourceSizes;
  }

  /** Number of chains and ungapped blocks (for logs and tests). */
  get stats(): { chains: number; blocks: number; contigs: number } {
    let blocks = 0;
    for (const idx of this.index.values()) blocks += idx.srcStart.length;
    return { chains: this.chains.length, blocks, contigs: this.index.size };
  }

  /**
   * The block covering 0-based source position `p`: among overlapping chains, a block on a
   * primary destination contig wins over alt/random/Un ones, then the higher chain score.
   */
  private findBlock(idx: ContigIndex, p: number): BlockHit | null {
    const { srcStart, srcEnd, maxEnd, chainIdx } = idx;
    let lo = 0;
    let hi = srcStart.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (srcStart[mid]! <= p) {
        last = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    let best: BlockHit | null = null;
    for (let i = last; i >= 0 && maxEnd[i]! > p; i--) {
      if (srcEnd[i]! <= p) continue;
      const chain = this.chains[chainIdx[i]!]!;
      if (best === null || this.isBetter(chain, best.chain)) best = { block: i, chain };
    }
    return best;
  }

  private isBetter(a: ChainHeader, b: ChainHeader): boolean {
    const ap = isPrimaryName(a.destChrom);
    const bp = isPrimaryName(b.destChrom);
    if (ap !== bp) return ap;
    return a.score > b.score;
  }

  private mapInBlock(idx: ContigIndex, hit: BlockHit, p: number): number {
    // Destination-strand coordinate of p; converted to forward strand for '-' chains.
    const q = idx.destStart[hit.block]! + (p - idx.srcStart[hit.block]!);
    return hit.chain.destStrand === '+' ? q : hit.chain.destSize - 1 - q;
  }

  private isIdentityMt(chrom: string, opts: LiftOptions | undefined): boolean {
    return chrom === 'MT' && (opts?.mitochondrion ?? 'rCRS') === 'rCRS';
  }

  /** Lift one 1-based position; null when it is not covered by any chain block. */
  liftPosition(chrom: string, pos1: number, opts?: LiftOptions): LiftedPosition | null {
    const name = normalizeContig(chrom);
    if (!Number.isInteger(pos1) || pos1 < 1) return null;
    if (this.isIdentityMt(name, opts)) return { chrom: 'MT', pos: pos1, strand: '+' };
    const idx = this.index.get(name);
    if (idx === undefined) return null;
    const p = pos1 - 1;
    const hit = this.findBlock(idx, p);
    if (hit === null) return null;
    return { chrom: hit.chain.destChrom, pos: this.mapInBlock(idx, hit, p) + 1, strand: hit.chain.destStrand };
  }

  /**
   * Lift a VCF-style variant. The whole REF span must lie in one ungapped block (a span that
   * crosses a chain gap has no faithful image and fails). On a '-' chain the alleles are
   * reverse-complemented and POS becomes the forward-strand start of the span; an indel's
   * anchor base then sits on the right (a valid, equivalent record; left-align it with a
   * reference FASTA via the normalize module when one is configured).
   */
  liftVariant(v: LiftVariantInput, opts?: LiftOptions): LiftedVariant | LiftFailure {
    const name = normalizeContig(v.chrom);
    if (!Number.isInteger(v.pos) || v.pos < 1) {
      return { failed: 'invalid_position', detail: `POS ${v.pos} is not a positive integer` };
    }
    if (v.alt.includes('[') || v.alt.includes(']')) {
      return { failed: 'breakend_not_liftable', detail: `breakend ALT ${v.alt} names a mate position` };
    }
    if (this.isIdentityMt(name, opts)) {
      return { chrom: 'MT', pos: v.pos, ref: v.ref, alt: v.alt, strand: '+' };
    }
    const idx = this.index.get(name);
    if (idx === undefined) {
      return { failed: 'unknown_contig', detail: `contig ${v.chrom} is not in the chain file` };
    }
    const start = v.pos - 1;
    const span = Math.max(1, v.ref.length);
    const end = start + span; // exclusive
    const hit = this.findBlock(idx, start);
    if (hit === null) {
      return { failed: 'unmapped', detail: `${name}:${v.pos} is not covered by the chain (deleted or unaligned in the destination)` };
    }
    const blockEnd = idx.srcEnd[hit.block]!;
    if (end > blockEnd) {
      return {
        failed: 'crosses_chain_gap',
        detail: `${name}:${v.pos}-${v.pos + span - 1} crosses a chain gap at ${name}:${blockEnd + 1}`,
      };
    }
    const chain = hit.chain;
    if (chain.destStrand === '+') {
      const q = this.mapInBlock(idx, hit, start);
      return { chrom: chain.destChrom, pos: q + 1, ref: v.ref, alt: v.alt, strand: '+' };
    }
    // '-' chain: the last base of the span becomes the first on the forward strand.
    const qFirst = this.mapInBlock(idx, hit, end - 1);
    const isSymbolic = v.alt.startsWith('<') || v.alt === '*' || v.alt === '.';
    return {
      chrom: chain.destChrom,
      pos: qFirst + 1,
      ref: reverseComplement(v.ref),
      alt: isSymbolic ? v.alt : reverseComplement(v.alt),
      strand: '-',
    };
  }
}

function parseIntField(s: string | undefined, file: string, line: number, field: string): number {
  const n = s === undefined ? NaN : Number(s);
  if (!Number.isInteger(n) || n < 0) throw new ChainParseError(file, line, `${field} is not a non-negative integer: ${s ?? '(missing)'}`);
  return n;
}

/** Parse chain-file text into an index. `file` names the source in error messages. */
export function parseChain(text: string, file = '<chain>'): LiftoverChain {
  const chains: ChainHeader[] = [];
  const srcSizes = new Map<string, number>();
  // Per source contig: flat arrays of block data, packed later.
  const blocks = new Map<string, { s: number[]; e: number[]; d: number[]; c: number[] }>();
  let current: { contig: string; chainIdx: number; t: number; q: number; tEnd: number; qEnd: number; headerLine: number } | null = null;
  let lineNo = 0;
  let pos = 0;
  const len = text.length;
  while (pos < len) {
    let nl = text.indexOf('\n', pos);
    if (nl === -1) nl = len;
    let line = text.slice(pos, nl);
    pos = nl + 1;
    lineNo++;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.length === 0) {
      if (current !== null) throw new ChainParseError(file, lineNo, 'blank line inside a chain (missing final block line)');
      continue;
    }
    if (line.startsWith('#')) continue;
    if (line.startsWith('chain')) {
      if (current !== null) throw new ChainParseError(file, lineNo, 'new chain before the previous one ended');
      const f = line.split(/\s+/);
      if (f.length < 12) throw new ChainParseError(file, lineNo, `chain header has ${f.length} fields, expected 12 or 13`);
      const score = Number(f[1]);
      const tName = f[2]!;
      const tSize = parseIntField(f[3], file, lineNo, 'tSize');
      const tStrand = f[4];
      const tStart = parseIntField(f[5], file, lineNo, 'tStart');
      const tEnd = parseIntField(f[6], file, lineNo, 'tEnd');
      const qName = f[7]!;
      const qSize = parseIntField(f[8], file, lineNo, 'qSize');
      const qStrand = f[9];
      const qStart = parseIntField(f[10], file, lineNo, 'qStart');
      const qEnd = parseIntField(f[11], file, lineNo, 'qEnd');
      if (tStrand !== '+') throw new ChainParseError(file, lineNo, `tStrand must be '+', got ${tStrand}`);
      if (qStrand !== '+' && qStrand !== '-') throw new ChainParseError(file, lineNo, `qStrand must be '+' or '-', got ${qStrand}`);
      if (!Number.isFinite(score)) throw new ChainParseError(file, lineNo, `score is not a number: ${f[1]}`);
      const contig = normalizeContig(tName);
      srcSizes.set(contig, tSize);
      chains.push({ score, destChrom: normalizeContig(qName), destSize: qSize, destStrand: qStrand, id: f[12] ?? String(chains.length) });
      current = { contig, chainIdx: chains.length - 1, t: tStart, q: qStart, tEnd, qEnd, headerLine: lineNo };
      continue;
    }
    if (current === null) throw new ChainParseError(file, lineNo, `expected a 'chain' header line, got: ${line.slice(0, 40)}`);
    const f = line.split(/\s+/);
    const size = parseIntField(f[0], file, lineNo, 'block size');
    let b = blocks.get(current.contig);
    if (b === undefined) {
      b = { s: [], e: [], d: [], c: [] };
      blocks.set(current.contig, b);
    }
    if (size > 0) {
      b.s.push(current.t);
      b.e.push(current.t + size);
      b.d.push(current.q);
      b.c.push(current.chainIdx);
    }
    current.t += size;
    current.q += size;
    if (f.length >= 3 && f[1] !== '') {
      current.t += parseIntField(f[1], file, lineNo, 'dt');
      current.q += parseIntField(f[2], file, lineNo, 'dq');
    } else {
      if (current.t !== current.tEnd || current.q !== current.qEnd) {
        throw new ChainParseError(
          file,
          lineNo,
          `chain from line ${current.headerLine} ends at ${current.t}/${current.q}, header says ${current.tEnd}/${current.qEnd}`,
        );
      }
      current = null;
    }
  }
  if (current !== null) throw new ChainParseError(file, lineNo, 'file ends inside a chain (truncated?)');

  const index = new Map<string, ContigIndex>();
  for (const [contig, b] of blocks) {
    const n = b.s.length;
    const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => b.s[x]! - b.s[y]!);
    const idx: ContigIndex = {
      srcStart: new Float64Array(n),
      srcEnd: new Float64Array(n),
      destStart: new Float64Array(n),
      chainIdx: new Int32Array(n),
      maxEnd: new Float64Array(n),
    };
    let runMax = 0;
    order.forEach((o, i) => {
      idx.srcStart[i] = b.s[o]!;
      idx.srcEnd[i] = b.e[o]!;
      idx.destStart[i] = b.d[o]!;
      idx.chainIdx[i] = b.c[o]!;
      runMax = Math.max(runMax, b.e[o]!);
      idx.maxEnd[i] = runMax;
    });
    index.set(contig, idx);
  }
  return new LiftoverChain(file, chains, index, srcSizes);
}

/** Load a UCSC chain file, gzip-compressed (any number of members) or plain. */
export async function loadChain(path: string): Promise<LiftoverChain> {
  const raw = await readFile(path);
  let text: string;
  if (raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b) {
    try {
      text = gunzipSync(raw).toString('latin1');
    } catch (err) {
      throw new ChainParseError(path, 0, `gzip data is corrupt or truncated (${(err as Error).message})`);
    }
  } else {
    text = raw.toString('latin1');
  }
  return parseChain(text, path);
}
