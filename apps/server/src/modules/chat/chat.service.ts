/**
 * GenomeTalks: answers a question about a case from its stored results and the knowledge base
 * (packages/genometalks), optionally rewritten by the configured language model, and keeps
 * the conversation. The question and its answer are stored together once the answer exists,
 * so a failure leaves nothing half-written.
 */
import { ChatMessages, ErrorCode, Messages, type ChatConversation, type ChatConversationList, type ChatRequestBody, type ChatResponse } from '@rarelens/contract';
import { createGenomeTalks, suggestQuestions, writeWithLlm, type CaseContext, type GenomeTalks } from '@rarelens/genometalks';
import type { LlmConfig } from '@rarelens/phenome';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { UserRow } from '../../db/schema/users.ts';
import { AppError } from '../../errors.ts';
import { ResultsCache } from '../../http/results-cache.ts';
import type { AccessibleCase, CaseAccess } from '../cases/cases.service.ts';
import type { ChatKnowledgeSource } from './chat.knowledge.ts';
import { conversationNotFound } from './chat.policy.ts';
import { createReviewLookup } from '../variant-classifications/variant-classifications.service.ts';
import { caseContextOf, presentCitation, presentConversation, presentConversationSummary } from './chat.presenter.ts';
import * as repo from './chat.repository.ts';

type Caller = Pick<UserRow, 'id' | 'email'>;

/** Ranked candidate variants an answer may name (the top of the list; genes and diseases are read whole). */
const CONTEXT_VARIANTS = 300;
/**
 * Cases whose context is kept in memory (a run's results never change; a re-ranking changes
 * rankedAt). A context holds every ranked gene of the run: 5.9 MB as text for an exome
 * (5,296 genes), an estimated 15-20 MB as objects.
 */
export const CONTEXT_CACHE_SIZE = 8;

export interface ChatServiceDeps {
  database: Database;
  access: CaseAccess;
  knowledge: ChatKnowledgeSource;
  /** Optional prose by a language model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL). */
  llm?: LlmConfig | undefined;
  fetch?: typeof fetch;
  log: FastifyBaseLogger;
}

export type ChatService = ReturnType<typeof createChatService>;

const titleOf = (message: string) => (message.length > 80 ? `${message.slice(0, 79).trimEnd()}…` : message);

