import { CHAT_MAX_MESSAGE_LENGTH, type ChatCitation, type ChatConversationSummary, type ChatMessage } from '@rarelens/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { Button } from '../../components/button.tsx';
import { Alert, Card, PageHeader } from '../../components/card.tsx';
import { Sheet } from '../../components/dialog.tsx';
import { ChatIcon } from '../../components/icons.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { toast } from '../../components/toaster.tsx';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { formatDateTime } from '../../lib/format.ts';
import { ResultsGate, TermsNotice } from '../cases/index.ts';
import { askStreaming, chatApi, chatFailureOf, chatKeys, useConversation, useConversations } from './chat.api.ts';

/** The search parameter holding the open conversation (so a reload keeps it). */
const ConversationParam = 'c';

const KIND_LABEL: Record<ChatCitation['kind'], string> = {
  gene: 'Gene',
  disease: 'Disease',
  variant: 'Variant',
  hpo: 'HPO',
  clinvar: 'ClinVar',
  acmg: 'ACMG',
};

/** Answer text: lines starting with "- " become a list, other lines paragraphs. */
function AnswerText({ text }: { text: string }) {
  const blocks: Array<{ kind: 'p'; text: string } | { kind: 'ul'; items: string[] }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      const last = blocks.at(-1);
      if (last?.kind === 'ul') last.items.push(line.slice(2));
      else blocks.push({ kind: 'ul', items: [line.slice(2)] });
    } else if (line.trim() !== '') blocks.push({ kind: 'p', text: line });
  }
  return (
    <div className="space-y-2 text-sm leading-relaxed break-words text-ink-800">
      {blocks.map((b, i) =>
        b.kind === 'p' ? (
          <p key={i}>{b.text}</p>
        ) : (
          <ul key={i} className="list-disc space-y-1 pl-5">
            {b.items.map((item, j) => (
              <li key={j}>{item}</li>
            ))}
          </ul>
        ),
      )}
    </div>
  );
}

