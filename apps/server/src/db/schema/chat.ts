import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, createdAtColumn, updatedAtColumn } from './columns.ts';
import { caseRef } from './products.ts';
import { userRef } from './users.ts';

/** A GenomeTalks conversation: one user's questions about one case (others who can read the case do not see it). */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: idColumn(),
    productId: caseRef(),
    userId: userRef(),
    /** The first question, shortened, for the conversation list. */
    title: text('title').notNull(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
  (t) => [index('chat_conversations_product_user_idx').on(t.productId, t.userId, t.updatedAt)],
);

/** A question or an answer; an answer keeps the citations it was shown with. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: idColumn(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    text: text('text').notNull(),
    /** [{ kind, id, label, href }] */
    citations: jsonb('citations').$type<{ kind: string; id: string; label: string; href: string }[]>().notNull().default([]),
    createdAt: createdAtColumn(),
  },
  (t) => [
    index('chat_messages_conversation_created_idx').on(t.conversationId, t.createdAt),
    check('chat_messages_role', sql`${t.role} in ('user', 'assistant')`),
  ],
);

export type ChatConversationRow = typeof chatConversations.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
