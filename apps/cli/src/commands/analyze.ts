/**
 * rarelens analyze --vcf FILE --hpo HP:..,HP:.. [--exclude HP:..] [--sex male|female]
 *                  [--assembly GRCh37|GRCh38] [--sample NAME] [--ped FAMILY.ped] [--kb DIR] [--top N] --out FILE.json
 * rarelens analyze --batch CASES.jsonl --out RESULTS.jsonl [--kb DIR] [--top N]
 *
 * Ranks diseases, genes and variants. Without --vcf (or with "vcf": null in a batch line) the
 * ranking uses the phenotype alone. Batch mode loads the KB once.
 */
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname, isAbsolute, resolve } from 'node:path';
import {
  describeLiftFailures,
  liftFailuresByReason,
  AssemblyRequiredError,
  FamilyCheckError,
  KbSourceError,
  PedParseError,
  UnknownSampleError,
  VcfParseError,
  analyseVcfCase,
  loadGenomeKb,
  parsePed,
  loadHpoKb,
  openAnnotationSession,
  rankPhenotype,
  type Assembly,
  type FamilyAnalysis,
  type Pedigree,
  type CaseRankingResult,
  type HpoKb,
  type PhenotypeRankingResult,
  type Sex,
  type VcfAnnotationSession,
} from '@rarelens/engine';
import { parseCommandArgs, runCommand, stringOptions, UsageError } from '../args.ts';
import { outputTarget } from '../output.ts';
import { defaultKbDir } from './kb.ts';

const USAGE = `Usage:
  rarelens analyze [--vcf FILE] --hpo HP:...,HP:... [--exclude HP:...] [--sex male|female] [--assembly GRCh37|GRCh38] [--sample NAME] [--ped FAMILY.ped] [--kb DIR] [--top N] --out FILE.json
  rarelens analyze --batch CASES.jsonl --out RESULTS.jsonl [--kb DIR] [--top N]
    --vcf       input VCF (plain, .gz or bgzip); without it the ranking uses the phenotype only
    --hpo       observed HPO terms, comma-separated
    --exclude   HPO terms explicitly absent, comma-separated
    --sex       male | female (X-linked inheritance logic)
    --assembly  genome assembly of the VCF when its header does not say
    --sample    sample to analyse (with --ped: the proband; default the pedigree's affected member)
    --ped       pedigree (PED) of a multi-sample VCF: family analysis (de novo, compound het, segregation, trio QC)
    --batch     JSONL, one case a line: {id, vcf (path or null), assembly, ped (path, optional), sample, hpo_present[], hpo_excluded[], sex ("MALE"|"FEMALE"|null)}
    --top       entries per list in the output (default 100)
    --kb        knowledge base directory (default $RARELENS_KB or ./data/kb)`;

interface Args {
  vcf?: string;
  hpo: string[];
  exclude: string[];
  sex: Sex;
  assembly?: Assembly;
  sample?: string;
  ped?: string;
  kb: string;
  out: string;
  batch?: string;
  top: number;
}

const HPO_RE = /^HP:\d{7}$/;

function parseTerms(raw: string | undefined, flag: string): string[] {
  if (!raw) return [];
  const terms = raw
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const bad = terms.filter((t) => !HPO_RE.test(t));
  if (bad.length) throw new UsageError(`${flag}: not HPO ids: ${bad.join(', ')}`);
  return terms;
}

function parseAssembly(v: string | undefined | null, where: string): Assembly | undefined {
  if (v == null) return undefined;
  if (v === 'GRCh37' || v === 'hg19' || v === 'GRCh38' || v === 'hg38') return v === 'hg19' ? 'GRCh37' : v === 'hg38' ? 'GRCh38' : v;
  throw new UsageError(`${where}: assembly must be GRCh37 or GRCh38, got ${v}`);
}

const OPTIONS = stringOptions('vcf', 'hpo', 'exclude', 'sex', 'assembly', 'sample', 'ped', 'kb', 'out', 'batch', 'top');