function CitationChips({ citations }: { citations: ChatCitation[] }) {
  if (citations.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Evidence">
      {citations.map((c) => (
        <li key={`${c.kind}:${c.id}`}>
          <Link
            to={c.href}
            data-testid="citation"
            data-kind={c.kind}
            className="inline-flex max-w-[18rem] items-center gap-1 rounded-full border border-accent-200 bg-accent-50 px-2.5 py-1 text-xs text-accent-800 hover:bg-accent-100 focus-visible:ring-2 focus-visible:ring-accent-500 focus-visible:outline-none"
          >
            <span className="font-semibold">{KIND_LABEL[c.kind]}</span>
            <span className="truncate">{c.label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function CopyButton({ text }: { text: string }) {
  async function handleCopy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Answer copied');
    } catch {
      toast.error('Could not copy the answer');
    }
  }
  return (
    <Button variant="ghost" size="sm" onClick={() => void handleCopy()} aria-label="Copy answer">
      Copy
    </Button>
  );
}

function MessageBubble({ message, isStreaming = false }: { message: Pick<ChatMessage, 'role' | 'text' | 'citations'>; isStreaming?: boolean }) {
  if (message.role === 'user') {
    return (
      <li className="flex justify-end" data-testid="chat-question">
        <p className="max-w-[85%] rounded-2xl rounded-br-sm bg-brand-700 px-4 py-2.5 text-sm whitespace-pre-wrap break-words text-white">{message.text}</p>
      </li>
    );
  }
  return (
    <li className="flex" data-testid="chat-answer" aria-busy={isStreaming || undefined}>
      <div className="w-full max-w-[95%] rounded-2xl rounded-bl-sm border border-ink-100 bg-white px-4 py-3 shadow-card">
        <div className="mb-1 flex items-center justify-between gap-2">
          <span className="text-[11px] font-semibold tracking-wide text-accent-700 uppercase">GenomeTalks</span>
          {isStreaming ? <Spinner className="size-3.5" /> : <CopyButton text={message.text} />}
        </div>
        <AnswerText text={message.text} />
        {!isStreaming ? <CitationChips citations={message.citations} /> : null}
      </div>
    </li>
  );
}

function ConversationList({
  items,
  activeId,
  onSelect,
  onNew,
}: {
  items: ChatConversationSummary[];
  activeId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
}) {
  return (
    <nav aria-label="Conversations" className="flex min-h-0 flex-col">
      <div className="p-3">
        <Button className="w-full" variant="outline" onClick={onNew}>
          New conversation
        </Button>
      </div>
      {items.length === 0 ? (
        <p className="px-4 pb-4 text-xs text-ink-500">No conversation yet.</p>
      ) : (
        <ul className="min-h-0 flex-1 overflow-y-auto px-2 pb-3">
          {items.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onSelect(c.id)}
                aria-current={c.id === activeId ? 'true' : undefined}
                className={cn(
                  'w-full rounded-lg px-3 py-2 text-left text-sm hover:bg-ink-50 focus-visible:ring-2 focus-visible:ring-accent-500 focus-visible:outline-none',
                  c.id === activeId && 'bg-accent-50 text-accent-800',
                )}
              >
                <span className="block truncate font-medium">{c.title}</span>
                <span className="block text-[11px] text-ink-400">{formatDateTime(c.updatedAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

interface Pending {
  question: string;
  answer: string;
}

function Chat({ productId }: { productId: string }) {
  const [params, setParams] = useSearchParams();
  const activeId = params.get(ConversationParam);
  const queryClient = useQueryClient();
  const conversations = useConversations(productId);
  const conversation = useConversation(productId, activeId);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<{ message: string; detail: string | null } | null>(null);
  const [isSheetOpen, setIsSheetOpen] = useState(false);
  const listEnd = useRef<HTMLLIElement>(null);
  const composer = useRef<HTMLTextAreaElement>(null);

  const messages = activeId ? (conversation.data?.messages ?? []) : [];
  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [messages.length, pending?.answer]);

  function open(id: string | null) {
    setFailure(null);
    setIsSheetOpen(false);
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set(ConversationParam, id);
      else next.delete(ConversationParam);
      return next;
    });
  }

  async function send(text: string) {
    const question = text.trim();
    if (question === '' || pending) return;
    setFailure(null);
    setDraft('');
    setPending({ question, answer: '' });
    try {
      const result = await askStreaming(
        productId,
        { message: question, ...(activeId ? { conversationId: activeId } : {}) },
        { onDelta: (piece) => setPending((p) => (p ? { ...p, answer: p.answer + piece } : p)) },
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: chatKeys.conversation(productId, result.conversationId) }),
        queryClient.invalidateQueries({ queryKey: chatKeys.list(productId), exact: true }),
      ]);
      if (result.conversationId !== activeId) open(result.conversationId);
    } catch (error) {
      // Keep what the user typed so they can send it again.
      setDraft(question);
      setFailure(chatFailureOf(error));
    } finally {
      setPending(null);
      composer.current?.focus();
    }
  }

  async function handleDelete() {
    if (!activeId) return;
    try {
      await chatApi.remove(productId, activeId);
      await queryClient.invalidateQueries({ queryKey: chatKeys.list(productId), exact: true });
      open(null);
      toast.success('Conversation deleted');
    } catch {
      toast.error('Could not delete the conversation');
    }
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    void send(draft);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(draft);
    }
  }

  const items = conversations.data?.items ?? [];
  const suggestions = conversations.data?.suggestions ?? [];
  const isEmpty = messages.length === 0 && !pending;
  const list = <ConversationList items={items} activeId={activeId} onSelect={open} onNew={() => open(null)} />;

  return (
    <div className="flex h-[calc(100dvh-13rem)] min-h-[26rem] flex-col gap-4 lg:flex-row">
      <Card className="hidden w-64 shrink-0 overflow-hidden lg:flex lg:flex-col">{list}</Card>
      <Sheet open={isSheetOpen} onOpenChange={setIsSheetOpen} title="Conversations">
        <div className="flex min-h-0 flex-1 flex-col pt-12">{list}</div>
      </Sheet>
      <Card className="flex min-h-0 min-w-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-ink-100 px-4 py-2.5">
          <Button variant="ghost" size="sm" className="lg:hidden" onClick={() => setIsSheetOpen(true)}>
            Conversations ({items.length})
          </Button>
          <p className="hidden truncate text-sm font-medium text-ink-700 lg:block">{activeId ? (conversation.data?.title ?? '') : 'New conversation'}</p>
          {activeId ? (
            <Button variant="ghost" size="sm" onClick={() => void handleDelete()} data-testid="delete-conversation">
              Delete
            </Button>
          ) : null}
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-3 py-4 sm:px-5">
          {activeId && conversation.isPending ? (
            <div className="flex justify-center py-10">
              <Spinner />
            </div>
          ) : isEmpty ? (
            <div className="mx-auto max-w-xl py-6 text-center">
              <div className="mx-auto mb-3 flex size-12 items-center justify-center rounded-xl bg-accent-50 text-accent-600">
                <ChatIcon className="size-6" />
              </div>
              <h2 className="text-base font-semibold text-ink-900">Ask about this case</h2>
              <p className="mt-1 text-sm text-ink-500">Answers come from the case’s ranked results and the knowledge base, with the evidence linked.</p>
              {suggestions.length ? (
                <ul className="mt-5 flex flex-wrap justify-center gap-2" aria-label="Suggested questions">
                  {suggestions.map((s) => (
                    <li key={s}>
                      <Button variant="outline" size="sm" onClick={() => void send(s)} data-testid="suggested-question">
                        {s}
                      </Button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : (
            // The live log wraps the list: the role on the <ol> itself took its items' list semantics away.
            <div role="log" aria-live="polite" aria-label="Messages">
              <ol className="flex flex-col gap-4">
                {messages.map((m) => (
                  <MessageBubble key={m.id} message={m} />
                ))}
                {pending ? (
                  <>
                    <MessageBubble message={{ role: 'user', text: pending.question, citations: [] }} />
                    <MessageBubble message={{ role: 'assistant', text: pending.answer, citations: [] }} isStreaming />
                  </>
                ) : null}
                <li ref={listEnd} aria-hidden="true" />
              </ol>
            </div>
          )}
        </div>
        <form onSubmit={handleSubmit} className="border-t border-ink-100 p-3 sm:p-4">
          {failure ? (
            <Alert tone="error" className="mb-3">
              {failure.message}
              {failure.detail ? <span className="block text-xs">{failure.detail}</span> : null}
            </Alert>
          ) : null}
          <label htmlFor="chat-message" className="sr-only">
            Your question
          </label>
          <div className="flex items-end gap-2">
            <textarea
              id="chat-message"
              ref={composer}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={handleKeyDown}
              rows={2}
              maxLength={CHAT_MAX_MESSAGE_LENGTH}
              placeholder="Ask about this case (Enter to send, Shift+Enter for a new line)"
              aria-describedby="chat-hint"
              className="min-h-[2.75rem] flex-1 resize-y rounded-lg border border-ink-200 bg-white px-3 py-2 text-sm text-ink-900 placeholder:text-ink-400 focus:border-accent-500 focus:ring-2 focus:ring-accent-500/30 focus:outline-none"
            />
            <Button type="submit" isLoading={pending !== null} disabled={draft.trim() === ''}>
              Send
            </Button>
          </div>
          <p id="chat-hint" className="mt-1.5 text-[11px] text-ink-400">
            {draft.length > CHAT_MAX_MESSAGE_LENGTH - 500 ? `${draft.length.toLocaleString('en-US')} / ${CHAT_MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters · ` : ''}
            GenomeTalks answers from this case only and cites its evidence; check it on the linked screens.
          </p>
        </form>
      </Card>
    </div>
  );
}

/** /my-product/:id/chat: GenomeTalks, a chat assistant grounded in the case (behind the "chat" guard). */
export function ChatPage() {
  const productId = useProductId();
  useDocumentTitle('GenomeTalks');
  return (
    <div>
      <PageHeader title="GenomeTalks" description="A chat assistant about possible rare diseases, answering from this case’s results." />
      <ResultsGate productId={productId}>
        {(product) => (
          <>
            <TermsNotice product={product} />
            <Chat productId={productId} />
          </>
        )}
      </ResultsGate>
    </div>
  );
}
