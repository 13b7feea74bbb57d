/**
 * Synchronous base lookup on a samtools-indexed plain FASTA, for codon-level annotation inside
 * the (synchronous) per-variant annotate call. Reads 64 kb blocks with fs.readSync and keeps a
 * small LRU of decoded blocks; coordinates are 0-based.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { normalizeContig } from '../genome/contigs.ts';
import { FastaError, parseFai, type FaiEntry } from '../genome/fasta.ts';

const BLOCK = 1 << 16;
const MAX_BLOCKS = 64;

export class SyncFasta {
  private readonly fd: number;
  private readonly byName = new Map<string, FaiEntry>();
  private readonly cache = new Map<string, string>();

  constructor(readonly path: string) {
    let fai: string;
    try {
      fai = readFileSync(`${path}.fai`, 'utf8');
    } catch {
      throw new FastaError(path, 'no .fai index beside the FASTA; run `samtools faidx` on it');
    }
    for (const e of parseFai(fai, `${path}.fai`)) {
      this.byName.set(e.name, e);
      const c = normalizeContig(e.name);
      if (!this.byName.has(c)) this.byName.set(c, e);
    }
    this.fd = openSync(path, 'r');
    const head = Buffer.alloc(1);
    readSync(this.fd, head, 0, 1, 0);
    if (head[0] !== 0x3e) {
      closeSync(this.fd);
      throw new FastaError(path, head[0] === 0x1f ? 'compressed FASTA is not supported; decompress it first' : "does not start with '>'; not a FASTA file");
    }
  }

  private block(e: FaiEntry, b: number): string {
    const key = `${e.name}:${b}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const start = b * BLOCK;
    const end = Math.min(e.length, start + BLOCK);
    const byteStart = e.offset + Math.floor(start / e.lineBases) * e.lineBytes + (start % e.lineBases);
    const byteEnd = e.offset + Math.floor((end - 1) / e.lineBases) * e.lineBytes + ((end - 1) % e.lineBases) + 1;
    const buf = Buffer.alloc(byteEnd - byteStart);
    const n = readSync(this.fd, buf, 0, buf.length, byteStart);
    if (n < buf.length) throw new FastaError(this.path, `${e.name}: file shorter than its .fai says`);
    const seq = buf.toString('latin1').replace(/[\r\n]/g, '').toUpperCase();
    this.cache.set(key, seq);
    if (this.cache.size > MAX_BLOCKS) {
      const first = this.cache.keys().next().value;
      if (first !== undefined) this.cache.delete(first);
    }
    return seq;
  }

  /** Upper-case base at 0-based `pos0`, or null outside the contig / unknown contig. */
  base(chrom: string, pos0: number): string | null {
    const e = this.byName.get(chrom) ?? this.byName.get(normalizeContig(chrom));
    if (!e || pos0 < 0 || pos0 >= e.length) return null;
    const b = Math.floor(pos0 / BLOCK);
    return this.block(e, b)[pos0 - b * BLOCK] ?? null;
  }

  close(): void {
    closeSync(this.fd);
  }
}
