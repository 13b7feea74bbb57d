/**
 * GenomeTalks (chat) API: POST /api/products/:id/chat (JSON, or server-sent events when the
 * request accepts text/event-stream), GET /api/products/:id/chat (the caller's conversations
 * about the case), GET and DELETE /api/products/:id/chat/:conversationId.
 */
import { z } from 'zod';

/** Longest message accepted, in characters. */
export const CHAT_MAX_MESSAGE_LENGTH = 4000;

export const ChatMessages = {
  empty: 'Please write a message',
  tooLong: `The message is too long (at most ${CHAT_MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters)`,
} as const;

export const ChatRequestBody = z.object({
  message: z
    .string({ error: ChatMessages.empty })
    .trim()
    .min(1, ChatMessages.empty)
    .max(CHAT_MAX_MESSAGE_LENGTH, ChatMessages.tooLong),
  /** Continue this conversation; a new one is started without it. */
  conversationId: z.uuid({ error: 'Must be a conversation id' }).optional(),
});
export type ChatRequestBody = z.infer<typeof ChatRequestBody>;

export const ChatCitationKind = z.enum(['gene', 'disease', 'variant', 'hpo', 'clinvar', 'acmg']);

/** One piece of evidence an answer rests on, linking to the case screen that shows it. */
export const ChatCitation = z.object({
  kind: ChatCitationKind,
  id: z.string(),
  label: z.string(),
  /** Web-app path (e.g. /my-product/<id>/genes/FGFR2). */
  href: z.string(),
});
export type ChatCitation = z.infer<typeof ChatCitation>;

export const ChatAnswerBody = z.object({
  /** Plain text; lines starting with "- " are list items. */
  text: z.string(),
  citations: z.array(ChatCitation),
});
export type ChatAnswerBody = z.infer<typeof ChatAnswerBody>;

export const ChatResponse = z.object({
  conversationId: z.string(),
  answer: ChatAnswerBody,
});
export type ChatResponse = z.infer<typeof ChatResponse>;

export const ChatMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  citations: z.array(ChatCitation),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatConversationSummary = z.object({
  id: z.string(),
  /** The first question, shortened. */
  title: z.string(),
  messageCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatConversationSummary = z.infer<typeof ChatConversationSummary>;

export const ChatConversationList = z.object({
  items: z.array(ChatConversationSummary),
  /** Suggested first questions about this case (empty until it is Completed). */
  suggestions: z.array(z.string()),
});
export type ChatConversationList = z.infer<typeof ChatConversationList>;

export const ChatConversation = ChatConversationSummary.extend({ messages: z.array(ChatMessage) });
export type ChatConversation = z.infer<typeof ChatConversation>;

export const ChatDeleteResponse = z.object({ message: z.string() });

/**
 * Server-sent events of a streamed answer, in order: `conversation` {conversationId}, any
 * number of `delta` {text} (the answer text in pieces), then `done` (a ChatResponse) — or
 * `error` {message} (the chat failure text) instead of `done`.
 */
export const ChatStreamEvent = {
  conversation: 'conversation',
  delta: 'delta',
  done: 'done',
  error: 'error',
} as const;
