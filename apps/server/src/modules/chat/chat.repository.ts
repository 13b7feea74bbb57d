/** SQL for GenomeTalks conversations and messages, and the case results a question is answered from. */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.ts';
import { findOne } from '../../db/find-one.ts';
import { deleteWhere } from '../../db/delete-where.ts';
import { chatConversations, chatMessages, type ChatConversationRow, type ChatMessageRow } from '../../db/schema/chat.ts';
import { RANK_OF_VARIANT, RANKED_VARIANT_COLUMNS } from '../../db/run-variants.ts';
import { analysisRuns, runGenes, runPhenotypes, runVariantRanks, runVariants } from '../../db/schema/products.ts';
import { insertOne } from '../../db/insert-one.ts';

export type NewChatMessage = Pick<ChatMessageRow, 'role' | 'text' | 'citations'>;

export async function listConversations(db: Executor, productId: string, userId: string) {
  return db
    .select({ conversation: chatConversations, messageCount: sql<number>`count(${chatMessages.id})::int` })
    .from(chatConversations)
    .leftJoin(chatMessages, eq(chatMessages.conversationId, chatConversations.id))
    .where(and(eq(chatConversations.productId, productId), eq(chatConversations.userId, userId)))
    .groupBy(chatConversations.id)
    .orderBy(desc(chatConversations.updatedAt), desc(chatConversations.id));
}

export function findConversation(db: Executor, id: string, productId: string, userId: string): Promise<ChatConversationRow | null> {
  return findOne(db, chatConversations, and(eq(chatConversations.id, id), eq(chatConversations.productId, productId), eq(chatConversations.userId, userId)));
}

export async function listMessages(db: Executor, conversationId: string): Promise<ChatMessageRow[]> {
  return db.select().from(chatMessages).where(eq(chatMessages.conversationId, conversationId)).orderBy(asc(chatMessages.createdAt), asc(chatMessages.role));
}

export async function insertConversation(db: Executor, c: { productId: string; userId: string; title: string }): Promise<ChatConversationRow> {
  return insertOne(db, chatConversations, c);
}

/** Appends messages in order (the question strictly before its answer) and touches the conversation. */
export async function appendMessages(db: Executor, conversationId: string, messages: NewChatMessage[]): Promise<void> {
  const now = Date.now();
  await db.insert(chatMessages).values(messages.map((m, i) => ({ ...m, conversationId, createdAt: new Date(now + i) })));
  await db.update(chatConversations).set({ updatedAt: new Date(now + messages.length) }).where(eq(chatConversations.id, conversationId));
}

export function deleteConversation(db: Executor, id: string, productId: string, userId: string): Promise<boolean> {
  return deleteWhere(db, chatConversations, and(eq(chatConversations.id, id), eq(chatConversations.productId, productId), eq(chatConversations.userId, userId)));
}

/** Everything an answer may cite from one run: ranked genes and diseases, the top candidate variants. */
export async function loadRunResults(db: Executor, runId: string, variantLimit: number) {
  const [run, genes, diseases, variants, candidates] = await Promise.all([
    db.select().from(analysisRuns).where(eq(analysisRuns.id, runId)).then((r) => r[0] ?? null),
    db.select().from(runGenes).where(eq(runGenes.runId, runId)).orderBy(asc(runGenes.rank)),
    db.select().from(runPhenotypes).where(eq(runPhenotypes.runId, runId)).orderBy(asc(runPhenotypes.rank)),
    db
      .select(RANKED_VARIANT_COLUMNS)
      .from(runVariantRanks)
      .innerJoin(runVariants, RANK_OF_VARIANT)
      .where(eq(runVariantRanks.runId, runId))
      .orderBy(asc(runVariantRanks.rank))
      .limit(variantLimit),
    db.$count(runVariants, and(eq(runVariants.runId, runId), eq(runVariants.isCandidate, true))),
  ]);
  return { run, genes, diseases, variants, candidates: Number(candidates) };
}
