/**
 * The production AnalysisEngine: @rarelens/engine's VCF reader, annotator and ranking over
 * the knowledge base in RARELENS_KB. Loaded once per process, on the first job.
 */
import type { KnowledgeBase } from '../modules/products/knowledge-base.ts';
import type { AnalysisEngine } from './analysis-engine.ts';

export function createEngineAnalysis(kb: KnowledgeBase): () => Promise<AnalysisEngine> {
  let loading: Promise<AnalysisEngine> | null = null;
  return () => {
    loading ??= load(kb).catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}

function load(kb: KnowledgeBase): Promise<AnalysisEngine> {
  return Promise.reject(new Error(`the annotation engine is not available in this build (KB at ${kb.dir})`));
}
