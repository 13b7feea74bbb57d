/**
 * KB build orchestrator. Steps run against `<outDir>.tmp-<pid>`; only when all succeed is that
 * directory renamed over `outDir` (the previous KB stays in place until then), so a corrupt
 * source never leaves a partial KB. `loadKb` reads a built KB back for the server and the CLI.
 */
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { classifySignificance, toClinvarFile, toMissenseFile, type ClinvarAllele, type ClinvarReleases } from '../clinvar/clinvar.ts';
import { transcriptEffect, trimAllele } from '../annotate/consequence.ts';
import { LOF_TERMS } from '../annotate/so.ts';
import { packGenes, type GeneRecord } from '../genes/gene.ts';
import { loadChain, type LiftoverChain } from '../liftover/chain.ts';
import { TranscriptIndex, type Transcript } from '../transcripts/model.ts';
import { readClinvarVcf, readIntervarPs1 } from './clinvar.build.ts';
import { readGnomadSites } from './frequency.build.ts';
import { readAlphaMissenseGenes, readClinvarGeneSummary, readConstraintV2, readConstraintV4, readHgnc, readManeSummary, type GeneBuildState } from './genes.build.ts';
import { CHAIN_FILE, GENOME_DIR, loadGenomeKb, writeGenomeKbFile, type GeneSpansFile, type GenomeKb, type GenomeMeta, type RefBasesFile } from './genome-kb.ts';
import { buildHpoKb, loadHpoKb, type HpoKb } from './hpo-kb.ts';
import { encodeInt32, fileExists, packTable, readKbJsonFile, sha256File } from './io.ts';
import { GENOMIC_SOURCES, listSourceFiles, resolveSource, type ResolvedSource } from './sources.ts';
import { packTranscripts, readBed12, readGtfOrGff } from './transcripts.build.ts';
import { KbSourceError, type KbBuildContext, type KbManifest, type KbSourceEntry } from './types.ts';

export const KB_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

export interface KbProgressEvent {
  kind: 'log' | 'progress' | 'warn';
  message: string;
  step?: string;
  done?: number;
  total?: number;
}

export interface BuildKbOptions {
  sourcesDir: string;
  outDir: string;
  signal?: AbortSignal;
  onProgress?: (e: KbProgressEvent) => void;
}

/** One build step; steps run in order and share the build context. */
export interface KbStep {
  name: string;
  run(ctx: KbBuildContext): Promise<void>;
}

async function softwareVersion(): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { name?: string; version?: string };
    return `${pkg.name ?? '@rarelens/engine'}@${pkg.version ?? '0.0.0'}`;
  } catch {
    return '@rarelens/engine@unknown';
  }
}

