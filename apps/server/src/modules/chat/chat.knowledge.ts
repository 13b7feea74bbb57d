/**
 * What GenomeTalks reads besides the case: the KB's HPO part, its HGNC gene table (symbols,
 * aliases) and PhenomeAI on that HPO. Loaded once per process on the first question (the
 * phenotype model behind the per-term breakdown is built then too); a failed load is
 * forgotten so a later question retries (e.g. after `rarelens kb build`).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GeneIndex, getPhenotypeModel, loadHpoKb } from '@rarelens/engine';
import type { ChatKnowledge } from '@rarelens/genometalks';
import { createPhenome } from '@rarelens/phenome';

export type ChatKnowledgeSource = () => Promise<ChatKnowledge>;

/** Thrown when no knowledge base is built at the configured path. */
export class KnowledgeBaseMissingError extends Error {}

export function createChatKnowledgeSource(kbDir: string): ChatKnowledgeSource {
  let loading: Promise<ChatKnowledge> | null = null;
  const load = async (): Promise<ChatKnowledge> => {
    if (!existsSync(join(kbDir, 'hpo-kb.json'))) throw new KnowledgeBaseMissingError(`No knowledge base at ${kbDir} (npx rarelens kb build)`);
    const hpo = await loadHpoKb(kbDir);
    const genesPath = join(kbDir, 'genome', 'genes.json');
    const genes = existsSync(genesPath) ? new GeneIndex(JSON.parse(await readFile(genesPath, 'utf8')) as ConstructorParameters<typeof GeneIndex>[0]) : null;
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
