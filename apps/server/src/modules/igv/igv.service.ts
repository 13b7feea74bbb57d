/**
 * Tracks for the igv.js view, served by the app (no external fetches): the case's variants as
 * VCF text for a region, transcripts as BED12 and ClinVar alleles as BED9 from the local
 * knowledge base. Contigs are written UCSC-style ('chr1') to match igv's hg38 naming.
 * Regions are 1-based inclusive ('10:123400000-123500000') and limited to 5 Mb.
 */
import { ErrorCode } from '@rarelens/contract';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { Region, TrackSources } from '../../kb/knowledge-base.ts';
import type { CaseAccess, Caller } from '../cases/cases.service.ts';
import { variantsInRegion } from './igv.repository.ts';

export const MAX_REGION_BP = 5_000_000;
const MAX_RECORDS = 20_000;

/** Parses 'chr10:1,000-2,000' into a normalised region (contig without 'chr', 'M' -> 'MT'). */
export function parseRegion(text: string): Region {
  const m = /^(?:chr)?([0-9XYMT]{1,2}):([\d,]+)-([\d,]+)$/i.exec(text.trim());
  if (!m) throw new AppError(400, ErrorCode.validationFailed, 'region must look like 10:123400000-123500000');
  let chrom = m[1]!.toUpperCase();
  if (chrom === 'M') chrom = 'MT';
  const start = Number(m[2]!.replace(/,/g, ''));
  const end = Number(m[3]!.replace(/,/g, ''));
  if (!(start >= 1 && end >= start)) throw new AppError(400, ErrorCode.validationFailed, 'region start must be >= 1 and <= end');
  if (end - start + 1 > MAX_REGION_BP) {
    throw new AppError(400, ErrorCode.validationFailed, `region is larger than ${MAX_REGION_BP.toLocaleString('en')} bp`);
  }
  return { chrom, start, end };
}

export const ucsc = (chrom: string): string => (chrom === 'MT' ? 'chrM' : `chr${chrom}`);

function vcfEscape(v: string): string {
  return v.replace(/[;=\s,%]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function clinvarColor(significance: string): string {
  const s = significance.toLowerCase();
  if (s.includes('conflicting')) return '255,165,0';
  if (s.includes('pathogenic') && !s.includes('benign')) return '200,0,0';
  if (s.includes('benign')) return '0,150,0';
  return '120,120,120';
}

export function createIgvService(deps: { database: Database; access: CaseAccess; sources: TrackSources }) {
  const db = deps.database.db;
  const noKb = () => new AppError(503, ErrorCode.internal, 'The knowledge base is not built; run `npx rarelens kb build`');
  return {
    /** The case's variants in a region as VCF text (sample column named after the case). */
    async caseVariantsVcf(user: Caller, id: string, regionText: string): Promise<string> {
      const { caseRow } = await deps.access.check(user, id, 'read');
      const runId = caseRow.currentRunId;
      const sampleName = caseRow.caseId;
      const region = parseRegion(regionText);
      const rows = runId ? await variantsInRegion(db, runId, region, MAX_RECORDS) : [];
      const sample = sampleName.replace(/\s+/g, '_') || 'SAMPLE';
      const lines = [
        '##fileformat=VCFv4.2',
        '##source=RareLens',
        '##reference=GRCh38',
        '##INFO=<ID=GENE,Number=1,Type=String,Description="Gene symbol">',
        '##INFO=<ID=CSQ,Number=1,Type=String,Description="Most severe consequence">',
        '##INFO=<ID=HGVSC,Number=1,Type=String,Description="HGVS c.">',
        '##INFO=<ID=HGVSP,Number=1,Type=String,Description="HGVS p.">',
        '##INFO=<ID=ACMG,Number=1,Type=String,Description="ACMG classification">',
        '##INFO=<ID=CLNSIG,Number=1,Type=String,Description="ClinVar significance">',
        '##INFO=<ID=AF,Number=1,Type=Float,Description="Population allele frequency">',
        '##INFO=<ID=RANK,Number=1,Type=Integer,Description="Rank in the case">',
        '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
        `#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${sample}`,
      ];
      for (const v of rows) {
        if (v.pos > region.end || v.pos + v.ref.length - 1 < region.start) continue;
        const info: string[] = [`RANK=${v.rank}`];
        if (v.gene) info.push(`GENE=${vcfEscape(v.gene)}`);
        if (v.consequence) info.push(`CSQ=${vcfEscape(v.consequence)}`);
        if (v.hgvsC) info.push(`HGVSC=${vcfEscape(v.hgvsC)}`);
        if (v.hgvsP) info.push(`HGVSP=${vcfEscape(v.hgvsP)}`);
        info.push(`ACMG=${vcfEscape(v.acmgClass)}`);
        if (v.clinvarSignificance) info.push(`CLNSIG=${vcfEscape(v.clinvarSignificance)}`);
        if (v.af != null) info.push(`AF=${v.af}`);
        const gt = (v.genotype as { gt?: string } | null)?.gt ?? './.';
        const filter = v.filter.length ? v.filter.join(';') : 'PASS';
        lines.push(
          [ucsc(v.chrom), v.pos, `v${v.id}`, v.ref, v.alt, v.qual ?? '.', filter, info.join(';'), 'GT', gt].join('\t'),
        );
      }
      return `${lines.join('\n')}\n`;
    },

    async genesBed(user: Caller, id: string, regionText: string): Promise<string> {
      await deps.access.check(user, id, 'read');
      const region = parseRegion(regionText);
      const txs = await deps.sources.transcripts(region);
      if (txs === null) throw noKb();
      const out: string[] = [];
      for (const t of txs) {
        const n = t.exonStarts.length;
        const sizes: number[] = [];
        const starts: number[] = [];
        for (let i = 0; i < n; i++) {
          sizes.push((t.exonEnds[i] ?? 0) - (t.exonStarts[i] ?? 0));
          starts.push((t.exonStarts[i] ?? 0) - t.start);
        }
        const name = t.gene ? `${t.gene} ${t.id}` : t.id;
        out.push(
          [
            ucsc(t.chrom),
            t.start,
            t.end,
            name.replace(/\s+/g, '_'),
            t.mane === 'select' ? 1000 : 500,
            t.strand === 1 ? '+' : '-',
            t.cdsStart,
            t.cdsEnd,
            t.mane === 'select' ? '0,0,160' : '80,80,80',
            n,
            `${sizes.join(',')},`,
            `${starts.join(',')},`,
          ].join('\t'),
        );
      }
      return out.length ? `${out.join('\n')}\n` : '';
    },

    async clinvarBed(user: Caller, id: string, regionText: string): Promise<string> {
      await deps.access.check(user, id, 'read');
      const region = parseRegion(regionText);
      const alleles = await deps.sources.clinvar(region);
      if (alleles === null) throw noKb();
      const out = alleles.map((a) => {
        const start = a.pos - 1; // BED is 0-based half-open
        const end = start + Math.max(1, a.ref.length);
        const name = `${a.significance}${a.id ? ` (${a.id})` : ''}`.replace(/\s+/g, '_');
        return [ucsc(a.chrom), start, end, name, Math.min(1000, a.stars * 250), '.', start, end, clinvarColor(a.significance)].join('\t');
      });
      return out.length ? `${out.join('\n')}\n` : '';
    },
  };
}

export type IgvService = ReturnType<typeof createIgvService>;
