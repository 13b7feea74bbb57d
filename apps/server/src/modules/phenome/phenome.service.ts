/**
 * PhenomeAI for the API: one extractor per process, built on first use from the knowledge
 * base's HPO (RARELENS_KB) or, before a KB is built, from the reference HPO release
 * (RARELENS_SOURCES). The optional LLM assist is used when configured; its failures fall back
 * to the offline result.
 */
import type { Ontology } from '@rarelens/engine';
import {
  caseProfile,
  createPhenome,
  extractWithLlm,
  type LlmConfig,
  type PhenomeExtraction,
  type PhenomeTerm,
} from '@rarelens/phenome';
import { AppError } from '../../errors.ts';
import { loadOnce } from '../../kb/load-once.ts';
import { ErrorCode } from '@rarelens/contract';

export interface PhenomeResult extends PhenomeExtraction {
  hpoVersion: string;
  llmUsed: boolean;
}

export interface PhenomeService {
  extract(text: string): Promise<PhenomeResult>;
}

export interface PhenomeServiceDeps {
  /** The HPO to extract with; null when none is available (the route answers 503). */
  ontology: () => Promise<Ontology | null>;
  llm?: LlmConfig;
}

export function createPhenomeService(deps: PhenomeServiceDeps): PhenomeService {
  // A failed or empty load is retried on the next request.
  const load = loadOnce(() =>
    deps
      .ontology()
      // createPhenome defaults = SHIPPED_PHENOME_OPTIONS, the configuration bench:phenome reports.
      .then((ontology) => (ontology ? { phenome: createPhenome(ontology), ontology } : null)),
  );
  return {
    async extract(text) {
      const loaded = await load();
      if (!loaded) {
        throw new AppError(
          503,
          ErrorCode.internal,
          'The HPO is not available; run `npx rarelens kb build` or set RARELENS_SOURCES',
        );
      }
      const { phenome, ontology } = loaded;
      if (!deps.llm)
        return {
          hpoVersion: phenome.ontologyVersion,
          ...phenome.extractFindings(text),
          llmUsed: false,
        };
      const res = await extractWithLlm(phenome, ontology, text, deps.llm);
      return {
        hpoVersion: phenome.ontologyVersion,
        terms: res.terms,
        modifiers: res.modifiers,
        llmUsed: res.llm.used,
      };
    },
  };
}

/**
 * The terms of a case read from its symptoms (a case submitted without HPO terms): the
 * patient's own, asserted findings as present terms, the patient's negated findings as excluded
 * terms; hedged, family and nested general mentions, and terms outside Phenotypic abnormality
 * (inheritance, onset, course), are left out. No HPO available = no terms.
 */
export async function caseTermsFromText(
  service: PhenomeService,
  text: string,
): Promise<{ hpoTerms: string[]; excludedTerms: string[] }> {
  let terms: PhenomeTerm[];
  try {
    terms = (await service.extract(text)).terms;
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 503)
      return { hpoTerms: [], excludedTerms: [] };
    throw err;
  }
  // Only the patient's stated findings (Phenotypic abnormality: `terms`, not `modifiers`) make
  // the phenotype profile the case is ranked on: an inheritance mode, onset or course term
  // ("autosomal dominant", "childhood onset") describes the disease, not a symptom. The
  // benchmark scores the same rule.
  const { present, excluded } = caseProfile(terms);
  return { hpoTerms: present, excludedTerms: excluded };
}
