/**
 * VCF 4.3 writer: for `rarelens annotate --format vcf` and the benchmark's generated genome.
 * Output to a path ending in .gz is BGZF (blocked gzip, readable by gunzip and indexable by
 * tabix); other paths and streams get plain text unless `compress: 'bgzf'` is set.
 */

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import type { Assembly, Genotype } from '../types.ts';
import { CONTIG_LENGTHS, PRIMARY_CONTIGS } from '../genome/contigs.ts';
import type { VcfFieldDefinition } from './header.ts';

export type InfoWriteValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | null>;

export interface VcfWriteRecord {
  chrom: string;
  pos: number;
  id?: string | null;
  ref: string;
  alt: string;
  qual?: number | null;
  /** [] or undefined writes '.', ['PASS'] writes PASS. */
  filter?: readonly string[];
  info?: Readonly<Record<string, InfoWriteValue>>;
  genotype?: Genotype | null;
}

export interface VcfWriterOptions {
  assembly: Assembly;
  /** Sample column name; when null/absent the file is sites-only. */
  sample?: string | null;
  info?: readonly VcfFieldDefinition[];
  filters?: Readonly<Record<string, string>>;
  /** ##source value. */
  source?: string;
  /** Extra '##key=value' lines, verbatim. */
  meta?: readonly string[];
  /** Write 'chr1' rather than '1'. Default: true for GRCh38, false for GRCh37. */
  chrPrefix?: boolean;
  compress?: 'bgzf' | 'none';
}

const BGZF_MAX_INPUT = 0xff00;
const BGZF_EOF = Buffer.from('1f8b08040000000000ff0600424302001b0003000000000000000000', 'hex');

/** One BGZF block (SAM spec §4.1) holding `data` (at most 65,280 bytes). */
export function bgzfBlock(data: Buffer): Buffer {
  const deflated = deflateRawSync(data, { level: 6 });
  const block = Buffer.alloc(18 + deflated.length + 8);
  block.set([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43, 2, 0], 0);
  block.writeUInt16LE(block.length - 1, 16);
  deflated.copy(block, 18);
  block.writeUInt32LE(crc32(data) >>> 0, 18 + deflated.length);
  block.writeUInt32LE(data.length, 22 + deflated.length);
  return block;
}

function escapeInfo(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    switch (c) {
      case '%': out += '%25'; break;
      case ';': out += '%3B'; break;
      case '=': out += '%3D'; break;
      case ',': out += '%2C'; break;
      case '\t': out += '%09'; break;
      case '\n': out += '%0A'; break;
      case '\r': out += '%0D'; break;
      default: out += c;
    }
  }
  return out;
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const s = n.toPrecision(6);
  return s.includes('e') ? s : String(Number(s));
}

