/**
 * Optional LLM assist over an OpenAI-compatible /v1/chat/completions endpoint. The offline
 * result is always computed first and always kept; the model may only
 *  - propose extra terms, each accepted only if its id is a current HPO term of the indexed
 *    sub-ontology AND its text occurs verbatim (case-insensitively) in the input, and
 *  - raise or lower the confidence of offline terms (re-ranking), never remove them.
 * Anything else is dropped and counted. Timeouts and errors fall back to the offline result.
 */
import type { Ontology } from '@rarelens/engine';
import {
  categoryOf,
  separateModifiers,
  type Phenome,
  type PhenomeExtraction,
  type PhenomeTerm,
} from './phenome.ts';

export interface LlmConfig {
  /** e.g. http://127.0.0.1:8080 or https://api.example.com/v1 */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Abort the request after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Sub-ontology roots proposals must fall under (default Phenotypic abnormality). */
  roots?: readonly string[];
  /** Longer texts are not sent to the model (default 30 000 characters). */
  maxChars?: number;
}

export interface LlmReport {
  /** True when the model answered and its answer was used. */
  used: boolean;
  proposed: number;
  accepted: number;
  /** Proposals rejected, by reason. */
  dropped: { unknownId: number; outsideRoots: number; spanNotFound: number; malformed: number };
  reranked: number;
  /** Why the offline result was returned unchanged (timeout, HTTP status, bad JSON). */
  error?: string;
}

export interface AssistedResult extends PhenomeExtraction {
  llm: LlmReport;
}

/** The LLM configuration from LLM_BASE_URL, LLM_API_KEY and LLM_MODEL; undefined unless all are set. */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | undefined {
  const baseUrl = env.LLM_BASE_URL?.trim();
  const apiKey = env.LLM_API_KEY?.trim();
  const model = env.LLM_MODEL?.trim();
  if (!baseUrl || !apiKey || !model) return undefined;
  const timeout = Number(env.LLM_TIMEOUT_MS ?? '');
  return {
    baseUrl,
    apiKey,
    model,
    ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
  };
}

interface Proposal {
  id?: unknown;
  text?: unknown;
  confidence?: unknown;
}

const SYSTEM_PROMPT = [
  'You extract Human Phenotype Ontology (HPO) terms from clinical text.',
  'Reply with JSON only: {"terms": [{"id": "HP:0000000", "text": "<exact words copied from the input>", "confidence": 0.0-1.0}]}.',
  'Include the candidate terms you agree with (with your confidence) and any phenotype the candidates missed.',
  'Copy "text" verbatim from the input. Use only real HPO ids. Do not include findings that are negated or belong to relatives.',
].join(' ');

function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * One non-streamed /v1/chat/completions call (temperature 0): the first choice's message text.
 * Throws with a readable reason on timeout, HTTP error or a reply without content.
 */
export async function chatCompletion(
  config: LlmConfig,
  messages: ChatMessage[],
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const controller = new AbortController();
  const timeoutMs = config.timeoutMs ?? 10_000;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchImpl(completionsUrl(config.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
      body: JSON.stringify({ model: config.model, temperature: 0, messages }),
      signal: controller.signal,
    });
    if (!res.ok) throw new Error(`LLM endpoint answered HTTP ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new Error('LLM response has no choices[0].message.content');
    return content;
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`LLM request timed out after ${timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Parses the model's message content: a JSON object with a terms array (code fences tolerated). */
function parseProposals(content: string): Proposal[] {
  const stripped = content.replace(/^\s*```(?:json)?/i, '').replace(/```\s*$/, '');
  const first = stripped.indexOf('{');
  const last = stripped.lastIndexOf('}');
  if (first < 0 || last < first) throw new Error('model reply holds no JSON object');
  const parsed = JSON.parse(stripped.slice(first, last + 1)) as { terms?: unknown };
  if (!Array.isArray(parsed.terms)) throw new Error('model reply has no "terms" array');
  return parsed.terms as Proposal[];
}

/** Offline extraction plus grounded LLM proposals and re-ranking. Never throws on LLM failure. */
export async function extractWithLlm(
  phenome: Phenome,
  ontology: Ontology,
  text: string,
  config: LlmConfig,
  fetchImpl: typeof fetch = fetch,
): Promise<AssistedResult> {
  const offline = phenome.extract(text);
  const report: LlmReport = {
    used: false,
    proposed: 0,
    accepted: 0,
    dropped: { unknownId: 0, outsideRoots: 0, spanNotFound: 0, malformed: 0 },
    reranked: 0,
  };
  if (text.trim() === '') return { ...separateModifiers(offline), llm: report };
  const maxChars = config.maxChars ?? 30_000;
  if (text.length > maxChars) {
    report.error = `text of ${text.length} characters exceeds the LLM assist limit of ${maxChars}`;
    return { ...separateModifiers(offline), llm: report };
  }
  const roots = config.roots ?? ['HP:0000118'];
  const candidates = offline
    .filter((t) => !t.negated)
    .map((t) => ({ id: t.id, label: t.label, text: t.text }));
  let proposals: Proposal[];
  try {
    const content = await chatCompletion(
      config,
      [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: `Text:\n${text}\n\nCandidate terms:\n${JSON.stringify(candidates)}` },
      ],
      fetchImpl,
    );
    proposals = parseProposals(content);
  } catch (err) {
    report.error = err instanceof Error ? err.message : String(err);
    return { ...separateModifiers(offline), llm: report };
  }

  report.used = true;
  report.proposed = proposals.length;
  const terms = offline.map((t) => ({ ...t }));
  const lowerText = text.toLowerCase();
  for (const p of proposals) {
    if (
      typeof p !== 'object' ||
      p === null ||
      typeof p.id !== 'string' ||
      typeof p.text !== 'string' ||
      p.text.trim() === ''
    ) {
      report.dropped.malformed++;
      continue;
    }
    const id = p.id.trim();
    const term = ontology.terms.get(id);
    if (!term || term.obsolete) {
      report.dropped.unknownId++;
      continue;
    }
    if (!roots.some((r) => ontology.isA(id, r))) {
      report.dropped.outsideRoots++;
      continue;
    }
    const llmConfidence =
      typeof p.confidence === 'number' && p.confidence >= 0 && p.confidence <= 1
        ? p.confidence
        : undefined;
    const existing = terms.filter((t) => t.id === id);
    if (existing.length > 0) {
      // Re-ranking: average the offline and model confidence of a term both found.
      if (llmConfidence !== undefined) {
        for (const t of existing)
          t.confidence = Math.round(((t.confidence + llmConfidence) / 2) * 1000) / 1000;
        report.reranked++;
      }
      continue;
    }
    const needle = p.text.trim().toLowerCase();
    const start = lowerText.indexOf(needle);
    if (start < 0) {
      report.dropped.spanNotFound++;
      continue;
    }
    const end = start + needle.length;
    const ctx = phenome.contextOf(text, start, end);
    const added: PhenomeTerm = {
      id,
      category: categoryOf(ontology, id),
      label: term.label,
      start,
      end,
      text: text.slice(start, end),
      negated: ctx.negated,
      subject: ctx.subject,
      confidence:
        Math.round(Math.min(llmConfidence ?? 0.6, 0.8) * (ctx.uncertain ? 0.6 : 1) * 1000) / 1000,
    };
    if (ctx.uncertain) added.uncertain = true;
    terms.push(added);
    report.accepted++;
  }
  terms.sort((a, b) => a.start - b.start || b.end - a.end);
  return { ...separateModifiers(terms), llm: report };
}
