// Public entry of @rarelens/genometalks.
export type { CaseContext, CaseDisease, CaseGene, CaseVariant, ChatAnswer, Citation, CitationKind, Intent } from './context.ts';
export type { ChatKnowledge } from './knowledge.ts';
export { createGenomeTalks, MAX_QUESTION_LENGTH, suggestQuestions, type GenomeTalks } from './genometalks.ts';
export { hrefs, variantName } from './citations.ts';
export { unsupportedIdentifiers, writeWithLlm, type LlmOutcome } from './llm.ts';