function formatInfoValue(v: string | number | null): string {
  if (v === null) return '.';
  return typeof v === 'number' ? formatNumber(v) : escapeInfo(v);
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export class VcfWriter {
  private buffered: string[] = [];
  private bufferedLength = 0;
  private pendingBytes: Buffer = Buffer.alloc(0);
  private readonly compress: boolean;
  private readonly chrPrefix: boolean;
  private readonly hasSample: boolean;
  private readonly infoIds: Set<string>;
  count = 0;

  constructor(
    private readonly out: Writable,
    private readonly opts: VcfWriterOptions,
  ) {
    this.compress = opts.compress === 'bgzf';
    this.chrPrefix = opts.chrPrefix ?? opts.assembly === 'GRCh38';
    this.hasSample = opts.sample != null;
    this.infoIds = new Set((opts.info ?? []).map((d) => d.id));
    this.push(this.headerText());
  }

  private headerText(): string {
    const o = this.opts;
    const lines = ['##fileformat=VCFv4.3', `##reference=${o.assembly}`];
    if (o.source !== undefined) lines.push(`##source=${o.source}`);
    for (const name of PRIMARY_CONTIGS) {
      const len = CONTIG_LENGTHS[o.assembly][name];
      const id = this.contigName(name);
      lines.push(`##contig=<ID=${id},length=${len},assembly=${o.assembly}>`);
    }
    lines.push('##FILTER=<ID=PASS,Description="All filters passed">');
    for (const [id, desc] of Object.entries(o.filters ?? {})) lines.push(`##FILTER=<ID=${id},Description=${quote(desc)}>`);
    for (const d of o.info ?? []) {
      lines.push(`##INFO=<ID=${d.id},Number=${d.number},Type=${d.type},Description=${quote(d.description)}>`);
    }
    if (this.hasSample) {
      lines.push('##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">');
      lines.push('##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">');
      lines.push('##FORMAT=<ID=GQ,Number=1,Type=Integer,Description="Genotype quality">');
      lines.push('##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Allelic depths for the REF and ALT alleles">');
    }
    for (const m of o.meta ?? []) lines.push(m.startsWith('##') ? m : `##${m}`);
    const cols = ['#CHROM', 'POS', 'ID', 'REF', 'ALT', 'QUAL', 'FILTER', 'INFO'];
    if (this.hasSample) cols.push('FORMAT', o.sample!);
    lines.push(cols.join('\t'));
    return `${lines.join('\n')}\n`;
  }

  private contigName(name: string): string {
    if (!this.chrPrefix) return name;
    return name === 'MT' ? 'chrM' : `chr${name}`;
  }

  /** Format one record as a VCF line (without newline). */
  formatRecord(r: VcfWriteRecord): string {
    if (!Number.isInteger(r.pos) || r.pos < 1) throw new RangeError(`VCF POS must be a positive integer, got ${r.pos}`);
    let info = '';
    if (r.info !== undefined) {
      for (const [k, v] of Object.entries(r.info)) {
        if (v === undefined || v === null || v === false) continue;
        if (!this.infoIds.has(k)) throw new RangeError(`INFO key ${k} is not declared in the writer's header`);
        const part = v === true ? k : Array.isArray(v) ? `${k}=${(v as ReadonlyArray<string | number | null>).map(formatInfoValue).join(',')}` : `${k}=${formatInfoValue(v as string | number)}`;
        info = info === '' ? part : `${info};${part}`;
      }
    }
    const filter = r.filter === undefined || r.filter.length === 0 ? '.' : r.filter.join(';');
    const qual = r.qual == null ? '.' : formatNumber(r.qual);
    let line = `${this.contigName(r.chrom)}\t${r.pos}\t${r.id ?? '.'}\t${r.ref}\t${r.alt}\t${qual}\t${filter}\t${info === '' ? '.' : info}`;
    if (this.hasSample) {
      const g = r.genotype;
      if (g == null) line += '\tGT\t.';
      else {
        const ad = g.alleleDepths === undefined ? '.' : `${g.alleleDepths[0]},${g.alleleDepths[1]}`;
        line += `\tGT:DP:GQ:AD\t${g.gt === '' ? '.' : g.gt}:${g.depth ?? '.'}:${g.genotypeQuality ?? '.'}:${ad}`;
      }
    }
    return line;
  }

  private push(text: string): void {
    this.buffered.push(text);
    this.bufferedLength += text.length;
  }

  private async flush(final: boolean): Promise<void> {
    if (this.buffered.length === 0 && !final) return;
    const data = Buffer.from(this.buffered.join(''), 'utf8');
    this.buffered = [];
    this.bufferedLength = 0;
    let chunk: Buffer;
    if (this.compress) {
      const all = this.pendingBytes.length > 0 ? Buffer.concat([this.pendingBytes, data]) : data;
      const blocks: Buffer[] = [];
      let off = 0;
      while (all.length - off >= BGZF_MAX_INPUT || (final && off < all.length)) {
        const end = Math.min(all.length, off + BGZF_MAX_INPUT);
        blocks.push(bgzfBlock(all.subarray(off, end)));
        off = end;
      }
      this.pendingBytes = Buffer.from(all.subarray(off));
      if (final) blocks.push(BGZF_EOF);
      chunk = Buffer.concat(blocks);
    } else {
      chunk = data;
    }
    if (chunk.length > 0 && !this.out.write(chunk)) await once(this.out, 'drain');
  }

  /** Append one record; resolves when the output can take more. */
  async write(r: VcfWriteRecord): Promise<void> {
    this.push(`${this.formatRecord(r)}\n`);
    this.count++;
    if (this.bufferedLength >= 1 << 20) await this.flush(false);
  }

  /** Append a raw, already formatted data line (used by the benchmark to copy records). */
  async writeLine(line: string): Promise<void> {
    this.push(`${line}\n`);
    this.count++;
    if (this.bufferedLength >= 1 << 20) await this.flush(false);
  }

  /** Flush everything (and the BGZF EOF block) and end the stream. */
  async close(): Promise<void> {
    await this.flush(true);
    this.out.end();
    if (!this.out.writableFinished) await once(this.out, 'finish');
  }
}

/** Open a writer on a path (BGZF when it ends in .gz) or a stream. */
export function createVcfWriter(out: string | Writable, opts: VcfWriterOptions): VcfWriter {
  if (typeof out === 'string') {
    const compress = opts.compress ?? (out.endsWith('.gz') ? 'bgzf' : 'none');
    return new VcfWriter(createWriteStream(out), { ...opts, compress });
  }
  return new VcfWriter(out, opts);
}

/** Write all records and close; returns the number written. */
export async function writeVcf(
  out: string | Writable,
  records: AsyncIterable<VcfWriteRecord> | Iterable<VcfWriteRecord>,
  opts: VcfWriterOptions,
): Promise<number> {
  const w = createVcfWriter(out, opts);
  for await (const r of records) await w.write(r);
  await w.close();
  return w.count;
}
