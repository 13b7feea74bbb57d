/**
 * Random access to a reference FASTA through its samtools .fai index (name, length, offset,
 * bases per line, bytes per line). Sequence is returned upper-cased (soft-masking dropped).
 * Coordinates are 0-based half-open. Contigs are looked up by canonical name, so 'chr1', '1'
 * and 'NC_000001.11' all find the same sequence. Plain (uncompressed) FASTA only; a missing
 * .fai is built by one scan of the file.
 */

import { open, readFile, type FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { normalizeContig } from './contigs.ts';

export interface FaiEntry {
  name: string;
  length: number;
  offset: number;
  lineBases: number;
  lineBytes: number;
}

export class FastaError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'FastaError';
  }
}

/** Sequence source used by normalisation; implemented by IndexedFasta and by in-memory fixtures. */
export interface SequenceSource {
  /** Length of a contig, or null when the source does not have it. */
  contigLength(chrom: string): number | null;
  /** Upper-case bases of [start0, end0), clipped to the contig. Throws on unknown contigs. */
  getSequence(chrom: string, start0: number, end0: number): Promise<string>;
}

export function parseFai(text: string, file: string): FaiEntry[] {
  const out: FaiEntry[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') return;
    const f = line.split('\t');
    const nums = f.slice(1, 5).map(Number);
    if (f.length < 5 || nums.some((n) => !Number.isInteger(n) || n < 0) || nums[2] === 0) {
      throw new FastaError(file, `line ${i + 1}: malformed .fai entry (expected name, length, offset, linebases, linewidth)`);
    }
    out.push({ name: f[0]!, length: nums[0]!, offset: nums[1]!, lineBases: nums[2]!, lineBytes: nums[3]! });
  });
  return out;
}

/** Build .fai entries by scanning a FASTA (each record's lines must share one width). */
export async function buildFai(path: string): Promise<FaiEntry[]> {
  const entries: FaiEntry[] = [];
  let current: FaiEntry | null = null;
  let offset = 0;
  let lineNo = 0;
  let shortLineSeen = false;
  let rest = '';
  const finishLine = (line: string, bytes: number): void => {
    lineNo++;
    if (line.startsWith('>')) {
      const name = line.slice(1).trim().split(/\s+/)[0] ?? '';
      if (name === '') throw new FastaError(path, `line ${lineNo}: empty sequence name`);
      current = { name, length: 0, offset: offset + bytes, lineBases: 0, lineBytes: 0 };
      entries.push(current);
      shortLineSeen = false;
    } else if (current !== null) {
      const c: FaiEntry = current;
      const bases = line.endsWith('\r') ? line.length - 1 : line.length;
      if (bases > 0) {
        if (c.lineBases === 0) {
          c.lineBases = bases;
          c.lineBytes = bytes;
        } else if (shortLineSeen || bases > c.lineBases) {
          throw new FastaError(path, `line ${lineNo}: inconsistent line length in ${c.name}; cannot index`);
        } else if (bases < c.lineBases) {
          shortLineSeen = true;
        }
        c.length += bases;
      }
    } else if (line.trim() !== '') {
      throw new FastaError(path, `line ${lineNo}: sequence before the first '>' header; not a FASTA file`);
    }
    offset += bytes;
  };
  for await (const chunk of createReadStream(path, { encoding: 'latin1', highWaterMark: 1 << 20 })) {
    const text = rest + (chunk as string);
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      finishLine(text.slice(start, nl), nl - start + 1);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    rest = text.slice(start);
  }
  if (rest.length > 0) finishLine(rest, rest.length);
  if (entries.length === 0) throw new FastaError(path, 'no sequences found; not a FASTA file');
  return entries;
}

const BLOCK = 1 << 16;
const CACHE_BLOCKS = 32;

