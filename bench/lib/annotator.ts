/** Run-time lookup of the annotation engine, so the benchmark can run parse-only before it exists. */

import * as engine from '../../packages/engine/src/index.ts';

export interface AnnotatorLike {
  annotate(v: engine.VcfVariant): unknown;
  close?(): void;
}
type LoadKb = (dir: string) => Promise<unknown>;
type CreateAnnotator = (kb: unknown, opts?: Record<string, unknown>) => AnnotatorLike;

/**
 * The annotation engine's entry points, looked up at run time so this benchmark runs (parse
 * only) before they exist: loadGenomeKb(kbDir) and createAnnotator(kb) -> { annotate(v) }.
 */
export function annotatorEntryPoints(): { loadGenomeKb: LoadKb; createAnnotator: CreateAnnotator } | null {
  const e = engine as unknown as Record<string, unknown>;
  const load = e.loadGenomeKb;
  const create = e.createAnnotator;
  return typeof load === 'function' && typeof create === 'function' ? { loadGenomeKb: load as LoadKb, createAnnotator: create as CreateAnnotator } : null;
}

