/**
 * KB build steps for variant-level ClinVar sources: the official ClinVar VCF (CLNSIG/CLNREVSTAT,
 * any size, GRCh38 or GRCh37), the MacArthur-lab allele VCF (CLINICAL_SIGNIFICANCE/REVIEW_STATUS)
 * and the InterVar PS1 pathogenic-missense table. GRCh37 records are lifted to GRCh38 with the
 * UCSC chain; what fails to lift is counted by reason.
 */
import type { LiftoverChain } from '../liftover/chain.ts';
import { formatReviewStatus, starsFromReviewStatus, type ClinvarAllele, type PathogenicMissense } from '../clinvar/clinvar.ts';
import { normalizeKbContig } from './contig.ts';
import { parseIntField, readSourceLines, splitTsv } from './io.ts';
import type { ResolvedSource } from './sources.ts';
import { KbSourceError } from './types.ts';

export interface ClinvarReadResult {
  alleles: ClinvarAllele[];
  /** Molecular consequences (SO terms) by allele index, where the file states them (official VCF 'MC'). */
  mc: Map<number, string[]>;
  records: number;
  skipped: number;
  version: string;
  assembly: 'GRCh37' | 'GRCh38';
  notes: string[];
}

function parseInfo(info: string): Map<string, string> {
  const m = new Map<string, string>();
  if (info === '.' || info === '') return m;
  for (const kv of info.split(';')) {
    const i = kv.indexOf('=');
    if (i < 0) m.set(kv, '');
    else m.set(kv.slice(0, i), kv.slice(i + 1));
  }
  return m;
}

function cleanConditions(raw: string | undefined): string[] {
  if (!raw) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of raw.split(/[|]/)) {
    const name = part.replace(/_/g, ' ').replace(/\\x2c/g, ',').trim();
    const k = name.toLowerCase();
    if (!name || k === 'not provided' || k === 'not specified' || k === '.' || seen.has(k)) continue;
    seen.add(k);
    out.push(name);
  }
  return out;
}

function versionFromName(rel: string): string | null {
  const m = /(\d{4})-?(\d{2})-?(\d{2})?/.exec(rel.split('/').pop() ?? '');
  if (!m) return null;
  return m[3] ? `${m[1]}-${m[2]}-${m[3]}` : `${m[1]}-${m[2]}`;
}

/**
 * Reads a ClinVar VCF. `expected` is the assembly the source slot implies; the header's
 * ##reference (when present) must agree. GRCh37 input needs `chain`.
 */