function parseAnalyzeArgs(argv: readonly string[]): Args {
  const { values: v } = parseCommandArgs(argv, { options: OPTIONS });
  if (!v.out) throw new UsageError('--out is required');
  const hpo = parseTerms(v.hpo, '--hpo');
  if (!v.batch && !hpo.length) throw new UsageError('--hpo (at least one observed term) or --batch is required');
  if (v.batch && (v.vcf !== undefined || v.hpo !== undefined)) throw new UsageError('--batch takes the cases from the file; do not combine it with --vcf/--hpo');
  if (v.ped && !v.vcf) throw new UsageError("--ped needs --vcf (the family's multi-sample VCF)");
  if (v.sex !== undefined && v.sex !== 'male' && v.sex !== 'female') throw new UsageError(`--sex must be male or female, got ${v.sex}`);
  const top = Number(v.top ?? 100);
  if (!Number.isInteger(top) || top < 1) throw new UsageError(`--top must be a positive integer, got ${v.top}`);
  return {
    vcf: v.vcf ? resolve(v.vcf) : undefined,
    hpo,
    exclude: parseTerms(v.exclude, '--exclude'),
    sex: v.sex ?? 'unknown',
    assembly: parseAssembly(v.assembly, '--assembly'),
    sample: v.sample,
    ped: v.ped ? resolve(v.ped) : undefined,
    kb: resolve(v.kb ?? defaultKbDir()),
    out: resolve(v.out),
    batch: v.batch ? resolve(v.batch) : undefined,
    top,
  };
}

/** Loads the HPO KB now and the genome part (annotation) only when a VCF needs it. */
class Engine {
  private session: Promise<VcfAnnotationSession> | null = null;
  constructor(
    readonly kbDir: string,
    readonly hpo: HpoKb,
  ) {}

  annotation(): Promise<VcfAnnotationSession> {
    this.session ??= loadGenomeKb(this.kbDir).then((g) => openAnnotationSession(g));
    return this.session;
  }

  async close(): Promise<void> {
    if (this.session) (await this.session).close();
  }
}

interface CaseSpec {
  id: string;
  vcf: string | null;
  assembly?: Assembly;
  sample?: string;
  /** PED file of the family (multi-sample VCF). */
  ped?: string;
  present: string[];
  excluded: string[];
  sex: Sex;
}

async function analyzeCase(engine: Engine, c: CaseSpec, top: number): Promise<{ pheno?: PhenotypeRankingResult; full?: CaseRankingResult; vcfInfo?: object; family?: FamilyAnalysis | null }> {
  if (!c.vcf) return { pheno: rankPhenotype(engine.hpo, { present: c.present, excluded: c.excluded }, { limit: top, explainTop: Math.min(top, 20) }) };
  const session = await engine.annotation();
  const pedigree: Pedigree | undefined = c.ped ? parsePed(readFileSync(c.ped, 'utf8'), c.ped) : undefined;
  // The product's path (packages/engine): candidate filter, family analysis, ranking.
  const r = await analyseVcfCase(session, engine.hpo, { path: c.vcf, assembly: c.assembly, sample: c.sample, pedigree, phenotype: { hpoPresent: c.present, hpoExcluded: c.excluded, sex: c.sex } }, { limit: top, explainTop: Math.min(top, 100) });
  const read = r.read;
  const liftFailed = read.summary.liftFailed;
  if (liftFailed.length) console.error(`${c.vcf}: ${describeLiftFailures(liftFailed)}`);
  return {
    full: r.ranking,
    family: r.family,
    vcfInfo: { path: c.vcf, assembly: read.assembly, sample: read.sample, records: read.summary.records, alleles: read.summary.alleles, liftFailed: liftFailed.length, liftFailedByReason: liftFailuresByReason(liftFailed) },
  };
}

