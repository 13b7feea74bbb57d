/**
 * What GenomeTalks reads besides the case: the KB's HPO part, its HGNC gene table (symbols,
 * aliases) and PhenomeAI on that HPO. Loaded once per process, when the server is ready or on
 * the first question (the phenotype model behind the per-term breakdown is built then too); a
 * failed load is forgotten so a later question retries (e.g. after `rarelens kb build`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GeneIndex, genomeKbFilePath, getPhenotypeModel, loadHpoKb, readGenomeKbFile, type HpoKb } from '@rarelens/engine';
import type { ChatKnowledge } from '@rarelens/genometalks';
import { createPhenome } from '@rarelens/phenome';

export type ChatKnowledgeSource = () => Promise<ChatKnowledge>;

/** Thrown when no knowledge base is built at the configured path. */
export class KnowledgeBaseMissingError extends Error {}

/**
 * `hpo` is the HPO part the rest of the server already holds (the app's knowledge base), so the
 * process reads and keeps it once; absent, it is read from `kbDir`.
 */
export function createChatKnowledgeSource(kbDir: string, hpoOf?: () => Promise<HpoKb | null>): ChatKnowledgeSource {
  let loading: Promise<ChatKnowledge> | null = null;
  const load = async (): Promise<ChatKnowledge> => {
    const missing = () => new KnowledgeBaseMissingError(`No knowledge base at ${kbDir} (npx rarelens kb build)`);
    if (!existsSync(join(kbDir, 'hpo-kb.json'))) throw missing();
    const hpo = hpoOf ? await hpoOf() : await loadHpoKb(kbDir);
    if (!hpo) throw missing();
    const genomeDir = join(kbDir, 'genome');
    const genes = (await genomeKbFilePath(genomeDir, 'genes')) !== null ? new GeneIndex(await readGenomeKbFile<ConstructorParameters<typeof GeneIndex>[0]>(genomeDir, 'genes')) : null;
    getPhenotypeModel(hpo);
    return { hpo, genes, phenome: createPhenome(hpo.ontology) };
  };
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}
