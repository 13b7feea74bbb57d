/**
 * The knowledge base (RARELENS_KB), loaded once per process on first use and shared by the
 * HPO autocomplete, the IGV tracks and the analysis jobs. A missing KB is reported, not fatal:
 * the server still starts and answers 503 on the routes that need it, and analyses end in a
 * clear Error state.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadGenomeKb,
  loadHpoKb,
  readKbManifest,
  type GenomeKb,
  type HpoKb,
  type KbManifest,
  type Transcript,
} from '@rarelens/engine';

/** A genomic region, 1-based inclusive, contig without 'chr' ('MT' for the mitochondrion). */
export interface Region {
  chrom: string;
  start: number;
  end: number;
}

/** What the KB offers for display; null members when no KB is built. */
export interface TrackSources {
  /** The KB's transcript models overlapping the region (0-based half-open, as the engine keeps them). */
  transcripts(region: Region): Promise<Transcript[] | null>;
  clinvar(region: Region): Promise<
    { chrom: string; pos: number; ref: string; alt: string; id: string | null; significance: string; stars: number; gene: string | null }[] | null
  >;
}

export interface KnowledgeBase {
  readonly dir: string;
  /** True when a KB manifest exists (built with `npx rarelens kb build`). */
  isBuilt(): boolean;
  manifest(): Promise<KbManifest>;
  /** The HPO part; null when the KB is not built. */
  hpo(): Promise<HpoKb | null>;
  /** Genes, transcripts, ClinVar, reference bases; throws a clear error when not built. */
  genome(): Promise<GenomeKb>;
  /** Display tracks (transcripts, ClinVar) for igv.js; null when the KB is not built. */
  tracks: TrackSources;
}

/** Memoises a loader; a failed load is forgotten so a later call can retry (e.g. after a build). */
function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => {
    p ??= load().catch((e: unknown) => {
      p = null;
      throw e;
    });
    return p;
  };
}

export function createKnowledgeBase(dir: string): KnowledgeBase {
  const isBuilt = () => existsSync(join(dir, 'manifest.json'));
  const manifest = memo(() => readKbManifest(dir));
  const hpo = memo(() => (existsSync(join(dir, 'hpo-kb.json')) ? loadHpoKb(dir) : Promise.resolve(null)));
  const genome = memo(async () => {
    await manifest();
    return loadGenomeKb(dir);
  });
  return {
    dir,
    isBuilt,
    manifest,
    hpo,
    genome,
    tracks: {
      async transcripts(region) {
        if (!isBuilt()) return null;
        const kb = await genome();
        // TranscriptIndex works in 0-based half-open coordinates; regions are 1-based inclusive.
        return kb.transcripts.overlapping(region.chrom, region.start - 1, region.end).map((m) => m.tx);
      },
      async clinvar(region) {
        if (!isBuilt()) return null;
        const kb = await genome();
        return kb.clinvar.range(region.chrom, region.start, region.end).map((a) => ({
          chrom: a.chrom,
          pos: a.pos,
          ref: a.ref,
          alt: a.alt,
          id: a.id,
          significance: a.significance,
          stars: a.stars,
          gene: a.gene,
        }));
      },
    },
  };
}