export async function readClinvarVcf(
  src: ResolvedSource,
  expected: 'GRCh37' | 'GRCh38',
  chain: LiftoverChain | null,
  signal?: AbortSignal,
  onProgress?: (n: number) => void,
): Promise<ClinvarReadResult> {
  const alleles: ClinvarAllele[] = [];
  const mc = new Map<number, string[]>();
  let version = versionFromName(src.rel) ?? 'unknown';
  let sawHeader = false;
  let records = 0;
  let noAllele = 0;
  let badContig = 0;
  const liftFail = new Map<string, number>();
  const origin = expected === 'GRCh38' ? 'grch38' : 'grch37-lifted';
  if (expected === 'GRCh37' && !chain) throw new KbSourceError(src.rel, 'GRCh37 ClinVar needs the hg19ToHg38 chain to lift it to GRCh38');
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line.startsWith('##')) {
      if (n === 1 && !line.startsWith('##fileformat=VCF')) throw new KbSourceError(src.rel, `not a VCF: first line is '${line.slice(0, 40)}'`, 1);
      const fd = /^##fileDate=(\d{4})-?(\d{2})-?(\d{2})/.exec(line);
      if (fd) version = `${fd[1]}-${fd[2]}-${fd[3]}`;
      const ref = /^##reference=(.*)$/.exec(line)?.[1];
      if (ref) {
        const says = /GRCh38|hg38/i.test(ref) ? 'GRCh38' : /GRCh37|hg19|b37/i.test(ref) ? 'GRCh37' : null;
        if (says && says !== expected) throw new KbSourceError(src.rel, `header says ##reference=${ref} but the file name places it as ${expected}`, n);
      }
      continue;
    }
    if (line.startsWith('#')) {
      if (n === 1) throw new KbSourceError(src.rel, 'not a VCF: missing ##fileformat line', 1);
      sawHeader = true;
      continue;
    }
    if (line === '') continue;
    if (!sawHeader) throw new KbSourceError(src.rel, 'data line before the #CHROM header', n);
    const c = splitTsv(line, 8, src.rel, n);
    records++;
    if (onProgress && records % 100_000 === 0) onProgress(records);
    const pos = parseIntField(c[1], 'POS', src.rel, n);
    const ref = c[3]!.toUpperCase();
    const altField = c[4]!;
    if (!/^[ACGTN]+$/.test(ref)) throw new KbSourceError(src.rel, `field REF: '${c[3]}' is not a DNA sequence`, n);
    const info = parseInfo(c[7]!);
    const sig = info.get('CLNSIG') ?? info.get('CLINICAL_SIGNIFICANCE');
    const rev = info.get('CLNREVSTAT') ?? info.get('REVIEW_STATUS') ?? '';
    if (sig == null || altField === '.' || altField === '') {
      noAllele++;
      continue;
    }
    const chrom0 = normalizeKbContig(c[0]!);
    if (!chrom0) {
      badContig++;
      continue;
    }
    const afs: [string, number][] = [];
    for (const [k, label] of [['AF_EXAC', 'ExAC'], ['AF_ESP', 'ESP'], ['AF_TGP', '1000 Genomes']] as const) {
      const v = info.get(k);
      if (v != null && v !== '.') {
        const f = Number(v);
        if (!Number.isFinite(f) || f < 0 || f > 1) throw new KbSourceError(src.rel, `INFO ${k}: '${v}' is not a frequency`, n);
        afs.push([label, f]);
      }
    }
    afs.sort((a, b) => b[1] - a[1]);
    const conditions = cleanConditions(info.get('CLNDN') ?? info.get('ALL_TRAITS'));
    const gene = (info.get('GENEINFO')?.split('|')[0]?.split(':')[0] ?? info.get('SYMBOL')) || null;
    const mcTerms = info.get('MC')?.split(',').map((x) => x.split('|')[1] ?? '').filter(Boolean);
    for (const altRaw of altField.split(',')) {
      const alt = altRaw.toUpperCase();
      if (!/^[ACGTN]+$/.test(alt)) {
        noAllele++;
        continue;
      }
      let chrom = chrom0;
      let p = pos;
      let r = ref;
      let a = alt;
      if (expected === 'GRCh37') {
        const lifted = chain!.liftVariant({ chrom: chrom0, pos, ref, alt });
        if ('failed' in lifted) {
          liftFail.set(lifted.failed, (liftFail.get(lifted.failed) ?? 0) + 1);
          continue;
        }
        const lc = normalizeKbContig(lifted.chrom);
        if (!lc) {
          liftFail.set('lifted_to_non_primary_contig', (liftFail.get('lifted_to_non_primary_contig') ?? 0) + 1);
          continue;
        }
        chrom = lc;
        p = lifted.pos;
        r = lifted.ref;
        a = lifted.alt;
      }
      if (mcTerms?.length) mc.set(alleles.length, mcTerms);
      alleles.push({
        chrom,
        pos: p,
        ref: r,
        alt: a,
        id: c[2] && c[2] !== '.' ? c[2] : (info.get('MEASURESET_ID') ?? null),
        significance: sig.replace(/\|/g, '/'),
        stars: starsFromReviewStatus(rev),
        reviewStatus: rev ? formatReviewStatus(rev) : 'no assertion provided',
        conditions,
        gene,
        af: afs[0]?.[1] ?? null,
        afSource: afs[0] ? `${afs[0][0]} (via ClinVar)` : null,
        origin,
      });
    }
  }
  if (!sawHeader) throw new KbSourceError(src.rel, 'no #CHROM header line; not a VCF or truncated');
  const failed = [...liftFail.values()].reduce((s, x) => s + x, 0);
  const notes = [`${noAllele} records without an allele or significance`, `${badContig} records on non-primary contigs`];
  if (expected === 'GRCh37') notes.push(`lifted to GRCh38: ${alleles.length}; failed to lift: ${failed}${failed ? ` (${[...liftFail].map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`);
  return { alleles, mc, records, skipped: noAllele + badContig + failed, version, assembly: expected, notes };
}

/** InterVar PS1.AA.change.patho.hg38: `chrom start end ref alt ref_aa alt_aa p.change clinvar_id`, no header. */
export async function readIntervarPs1(src: ResolvedSource, signal?: AbortSignal): Promise<{ rows: PathogenicMissense[]; records: number; skipped: number }> {
  const rows: PathogenicMissense[] = [];
  let skipped = 0;
  let records = 0;
  for await (const [line, n] of readSourceLines(src.path, src.rel, signal)) {
    if (line === '' || line.startsWith('#')) continue;
    const c = splitTsv(line, 9, src.rel, n);
    records++;
    const chrom = normalizeKbContig(c[0]!);
    const pos = parseIntField(c[1], 'start', src.rel, n);
    const ref = c[3]!.toUpperCase();
    const alt = c[4]!.toUpperCase();
    if (!chrom || !/^[ACGT]$/.test(ref) || !/^[ACGT]$/.test(alt)) {
      skipped++;
      continue;
    }
    if (!/^[A-Z*X]$/.test(c[5]!) || !/^[A-Z*X]$/.test(c[6]!)) throw new KbSourceError(src.rel, `ref_aa/alt_aa must be one-letter amino acids, got '${c[5]}'/'${c[6]}'`, n);
    rows.push({ chrom, pos, ref, alt, refAa: c[5]!, altAa: c[6]!, pChange: c[7]!, clinvarId: c[8]! });
  }
  return { rows, records, skipped };
}
