/**
 * PhenomeAI for the API: one extractor per process, built on first use from the knowledge
 * base's HPO (RARELENS_KB) or, before a KB is built, from the reference HPO release
 * (RARELENS_SOURCES). The optional LLM assist is used when configured; its failures fall back
 * to the offline result.
 */
import { isOnsetTerm, type Ontology } from '@rarelens/engine';
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

/** A modifier as the API answers it: an age-of-onset modifier has category 'onset' (markOnset). */
export type PhenomeModifier = Omit<PhenomeTerm, 'category'> & { category?: PhenomeTerm['category'] | 'onset' };

export interface PhenomeResult extends Omit<PhenomeExtraction, 'modifiers'> {
  modifiers: PhenomeModifier[];
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
      if (!deps.llm) {
        const found = phenome.extractFindings(text);
        return {
          hpoVersion: phenome.ontologyVersion,
          ...found,
          modifiers: markOnset(ontology, found.modifiers),
          llmUsed: false,
        };
      }
      const res = await extractWithLlm(phenome, ontology, text, deps.llm);
      return {
        hpoVersion: phenome.ontologyVersion,
        terms: res.terms,
        modifiers: markOnset(ontology, res.modifiers),
        llmUsed: res.llm.used,
      };
    },
  };
}

/** Age-of-onset modifiers (under Onset, HP:0003674, not Onset itself) get category 'onset': the patient's onset, which the ranking scores. */
function markOnset(ontology: Ontology, modifiers: readonly PhenomeTerm[]): PhenomeModifier[] {
  return modifiers.map((m) => (isOnsetTerm(ontology, m.id) ? { ...m, category: 'onset' as const } : m));
}

/**
 * The terms of a case read from its symptoms (a case submitted without HPO terms): the
 * patient's own, asserted findings as present terms, the patient's negated findings as excluded
 * terms; hedged, family and nested general mentions, and terms outside Phenotypic abnormality
 * (inheritance, course) are left out. The patient's asserted age-of-onset terms (modifiers of
 * category 'onset', e.g. "childhood onset") join the present terms: the ranking scores the
 * patient's onset against each disease's (engine phenotype/onset.ts); an inheritance mode or
 * course describes the disease and stays out. No HPO available = no terms.
 */
export async function caseTermsFromText(
  service: PhenomeService,
  text: string,
): Promise<{ hpoTerms: string[]; excludedTerms: string[] }> {
  let extraction: PhenomeResult;
  try {
    extraction = await service.extract(text);
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 503)
      return { hpoTerms: [], excludedTerms: [] };
    throw err;
  }
  const { present, excluded } = caseProfile(extraction.terms);
  const onset = extraction.modifiers.filter((m) => m.category === 'onset' && m.subject === 'patient' && !m.negated && !m.uncertain).map((m) => m.id);
  return { hpoTerms: [...new Set([...present, ...onset])], excludedTerms: excluded };
}
