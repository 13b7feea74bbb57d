// Public entry of @rarelens/phenome.
export {
  caseProfile,
  categoryOf,
  createPhenome,
  inCaseProfile,
  separateModifiers,
  SHIPPED_PHENOME_OPTIONS,
  type Phenome,
  type PhenomeCategory,
  type PhenomeExtraction,
  type PhenomeOptions,
  type PhenomeTerm,
} from './phenome.ts';
export { DEFAULT_ROOTS } from './dictionary.ts';
export { LAY_LEXICON, type LexiconEntry } from './lexicon.ts';
export { DEFAULT_HPO_FILE, defaultHpoPath, loadOntologyFile, sourcesDir } from './load.ts';
export { normalizeWord, stem, tokenize, type Token } from './normalize.ts';
export {
  chatCompletion,
  extractWithLlm,
  llmConfigFromEnv,
  type AssistedResult,
  type ChatMessage,
  type LlmConfig,
  type LlmReport,
} from './llm.ts';
export type { MentionContext } from './context.ts';