export function createChatService(deps: ChatServiceDeps) {
  const db = deps.database.db;
  const contexts = new ResultsCache<CaseContext>(CONTEXT_CACHE_SIZE);
  let talks: Promise<GenomeTalks> | null = null;

  const readable = (user: Caller, id: string) => deps.access.check(user, id, 'read');
  const reviewsOf = createReviewLookup(deps.database);

  async function genomeTalks(): Promise<GenomeTalks> {
    talks ??= deps.knowledge().then(createGenomeTalks, (e: unknown) => {
      talks = null;
      throw e;
    });
    try {
      return await talks;
    } catch (e) {
      deps.log.error({ err: e }, 'GenomeTalks cannot load the knowledge base');
      throw new AppError(503, ErrorCode.chatUnavailable, Messages.chatFailure);
    }
  }

  /**
   * The case as GenomeTalks reads it (every ranked gene and disease, the top candidates), kept
   * per case while its run and ranking stay: the version comes from the access check, so a
   * question about a known case reads nothing more (the results were five queries, two of them
   * whole tables of the run). One entry per case — a re-ranking replaces the case's entry
   * instead of adding one — and CONTEXT_CACHE_SIZE cases, the least recently asked first out
   * (http/results-cache.ts).
   */
  async function caseContext(found: AccessibleCase): Promise<CaseContext> {
    const p = found.caseRow;
    const empty = { run: null, genes: [], diseases: [], variants: [], candidates: 0, storedVariants: 0 };
    const knowledge = await deps.knowledge().catch(() => null);
    const label = (id: string) => knowledge?.hpo.ontology.label(id) ?? id;
    const runId = p.currentRunId;
    if (p.status !== 'Completed' || !runId) return caseContextOf(p, empty, label);
    // A reviewer's class changes what the answers say of a variant and its gene's significance.
    const reviews = await reviewsOf(p.id);
    const reviewed = [...reviews].map(([key, r]) => `${key}=${r.classification}@${r.updatedAt}`).join(',');
    const version = `${runId}|${found.runRankedAt ?? ''}|${p.status}|${reviewed}`;
    const load = async () => {
      const loaded = await repo.loadRunResults(db, runId, CONTEXT_VARIANTS);
      const ctx = caseContextOf(p, { ...loaded, storedVariants: found.storedVariants ?? 0 }, label, reviews);
      // The patient's terms resolved against the phenotype model now, not in the first answer.
      if (knowledge) (await genomeTalks().catch(() => null))?.prepare(ctx);
      return ctx;
    };
    return contexts.get(p.id, load, version);
  }

  return {
    /**
     * Loads the knowledge GenomeTalks answers from (HPO, genes, PhenomeAI, the phenotype model)
     * ahead of the first question; a failure is logged and retried by the next question.
     */
    async warm(): Promise<boolean> {
      try {
        await genomeTalks();
        return true;
      } catch {
        return false;
      }
    },

    /** Answers `body.message` in a new or the given conversation and stores both. */
    async ask(user: Caller, productId: string, body: ChatRequestBody): Promise<ChatResponse> {
      const found = await readable(user, productId);
      const message = body.message.trim();
      if (message === '') throw new AppError(400, ErrorCode.validationFailed, ChatMessages.empty);
      const existing = body.conversationId ? await repo.findConversation(db, body.conversationId, productId, user.id) : null;
      if (body.conversationId && !existing) throw conversationNotFound();
      const [engine, ctx] = await Promise.all([genomeTalks(), caseContext(found)]);
      let answer = engine.answer(message, ctx);
      if (deps.llm) {
        const knowledge = await deps.knowledge();
        const outcome = await writeWithLlm(deps.llm, message, answer, knowledge, deps.fetch);
        if (!outcome.used) deps.log.warn({ error: outcome.error, rejected: outcome.rejected }, 'GenomeTalks kept the built-in answer: the model reply was not used');
        answer = outcome.answer;
      }
      const citations = answer.citations.map(presentCitation);
      const conversationId = await db.transaction(async (tx) => {
        const conversation = existing ?? (await repo.insertConversation(tx, { productId, userId: user.id, title: titleOf(message) }));
        await repo.appendMessages(tx, conversation.id, [
          { role: 'user', text: message, citations: [] },
          { role: 'assistant', text: answer.text, citations },
        ]);
        return conversation.id;
      });
      return { conversationId, answer: { text: answer.text, citations } };
    },

    /** The caller's conversations about the case, newest first, with suggested first questions. */
    async list(user: Caller, productId: string): Promise<ChatConversationList> {
      const found = await readable(user, productId);
      const [rows, ctx] = await Promise.all([repo.listConversations(db, productId, user.id), caseContext(found)]);
      return {
        items: rows.map((r) => presentConversationSummary(r.conversation, Number(r.messageCount))),
        suggestions: suggestQuestions(ctx),
      };
    },

    async get(user: Caller, productId: string, conversationId: string): Promise<ChatConversation> {
      await readable(user, productId);
      const conversation = await repo.findConversation(db, conversationId, productId, user.id);
      if (!conversation) throw conversationNotFound();
      return presentConversation(conversation, await repo.listMessages(db, conversation.id));
    },

    async remove(user: Caller, productId: string, conversationId: string): Promise<{ message: string }> {
      await readable(user, productId);
      if (!(await repo.deleteConversation(db, conversationId, productId, user.id))) throw conversationNotFound();
      return { message: 'Conversation deleted' };
    },
  };
}
