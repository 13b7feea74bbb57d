/**
 * Builds a genome-size GRCh38 VCF (about 4.5 million records) from the real VCFs, for the
 * annotation benchmark: the PG NA12878 chr21 calls are tiled along every primary chromosome
 * (positions shifted by multiples of chr21's length, kept inside each chromosome), and the
 * Pfeiffer exome, lifted to GRCh38 by the engine, is merged in at its real positions. The
 * result is sorted, BGZF-compressed with the bgzip tool, and cached in the temp dir.
 */

import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import { CONTIG_LENGTHS, loadChain, readVcf } from '../../packages/engine/src/index.ts';

export interface GenomeVcf {
  path: string;
  records: number;
  bytes: number;
  reused: boolean;
}

const FORMAT_VERSION = 2;
const CHROMS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', 'X', 'Y'];

function splitHeader(text: string): { meta: string[]; records: string[] } {
  const meta: string[] = [];
  const records: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('##')) meta.push(line);
    else if (!line.startsWith('#')) records.push(line);
  }
  return { meta, records };
}

function idOf(metaLine: string): string | null {
  const m = /^##(INFO|FORMAT|FILTER)=<ID=([^,>]+)/.exec(metaLine);
  return m === null ? null : `${m[1]}:${m[2]}`;
}

export async function buildGenomeVcf(sources: string, dir: string, log: (s: string) => void): Promise<GenomeVcf> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `genome.grch38.v${FORMAT_VERSION}.vcf.gz`);
  const countFile = `${path}.records`;
  if (existsSync(path) && existsSync(countFile)) {
    return { path, records: Number(readFileSync(countFile, 'utf8')), bytes: statSync(path).size, reused: true };
  }
  const t0 = performance.now();
  const pg = splitHeader(gunzipSync(readFileSync(join(sources, 'vcf/PG_NA12878_hg38-chr21.vcf.gz'))).toString('utf8'));
  const pfHeader = splitHeader(gunzipSync(readFileSync(join(sources, 'vcf/Pfeiffer.hg19.vcf.gz'))).toString('utf8'));

  // Pfeiffer lifted to GRCh38 (single-ALT records; columns from ID on kept verbatim).
  const chain = await loadChain(join(sources, 'liftover/hg19ToHg38.over.chain.gz'));
  const reader = await readVcf(join(sources, 'vcf/Pfeiffer.hg19.vcf.gz'), { liftover: chain, trim: false });
  const exome = new Map<string, Array<{ pos: number; line: string }>>();
  for await (const batch of reader.batches()) {
    for (const v of batch) {
      if (v.record.alts.length !== 1 || !CHROMS.includes(v.chrom)) continue;
      const r = v.record;
      const rest = [r.id, v.ref, v.alt, r.qualRaw, r.filterRaw, r.infoRaw, r.formatRaw ?? 'GT', r.sampleRaw ?? '.'].join('\t');
      let list = exome.get(v.chrom);
      if (list === undefined) exome.set(v.chrom, (list = []));
      list.push({ pos: v.pos, line: rest });
    }
  }
  for (const list of exome.values()) list.sort((a, b) => a.pos - b.pos);

  // PG chr21 records as [pos, rest-of-line], in file order (sorted).
  const tile = pg.records.map((l) => {
    const t1 = l.indexOf('\t');
    const t2 = l.indexOf('\t', t1 + 1);
    return { pos: Number(l.slice(t1 + 1, t2)), rest: l.slice(t2 + 1) };
  });
  const tileLen = CONTIG_LENGTHS.GRCh38['21']!;

  const seen = new Set<string>();
  const defs: string[] = [];
  for (const m of [...pg.meta, ...pfHeader.meta]) {
    const id = idOf(m);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    defs.push(m);
  }
  const header = [
    '##fileformat=VCFv4.2',
    '##reference=GRCh38',
    '##source=rarelens bench: PG NA12878 chr21 tiled over GRCh38 + Pfeiffer exome lifted to GRCh38',
    ...CHROMS.map((c) => `##contig=<ID=chr${c},length=${CONTIG_LENGTHS.GRCh38[c]}>`),
    ...defs,
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tSAMPLE',
  ].join('\n');

  const tmp = `${path}.tmp`;
  const bgzip = spawn('bgzip', ['-c', '-@', '2'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { createWriteStream } = await import('node:fs');
  const out = createWriteStream(tmp);
  bgzip.stdout.pipe(out);
  const write = async (s: string): Promise<void> => {
    if (!bgzip.stdin.write(s)) await once(bgzip.stdin, 'drain');
  };
  await write(`${header}\n`);
  let records = 0;
  for (const c of CHROMS) {
    const len = CONTIG_LENGTHS.GRCh38[c]!;
    const ex = exome.get(c) ?? [];
    let ei = 0;
    const parts: string[] = [];
    const flush = async (): Promise<void> => {
      if (parts.length > 0) await write(parts.join(''));
      parts.length = 0;
    };
    // chrY is mostly unassemblable: tile only its first 10 Mb, like real calls.
    const limit = c === 'Y' ? Math.min(len, 10_000_000) : len;
    for (let off = 0; off < limit; off += tileLen) {
      for (const r of tile) {
        const pos = r.pos + off;
        if (pos > limit) break;
        while (ei < ex.length && ex[ei]!.pos < pos) {
          parts.push(`chr${c}\t${ex[ei]!.pos}\t${ex[ei]!.line}\n`);
          ei++;
          records++;
        }
        parts.push(`chr${c}\t${pos}\t${r.rest}\n`);
        records++;
        if (parts.length >= 20000) await flush();
      }
    }
    while (ei < ex.length) {
      parts.push(`chr${c}\t${ex[ei]!.pos}\t${ex[ei]!.line}\n`);
      ei++;
      records++;
    }
    await flush();
  }
  bgzip.stdin.end();
  await Promise.all([once(bgzip, 'close'), once(out, 'finish')]);
  if (bgzip.exitCode !== 0) throw new Error(`bgzip failed with exit ${bgzip.exitCode}`);
  renameSync(tmp, path);
  writeFileSync(countFile, String(records));
  log(`built ${path}: ${records} records in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { path, records, bytes: statSync(path).size, reused: false };
}

/** The first `n` records of a (b)gzipped VCF, written as a plain VCF. */
export async function headVcf(src: string, n: number, dest: string): Promise<void> {
  const out = createWriteStream(dest);
  const rl = createInterface({
    input: createReadStream(src).pipe(createGunzip()),
    crlfDelay: Infinity,
  });
  let records = 0;
  for await (const line of rl) {
    if (!line.startsWith('#')) {
      if (records >= n) break;
      records++;
    }
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  rl.close();
  out.end();
  await once(out, 'finish');
}