/** The genomic step: genes, transcripts, ClinVar (+ liftover), InterVar missense, gene ClinVar stats, frequencies, reference. */
export function genomicStep(): KbStep {
  return {
    name: 'genome',
    async run(ctx) {
      const files = await listSourceFiles(ctx.sourcesDir);
      const found = new Map<string, ResolvedSource[]>();
      for (const spec of GENOMIC_SOURCES) {
        const hits = resolveSource(spec, files, ctx.sourcesDir);
        if (hits.length) found.set(spec.name, hits);
        else if (spec.required) throw new KbSourceError(ctx.sourcesDir, `required source '${spec.name}' (${spec.what}) not found; see packages/engine/src/kb/sources.ts for recognised file names`);
        else ctx.reportMissing(spec.name, `${spec.what}: no matching file in the sources directory`);
      }
      const one = (name: string): ResolvedSource | null => found.get(name)?.[0] ?? null;
      const record = async (src: ResolvedSource, version: string, extra: Partial<KbSourceEntry> = {}): Promise<void> => {
        ctx.addSource({ name: src.name, path: src.rel, version, sha256: await sha256File(src.path), ...extra });
      };
      const out = join(ctx.outDir, GENOME_DIR);
      await mkdir(out, { recursive: true });

      // Genes.
      ctx.log('genes: HGNC');
      const hgncSrc = one('hgnc')!;
      const hgnc = await readHgnc(hgncSrc, ctx.signal);
      const state: GeneBuildState = hgnc.state;
      await record(hgncSrc, hgnc.version, { records: hgnc.records });
      const mane = one('mane-summary');
      if (mane) {
        const r = await readManeSummary(mane, state, ctx.signal);
        await record(mane, /v([\d.]+)\.summary/.exec(mane.rel)?.[1] ?? 'unknown', { records: r.records, skipped: r.skipped, notes: r.skipped ? 'rows whose HGNC id is not in the HGNC set' : undefined });
      }
      for (const [name, reader, version] of [
        ['gnomad-constraint-v4', readConstraintV4, 'gnomAD v4.1'],
        ['gnomad-constraint-v2', readConstraintV2, 'gnomAD v2.1.1'],
        ['alphamissense-genes', readAlphaMissenseGenes, 'AlphaMissense 2023'],
      ] as const) {
        const src = one(name);
        if (!src) continue;
        ctx.log(`genes: ${name}`);
        const r = await reader(src, state, ctx.signal);
        await record(src, version, {
          records: r.records,
          skipped: r.skipped,
          notes: name === 'alphamissense-genes' ? 'Licence CC BY-NC-SA 4.0 (non-commercial); gene means only' : r.skipped ? 'rows that did not join to an HGNC gene' : undefined,
        });
      }
      const summary = one('clinvar-gene-summary');
      if (summary) {
        const r = await readClinvarGeneSummary(summary, state, ctx.signal);
        await record(summary, r.version, { records: r.records, skipped: r.skipped });
      }

      // Transcripts.
      const tx38Src = one('transcripts-grch38')!;
      ctx.log(`transcripts GRCh38: ${tx38Src.rel}`);
      const isBed = (s: ResolvedSource): boolean => /\.bed(12)?(\.gz)?$/.test(s.path);
      const progress = (step: string) => (n: number) => ctx.progress(step, n);
      const tx38 = isBed(tx38Src) ? await readBed12(tx38Src, state, 'GRCh38', ctx.signal) : await readGtfOrGff(tx38Src, state, ctx.signal, progress('transcripts GRCh38'));
      if (tx38.transcripts.length === 0) throw new KbSourceError(tx38Src.rel, 'no transcript models could be read');
      await record(tx38Src, /v[\d.]+|release[_-]?\d+/i.exec(tx38Src.rel)?.[0] ?? 'unknown', { records: tx38.records, skipped: tx38.skipped, notes: tx38.notes.join('; ') });
      const maneModels = tx38.transcripts.filter((t) => t.mane === 'select').length;
      const maneGenes = state.genes.filter((g) => g.maneSelect?.refseq || g.maneSelect?.ensembl).length;
      if (maneModels < maneGenes) ctx.warn(`transcripts GRCh38: ${maneModels} MANE Select models for ${maneGenes} MANE genes; ${maneGenes - maneModels} genes fall back to other transcripts or have none`);
      const writeTx = async (name: string, src: ResolvedSource, list: Transcript[]): Promise<void> => {
        await writeGenomeKbFile(out, name, packTranscripts(src.rel, list));
      };
      await writeTx('transcripts.grch38', tx38Src, tx38.transcripts);
      // GRCh37 models carry the same accessions: reuse the GRCh38 gene assignment for them.
      for (const t of tx38.transcripts) {
        const g = t.gene ? state.bySymbol.get(t.gene) : undefined;
        if (g && !state.accessionToGene.has(t.id)) state.accessionToGene.set(t.id, g);
      }
      const tx37Src = one('transcripts-grch37');
      if (tx37Src) {
        ctx.log(`transcripts GRCh37: ${tx37Src.rel}`);
        const tx37 = isBed(tx37Src) ? await readBed12(tx37Src, state, 'GRCh37', ctx.signal) : await readGtfOrGff(tx37Src, state, ctx.signal, progress('transcripts GRCh37'));
        await writeTx('transcripts.grch37', tx37Src, tx37.transcripts);
        await record(tx37Src, 'unknown', { records: tx37.records, skipped: tx37.skipped, notes: tx37.notes.join('; ') });
      }
      const index = new TranscriptIndex(tx38.transcripts);
      // Genes with a MANE span but no model: kept as spans so their variants still name the gene.
      const modelled = new Set(tx38.transcripts.map((t) => t.gene));
      const spanless = state.genes.filter((g) => g.span38 && !modelled.has(g.symbol));
      const spans: GeneSpansFile = {
        table: packTable(spanless.length, {
          str: { symbol: spanless.map((g) => g.symbol), chrom: spanless.map((g) => g.span38!.chrom) },
          i32: { start: spanless.map((g) => g.span38!.start), end: spanless.map((g) => g.span38!.end) },
        }),
      };
      await writeGenomeKbFile(out, 'genespans', spans);
      if (spanless.length) ctx.warn(`transcripts GRCh38: ${spanless.length} MANE genes have no transcript model; their variants are reported as gene_variant`);

      // ClinVar.
      const alleles: ClinvarAllele[] = [];
      const releases: ClinvarReleases = {};
      const mcByKey = new Map<string, string[]>();
      const cv38 = one('clinvar-grch38');
      if (cv38) {
        ctx.log(`ClinVar GRCh38: ${cv38.rel}`);
        const r = await readClinvarVcf(cv38, 'GRCh38', null, ctx.signal, progress('ClinVar GRCh38'));
        r.mc.forEach((terms, i) => {
          const a = r.alleles[i]!;
          mcByKey.set(`${a.chrom}:${a.pos}:${a.ref}:${a.alt}`, terms);
        });
        for (const x of r.alleles) alleles.push(x);
        releases.grch38 = r.version;
        await record(cv38, r.version, { records: r.records, skipped: r.skipped, notes: r.notes.join('; ') });
      }
      const cv37 = one('clinvar-grch37');
      const chainSrc = one('chain-hg19-hg38');
      if (cv37 && !chainSrc) ctx.warn(`ClinVar GRCh37 (${cv37.rel}) not used: no hg19ToHg38 chain to lift it`);
      if (cv37 && chainSrc) {
        ctx.log(`ClinVar GRCh37 -> GRCh38: ${cv37.rel}`);
        let chain: LiftoverChain;
        try {
          chain = await loadChain(chainSrc.path);
        } catch (e) {
          throw new KbSourceError(chainSrc.rel, (e as Error).message);
        }
        await record(chainSrc, 'UCSC hg19ToHg38');
        // The KB carries the chain so GRCh37 patient VCFs can be lifted without the sources.
        await copyFile(chainSrc.path, join(out, CHAIN_FILE));
        const r = await readClinvarVcf(cv37, 'GRCh37', chain, ctx.signal, progress('ClinVar GRCh37'));
        for (const x of r.alleles) alleles.push(x);
        releases['grch37-lifted'] = r.version;
        await record(cv37, r.version, { records: r.records, skipped: r.skipped, notes: r.notes.join('; ') });
        ctx.log(`ClinVar GRCh37: ${r.notes[r.notes.length - 1] ?? ''}`);
      }
      await writeGenomeKbFile(out, 'clinvar.grch38', toClinvarFile(alleles, releases));

      // Pathogenic missense table.
      const ps1Src = one('intervar-ps1');
      const ps1 = ps1Src ? await readIntervarPs1(ps1Src, ctx.signal) : { rows: [], records: 0, skipped: 0 };
      if (ps1Src) await record(ps1Src, '2021-08 (InterVar)', { records: ps1.records, skipped: ps1.skipped });
      await writeGenomeKbFile(out, 'missense.grch38', toMissenseFile(ps1.rows));

      // Reference bases recorded by native GRCh38 sources.
      const bases = new Map<string, Map<number, string>>();
      const addBase = (chrom: string, pos0: number, b: string): void => {
        let m = bases.get(chrom);
        if (!m) {
          m = new Map<number, string>();
          bases.set(chrom, m);
        }
        m.set(pos0, b);
      };
      for (const a of alleles) if (a.origin === 'grch38') for (let i = 0; i < a.ref.length; i++) addBase(a.chrom, a.pos - 1 + i, a.ref[i]!);
      for (const r of ps1.rows) addBase(r.chrom, r.pos - 1, r.ref);
      const refFile: RefBasesFile = { chroms: {} };
      for (const [chrom, m] of bases) {
        const keys = [...m.keys()].sort((x, y) => x - y);
        refFile.chroms[chrom] = { pos: encodeInt32(keys), bases: keys.map((k) => m.get(k)!).join('') };
      }
      await writeGenomeKbFile(out, 'refbases.grch38', refFile);

      // Gene-level ClinVar counts by consequence, computed with our own consequence engine.
      ctx.log('genes: ClinVar counts by consequence');
      const baseOf = (chrom: string, p: number): string | null => bases.get(chrom)?.get(p) ?? null;
      const stats = (g: GeneRecord): NonNullable<GeneRecord['clinvar']> =>
        (g.clinvar ??= { totalAlleles: null, plpAlleles: null, uncertain: null, conflicts: null, plpLof: 0, plpMissense: 0, blbMissense: 0 });
      const seenMissense = new Set<string>();
      const geneAt = (chrom: string, pos: number, ref: string, alt: string, symbol: string | null): { gene: GeneRecord; terms: string[] } | null => {
        const span = trimAllele(chrom, pos, ref, alt);
        const hits = index.overlapping(chrom, span.start, Math.max(span.end, span.start + 1));
        const pick = hits.find((m) => m.tx.mane === 'select' && (!symbol || m.tx.gene === symbol)) ?? hits.find((m) => m.tx.mane === 'select') ?? hits[0];
        if (!pick?.tx.gene) return null;
        const g = state.bySymbol.get(pick.tx.gene);
        const e = transcriptEffect(pick, span, baseOf);
        return g && e ? { gene: g, terms: e.consequences } : null;
      };
      for (const a of alleles) {
        const cls = classifySignificance(a.significance);
        if (cls !== 'P' && cls !== 'LP' && cls !== 'B' && cls !== 'LB') continue;
        const hit = geneAt(a.chrom, a.pos, a.ref, a.alt, a.gene);
        if (!hit) continue;
        const key = `${a.chrom}:${a.pos}:${a.ref}:${a.alt}`;
        const mc = mcByKey.get(key) ?? [];
        const terms = [...hit.terms, ...mc.map((t) => (t === 'nonsense' ? 'stop_gained' : t))];
        const s = stats(hit.gene);
        const missense = terms.includes('missense_variant');
        if (cls === 'P' || cls === 'LP') {
          if (terms.some((t) => LOF_TERMS.has(t) && t !== 'start_lost')) s.plpLof++;
          else if (missense && !seenMissense.has(key)) {
            s.plpMissense++;
            seenMissense.add(key);
          }
        } else if (missense) s.blbMissense++;
      }
      for (const r of ps1.rows) {
        const key = `${r.chrom}:${r.pos}:${r.ref}:${r.alt}`;
        if (seenMissense.has(key)) continue;
        seenMissense.add(key);
        const hit = geneAt(r.chrom, r.pos, r.ref, r.alt, null);
        if (hit) stats(hit.gene).plpMissense++;
      }
      await writeGenomeKbFile(out, 'genes', packGenes(state.genes));

      // Frequencies (optional).
      const sites = found.get('gnomad-sites');
      let frequencySource: string | null = null;
      if (sites) {
        ctx.log(`frequencies: ${sites.map((s) => s.rel).join(', ')}`);
        const r = await readGnomadSites(sites, ctx.signal, progress('gnomAD sites'));
        await writeGenomeKbFile(out, 'frequency.grch38', r.file);
        frequencySource = r.file.source;
        for (const [i, s] of sites.entries()) await record(s, /v[\d.]+/.exec(s.rel)?.[0] ?? 'unknown', { records: r.records[i], skipped: r.skipped[i] });
      }

      // Reference FASTA: recorded by path (not copied); its .fai is hashed instead of the multi-GB file.
      const fasta = one('reference-fasta');
      let referenceFasta: string | null = null;
      if (fasta) {
        if (await fileExists(`${fasta.path}.fai`)) {
          referenceFasta = resolve(fasta.path);
          ctx.addSource({ name: 'reference-fasta', path: fasta.rel, version: 'unknown', sha256: await sha256File(`${fasta.path}.fai`), notes: 'sha256 of the .fai index; the FASTA is used in place' });
        } else ctx.warn(`reference FASTA ${fasta.rel} has no .fai index (run samtools faidx); not used`);
      }
      const meta: GenomeMeta = { referenceFasta, frequencySource };
      await writeFile(join(out, 'genome.json'), JSON.stringify(meta));
      ctx.log(`genome: ${state.genes.length} genes, ${tx38.transcripts.length} GRCh38 transcripts, ${alleles.length} ClinVar alleles, ${ps1.rows.length} pathogenic missense`);
    },
  };
}

