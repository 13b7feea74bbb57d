/**
 * GenomeTalks: questions about one case answered from its own results and the knowledge base.
 * `answer` is synchronous and model-free (the default); see llm.ts for the optional prose pass.
 */
import {
  answerCompare,
  answerDisease,
  answerExamineNext,
  answerGene,
  answerHelp,
  answerInheritance,
  answerLimitations,
  answerNotReady,
  answerSymptom,
  answerTopCandidate,
  answerVariant,
  suggestionsFor,
  type AnswerInput,
} from './answers.ts';
import type { CaseContext, ChatAnswer, Intent } from './context.ts';
import { prepareEvidence } from './evidence.ts';
import { recognizeIntent } from './intents.ts';
import type { ChatKnowledge } from './knowledge.ts';
import { resolveMentions } from './resolve.ts';

/** Longest question accepted (characters), as the API enforces. */
export const MAX_QUESTION_LENGTH = 4000;

export interface GenomeTalks {
  /** Answers a question about the case (throws RangeError for an empty or over-long question). */
  answer(question: string, ctx: CaseContext): ChatAnswer;
  /** Suggested first questions for an empty conversation. */
  suggestions(ctx: CaseContext): string[];
  /** Does ahead what every answer about the case needs (when the case is read, e.g. on opening the chat). */
  prepare(ctx: CaseContext): void;
}

/** The answer to each intent (help and unknown share one, which says which it was). */
const ANSWER_BY_INTENT: Readonly<Record<Intent, (input: AnswerInput, intent: Intent) => ChatAnswer>> = {
  'top-candidate': answerTopCandidate,
  gene: answerGene,
  variant: answerVariant,
  symptom: answerSymptom,
  disease: answerDisease,
  'examine-next': answerExamineNext,
  compare: answerCompare,
  inheritance: answerInheritance,
  limitations: answerLimitations,
  help: answerHelp,
  unknown: answerHelp,
  'not-ready': (input) => answerNotReady(input.ctx),
};

export function createGenomeTalks(knowledge: ChatKnowledge): GenomeTalks {
  return {
    answer(question, ctx) {
      const q = question.trim();
      if (q.length === 0) throw new RangeError('The question is empty');
      if (q.length > MAX_QUESTION_LENGTH) throw new RangeError(`The question is longer than ${MAX_QUESTION_LENGTH} characters`);
      if (ctx.product.status !== 'Completed' || !ctx.run) return answerNotReady(ctx);
      const mentions = resolveMentions(q, ctx, knowledge);
      const intent = recognizeIntent(q, mentions);
      return ANSWER_BY_INTENT[intent]({ question: q, ctx, knowledge, mentions }, intent);
    },
    suggestions: suggestQuestions,
    prepare(ctx) {
      if (ctx.product.status === 'Completed') prepareEvidence(ctx, knowledge);
    },
  };
}

/** Suggested first questions about a completed case (none before its results exist). */
export function suggestQuestions(ctx: CaseContext): string[] {
  return ctx.product.status === 'Completed' && ctx.run ? suggestionsFor(ctx) : [];
}