/** The family part of the output: members, trio QC and each ranked variant's genotypes and inheritance. */
function familyOutput(f: FamilyAnalysis, full: CaseRankingResult): object {
  return {
    proband: f.context.proband.id,
    members: f.context.family.members.map((m) => ({ id: m.id, relation: m.relation, sex: m.sex, status: m.status, father: m.father, mother: m.mother, sequenced: m.vcfIndex >= 0 })),
    notes: f.context.family.notes,
    qc: f.qc,
    variants: full.variants.map((v) => {
      const inh = f.inheritance.get(v.variant);
      return { chrom: v.input.chrom, pos: v.input.pos, ref: v.input.ref, alt: v.input.alt, gene: v.gene, rank: v.rank, genotypes: v.variant.familyGenotypes ?? {}, inheritance: inh?.tags ?? [], rules: inh?.rules ?? [] };
    }),
  };
}

function compactLine(id: string, r: { pheno?: PhenotypeRankingResult; full?: CaseRankingResult }): object {
  const src = r.full ?? r.pheno;
  return {
    id,
    diseases: (src?.diseases ?? []).map((d) => ({ id: d.id, name: d.name, rank: d.rank, score: round(d.score) })),
    genes: (src?.genes ?? []).map((g) => ({ symbol: g.symbol, rank: g.rank, score: round(g.score) })),
    variants: (r.full?.variants ?? []).map((v) => ({ chrom: v.input.chrom, pos: v.input.pos, ref: v.input.ref, alt: v.input.alt, gene: v.gene, rank: v.rank, score: round(v.score) })),
  };
}

