/**
 * The knowledge base (RARELENS_KB), loaded once per process on first use and shared by the
 * HPO autocomplete, the IGV tracks and the analysis jobs. A missing KB is reported, not fatal:
 * the server still starts and answers 503 on the routes that need it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadHpoKb, type HpoKb } from '@rarelens/engine';
import type { TrackSources } from './igv.tracks.ts';

export interface KnowledgeBase {
  readonly dir: string;
  /** The HPO part; null when the KB has none (not built). */
  hpo(): Promise<HpoKb | null>;
  /** Display tracks (transcripts, ClinVar) for igv.js. */
  tracks: TrackSources;
}

export function createKnowledgeBase(dir: string): KnowledgeBase {
  let hpo: Promise<HpoKb | null> | null = null;
  return {
    dir,
    hpo() {
      hpo ??= existsSync(join(dir, 'hpo-kb.json'))
        ? loadHpoKb(dir).catch((e: unknown) => {
            hpo = null; // let a later call retry (e.g. after `rarelens kb build`)
            throw e;
          })
        : Promise.resolve(null);
      return hpo;
    },
    tracks: {
      transcripts: () => Promise.resolve(null),
      clinvar: () => Promise.resolve(null),
    },
  };
}
