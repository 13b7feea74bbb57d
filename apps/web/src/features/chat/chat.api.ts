import {
  ChatConversation,
  ChatConversationList,
  ChatDeleteResponse,
  ChatResponse,
  ChatStreamEvent,
  Messages,
  type ChatRequestBody,
} from '@rarelens/contract';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, LocaleHeader, sendRefreshing, toApiError } from '../../lib/api-client.ts';
import { getLocale } from '../../lib/locale.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** Query keys of GenomeTalks (under the case, so deleting the case forgets them). */
export const chatKeys = {
  list: (productId: string) => [...productKeys.detail(productId), 'chat'] as const,
  conversation: (productId: string, id: string) => [...productKeys.detail(productId), 'chat', id] as const,
};

const base = (productId: string) => `${casesApi.path(productId)}/chat`;

export const chatApi = {
  list: (productId: string, signal?: AbortSignal) => api.get(base(productId), { schema: ChatConversationList, signal }),
  conversation: (productId: string, id: string, signal?: AbortSignal) =>
    api.get(`${base(productId)}/${encodeURIComponent(id)}`, { schema: ChatConversation, signal }),
  remove: (productId: string, id: string) => api.delete(`${base(productId)}/${encodeURIComponent(id)}`, { schema: ChatDeleteResponse }),
};

export function useConversations(productId: string) {
  return useQuery({ queryKey: chatKeys.list(productId), queryFn: ({ signal }) => chatApi.list(productId, signal) });
}

export function useConversation(productId: string, id: string | null) {
  return useQuery({
    queryKey: chatKeys.conversation(productId, id ?? ''),
    queryFn: ({ signal }) => chatApi.conversation(productId, id ?? '', signal),
    enabled: id !== null,
  });
}

/** Reads server-sent events from a response body: each complete `event:`/`data:` block once. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      yield { event, data: data.join('\n') };
    }
    if (done) return;
  }
}

/**
 * Asks a question and streams the answer: `onDelta` receives the text piece by piece; resolves
 * with the whole answer. Refreshes the session once on 401 like the JSON client. Throws
 * ApiError (with the chat failure text when the server gives no better one).
 */
export async function askStreaming(
  productId: string,
  body: ChatRequestBody,
  handlers: { onConversation?: (id: string) => void; onDelta: (text: string) => void },
  signal?: AbortSignal,
): Promise<ChatResponse> {
  const send = () =>
    fetch(base(productId), {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json', [LocaleHeader]: getLocale() },
      body: JSON.stringify(body),
      signal,
    });
  let response: Response;
  try {
    response = await sendRefreshing(send);
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, { code: 'network_error', message: Messages.chatFailure });
  }
  if (!response.ok || !response.body) throw await toApiError(response, { code: 'http_error', message: Messages.chatFailure });
  for await (const { event, data } of readEvents(response.body)) {
    if (event === ChatStreamEvent.conversation) handlers.onConversation?.((JSON.parse(data) as { conversationId: string }).conversationId);
    else if (event === ChatStreamEvent.delta) handlers.onDelta((JSON.parse(data) as { text: string }).text);
    else if (event === ChatStreamEvent.done) {
      const parsed = ChatResponse.safeParse(JSON.parse(data));
      if (parsed.success) return parsed.data;
      break;
    } else if (event === ChatStreamEvent.error) break;
  }
  throw new ApiError(500, { code: 'stream_error', message: Messages.chatFailure });
}

/** What a failed question shows: always the chat failure text (§8), with the server's reason when it is the user's to fix. */
export function chatFailureOf(error: unknown): { message: string; detail: string | null } {
  const detail = error instanceof ApiError && (error.status === 400 || error.status === 429) ? error.message : null;
  return { message: Messages.chatFailure, detail };
}