/** The HPO step (ontology, annotations, gene links), owned by the phenotype module. */
export function hpoStep(): KbStep {
  return { name: 'hpo', run: (ctx) => buildHpoKb(ctx) };
}

export const DEFAULT_KB_STEPS: readonly (() => KbStep)[] = [genomicStep, hpoStep];

/** Builds a KB from `sourcesDir` into `outDir` (atomic replace). Returns the manifest. */
export async function buildKb(opts: BuildKbOptions & { steps?: KbStep[] }): Promise<KbManifest> {
  const outDir = resolve(opts.outDir);
  const tmp = `${outDir}.tmp-${process.pid}`;
  const emit = opts.onProgress ?? (() => undefined);
  const manifest: KbManifest = { kbFormat: KB_FORMAT, builtAt: new Date().toISOString(), softwareVersion: await softwareVersion(), sources: [], missing: [], warnings: [] };
  try {
    if (!(await stat(opts.sourcesDir).catch(() => null))?.isDirectory()) throw new KbSourceError(opts.sourcesDir, 'sources directory does not exist');
  } catch (e) {
    throw e instanceof KbSourceError ? e : new KbSourceError(opts.sourcesDir, (e as Error).message);
  }
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  const ctx: KbBuildContext = {
    sourcesDir: resolve(opts.sourcesDir),
    outDir: tmp,
    signal: opts.signal,
    log: (message) => emit({ kind: 'log', message }),
    progress: (step, done, total) => emit({ kind: 'progress', step, done, total, message: `${step}: ${done}${total ? `/${total}` : ''}` }),
    addSource: (entry) => manifest.sources.push(entry),
    reportMissing: (name, reason) => {
      manifest.missing.push({ name, reason });
      emit({ kind: 'warn', message: `missing optional source ${name}: ${reason}` });
    },
    warn: (message) => {
      manifest.warnings.push(message);
      emit({ kind: 'warn', message });
    },
  };
  try {
    for (const step of opts.steps ?? DEFAULT_KB_STEPS.map((f) => f())) {
      if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('KB build aborted');
      const t0 = Date.now();
      emit({ kind: 'log', step: step.name, message: `step ${step.name}: start` });
      await step.run(ctx);
      emit({ kind: 'log', step: step.name, message: `step ${step.name}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s` });
    }
    await writeFile(join(tmp, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    await mkdir(dirname(outDir), { recursive: true });
    const old = `${outDir}.old-${process.pid}`;
    const hadOld = await stat(outDir).then(() => true, () => false);
    if (hadOld) await rename(outDir, old);
    try {
      await rename(tmp, outDir);
    } catch (e) {
      if (hadOld) await rename(old, outDir);
      throw e;
    }
    if (hadOld) await rm(old, { recursive: true, force: true });
    return manifest;
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

export interface Kb {
  dir: string;
  manifest: KbManifest;
  genome: GenomeKb;
  hpo: HpoKb;
}

/** Reads a KB manifest (clear error when the directory holds no KB or another format). */
export async function readKbManifest(dir: string): Promise<KbManifest> {
  const path = join(dir, MANIFEST_FILE);
  const m = await readKbJsonFile<KbManifest>(path, (e) => `no readable KB manifest (${e.code ?? e.message}); build one with 'rarelens kb build'`);
  if (m.kbFormat !== KB_FORMAT) throw new KbSourceError(path, `KB format ${m.kbFormat}, this software reads ${KB_FORMAT}; rebuild the KB`);
  return m;
}

/** Loads a built KB (genome + HPO). */
export async function loadKb(dir: string): Promise<Kb> {
  const manifest = await readKbManifest(dir);
  const [genome, hpo] = await Promise.all([loadGenomeKb(dir), loadHpoKb(dir)]);
  return { dir, manifest, genome, hpo };
}