/** Errors in a case's own input (VCF, PED, pedigree vs VCF, KB): reported, never a crash. */
function isCaseInputError(e: unknown): e is Error {
  return e instanceof VcfParseError || e instanceof UnknownSampleError || e instanceof KbSourceError || e instanceof PedParseError || e instanceof FamilyCheckError;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

function parseSex(v: unknown, where: string): Sex {
  if (v == null || v === 'UNKNOWN_SEX' || v === 'OTHER_SEX') return 'unknown';
  if (v === 'MALE' || v === 'male') return 'male';
  if (v === 'FEMALE' || v === 'female') return 'female';
  throw new UsageError(`${where}: sex must be "MALE", "FEMALE" or null, got ${JSON.stringify(v)}`);
}

function parseCaseLine(line: string, lineNo: number, file: string): CaseSpec {
  const where = `${file}:${lineNo}`;
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`${where}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw new UsageError(`${where}: expected a JSON object`);
  if (typeof o.id !== 'string' || !o.id) throw new UsageError(`${where}: field "id" must be a non-empty string`);
  const terms = (k: string): string[] => {
    const v = o[k] ?? [];
    if (!Array.isArray(v) || v.some((t) => typeof t !== 'string' || !HPO_RE.test(t))) throw new UsageError(`${where}: field "${k}" must be an array of HPO ids`);
    return v as string[];
  };
  if (o.vcf != null && typeof o.vcf !== 'string') throw new UsageError(`${where}: field "vcf" must be a path or null`);
  const vcf = typeof o.vcf === 'string' ? (isAbsolute(o.vcf) ? o.vcf : resolve(dirname(file), o.vcf)) : null;
  if (o.ped != null && typeof o.ped !== 'string') throw new UsageError(`${where}: field "ped" must be a path or null`);
  if (o.sample != null && typeof o.sample !== 'string') throw new UsageError(`${where}: field "sample" must be a sample name or null`);
  const ped = typeof o.ped === 'string' ? (isAbsolute(o.ped) ? o.ped : resolve(dirname(file), o.ped)) : undefined;
  return {
    ped,
    sample: typeof o.sample === 'string' ? o.sample : undefined,
    id: o.id,
    vcf,
    assembly: parseAssembly(o.assembly as string | null | undefined, `${where}: field "assembly"`),
    present: terms('hpo_present'),
    excluded: terms('hpo_excluded'),
    sex: parseSex(o.sex, `${where}: field "sex"`),
  };
}

async function runBatch(engine: Engine, args: Args & { batch: string }): Promise<number> {
  const target = await outputTarget(args.out);
  const out = createWriteStream(target.path);
  const rl = createInterface({ input: createReadStream(args.batch), crlfDelay: Infinity });
  let lineNo = 0;
  let n = 0;
  let failed = 0;
  const t0 = performance.now();
  try {
    for await (const line of rl) {
      lineNo++;
      if (!line.trim()) continue;
      const c = parseCaseLine(line, lineNo, args.batch);
      let row: object;
      try {
        row = compactLine(c.id, await analyzeCase(engine, c, args.top));
      } catch (e) {
        if (!(isCaseInputError(e) || e instanceof AssemblyRequiredError || (e as NodeJS.ErrnoException).code === 'ENOENT')) throw e;
        // The case is reported, not dropped: its line carries the error and the exit code is 1.
        failed++;
        console.error(`rarelens analyze: ${args.batch}:${lineNo} (${c.id}): ${(e as Error).message}`);
        row = { id: c.id, error: (e as Error).message, diseases: [], genes: [], variants: [] };
      }
      n++;
      if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    await target.commit();
  } catch (e) {
    // Let pending writes finish before removing the partial file (no half-written output is left).
    await new Promise<void>((done) => out.end(() => done()));
    await target.discard();
    throw e;
  }
  console.error(`analyzed ${n} cases in ${((performance.now() - t0) / 1000).toFixed(2)} s${failed ? `, ${failed} failed (see their "error" field)` : ''}; wrote ${args.out}`);
  return failed ? 1 : 0;
}

export function run(argv: string[]): Promise<number> {
  return runCommand('analyze', USAGE, argv, () => analyze(parseAnalyzeArgs(argv)));
}

async function analyze(args: Args): Promise<number> {
  try {
    const engine = new Engine(args.kb, await loadHpoKb(args.kb));
    try {
      if (args.batch) return await runBatch(engine, { ...args, batch: args.batch });
      const t0 = performance.now();
      const c: CaseSpec = { id: 'case', vcf: args.vcf ?? null, assembly: args.assembly, sample: args.sample, ped: args.ped, present: args.hpo, excluded: args.exclude, sex: args.sex };
      const r = await analyzeCase(engine, c, args.top);
      const body = {
        software: 'rarelens analyze',
        kb: { dir: args.kb, hpo: engine.hpo.versions.hpo, annotations: engine.hpo.versions.annotations, mondo: engine.hpo.versions.mondo },
        input: { vcf: r.vcfInfo ?? null, ped: args.ped ?? null, hpoPresent: args.hpo, hpoExcluded: args.exclude, sex: args.sex },
        family: r.family && r.full ? familyOutput(r.family, r.full) : null,
        mode: r.full ? 'genotype+phenotype' : 'phenotype-only',
        ...(r.full
          ? { used: r.full.used, ignored: r.full.ignored, counts: r.full.counts, diseases: r.full.diseases, genes: r.full.genes, variants: r.full.variants.map(({ variant: _v, ...rest }) => rest) }
          : { used: r.pheno?.used, ignored: r.pheno?.ignored, diseases: r.pheno?.diseases, genes: r.pheno?.genes, variants: [] }),
      };
      await writeFile(args.out, JSON.stringify(body, null, 2));
      const top = r.full?.genes[0] ?? r.pheno?.genes[0];
      const topD = (r.full ?? r.pheno)?.diseases[0];
      console.error(`ranked in ${((performance.now() - t0) / 1000).toFixed(2)} s; top disease ${topD ? `${topD.id} ${topD.name}` : '-'}; top gene ${top?.symbol ?? '-'}; wrote ${args.out}`);
      return 0;
    } finally {
      await engine.close();
    }
  } catch (e) {
    if (e instanceof AssemblyRequiredError) {
      console.error(`rarelens analyze: ${e.message}.\nRun again with --assembly GRCh37 or --assembly GRCh38.`);
      return 2;
    }
    if (isCaseInputError(e)) {
      console.error(`rarelens analyze: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