export class IndexedFasta implements SequenceSource {
  private readonly byName = new Map<string, FaiEntry>();
  private readonly cache = new Map<string, string>();

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    readonly entries: readonly FaiEntry[],
  ) {
    for (const e of entries) {
      this.byName.set(e.name, e);
      const canonical = normalizeContig(e.name);
      if (!this.byName.has(canonical)) this.byName.set(canonical, e);
    }
  }

  private entry(chrom: string): FaiEntry | undefined {
    return this.byName.get(chrom) ?? this.byName.get(normalizeContig(chrom));
  }

  contigLength(chrom: string): number | null {
    return this.entry(chrom)?.length ?? null;
  }

  private async readBlock(e: FaiEntry, block: number): Promise<string> {
    const key = `${e.name}:${block}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const start = block * BLOCK;
    const end = Math.min(e.length, start + BLOCK);
    const byteStart = e.offset + Math.floor(start / e.lineBases) * e.lineBytes + (start % e.lineBases);
    const byteEnd = e.offset + Math.floor((end - 1) / e.lineBases) * e.lineBytes + ((end - 1) % e.lineBases) + 1;
    const buf = Buffer.alloc(byteEnd - byteStart);
    const { bytesRead } = await this.handle.read(buf, 0, buf.length, byteStart);
    if (bytesRead < buf.length) throw new FastaError(this.path, `${e.name}: file shorter than its .fai says (truncated?)`);
    let seq = '';
    const text = buf.toString('latin1');
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) seq += text[i];
    }
    seq = seq.toUpperCase();
    if (seq.length !== end - start) throw new FastaError(this.path, `${e.name}: line layout disagrees with the .fai index`);
    this.cache.set(key, seq);
    if (this.cache.size > CACHE_BLOCKS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return seq;
  }

  async getSequence(chrom: string, start0: number, end0: number): Promise<string> {
    const e = this.entry(chrom);
    if (e === undefined) throw new FastaError(this.path, `contig ${chrom} is not in the reference`);
    const s = Math.max(0, start0);
    const t = Math.min(e.length, end0);
    if (t <= s) return '';
    let out = '';
    for (let b = Math.floor(s / BLOCK); b * BLOCK < t; b++) {
      const seq = await this.readBlock(e, b);
      const from = Math.max(s - b * BLOCK, 0);
      const to = Math.min(t - b * BLOCK, seq.length);
      out += seq.slice(from, to);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** Open a FASTA with `${path}.fai` (built in memory by a scan when absent). */
export async function openFasta(path: string): Promise<IndexedFasta> {
  let entries: FaiEntry[];
  try {
    entries = parseFai(await readFile(`${path}.fai`, 'utf8'), `${path}.fai`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    entries = await buildFai(path);
  }
  const handle = await open(path, 'r');
  const head = Buffer.alloc(1);
  await handle.read(head, 0, 1, 0);
  if (head[0] !== 0x3e) {
    await handle.close();
    throw new FastaError(path, head[0] === 0x1f ? 'compressed FASTA is not supported; decompress it (bgzip -d) first' : "does not start with '>'; not a FASTA file");
  }
  return new IndexedFasta(path, handle, entries);
}

/** An in-memory SequenceSource (tests, small references). */
export class InMemorySequence implements SequenceSource {
  private readonly seqs = new Map<string, string>();
  constructor(contigs: Record<string, string>) {
    for (const [name, seq] of Object.entries(contigs)) this.seqs.set(normalizeContig(name), seq.toUpperCase());
  }
  contigLength(chrom: string): number | null {
    return this.seqs.get(normalizeContig(chrom))?.length ?? null;
  }
  getSequence(chrom: string, start0: number, end0: number): Promise<string> {
    const seq = this.seqs.get(normalizeContig(chrom));
    if (seq === undefined) return Promise.reject(new Error(`contig ${chrom} is not in the reference`));
    return Promise.resolve(seq.slice(Math.max(0, start0), Math.max(0, end0)));
  }
}
