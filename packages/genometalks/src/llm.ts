/**
 * Optional prose by a language model (LLM_BASE_URL / LLM_API_KEY / LLM_MODEL, OpenAI-compatible).
 * The model only rewrites the built-in answer: its evidence is that answer's text and
 * citations, nothing else. Its output is checked before anyone sees it: a gene symbol, disease
 * id, HPO id, HGVS expression, dbSNP id or locus that is not in the evidence rejects the whole
 * reply, and the built-in answer is returned instead. A timeout or HTTP error does the same.
 */
import { chatCompletion, type LlmConfig } from '@rarelens/phenome';
import type { ChatAnswer } from './context.ts';
import type { ChatKnowledge } from './knowledge.ts';

export interface LlmOutcome {
  answer: ChatAnswer;
  /** True when the model's prose was accepted. */
  used: boolean;
  /** Identifiers in the model's reply that the evidence does not contain (reply rejected). */
  rejected: string[];
  error?: string;
}

const SYSTEM_PROMPT = [
  'You are GenomeTalks, the assistant of a clinical rare-disease genomics product, answering a clinical geneticist about one patient case.',
  'Rewrite the EVIDENCE below into a clear, concise answer to the QUESTION.',
  'Use only facts stated in the evidence. Do not add any gene, disease, variant, HPO term, identifier, number or recommendation that is not in it.',
  'Copy gene symbols, disease ids, HPO ids and HGVS expressions exactly as written. If the evidence says it cannot answer, say so.',
  'Plain text; list items start with "- ". No Markdown headings, no tables.',
].join(' ');

/** Words in upper case that are not gene symbols in an answer (abbreviations of the field). */
const ABBREVIATIONS = new Set([
  'I', 'A', 'AD', 'AR', 'XL', 'XLR', 'XLD', 'MT', 'ACMG', 'AMP', 'HPO', 'OMIM', 'ORPHA', 'VUS', 'DNA', 'RNA', 'LR', 'AF', 'GT', 'VCF', 'HGVS',
  'CNV', 'SV', 'SNV', 'LOF', 'NMD', 'UTR', 'MANE', 'PLI', 'LOEUF', 'PASS', 'FILTER', 'GRCH37', 'GRCH38', 'OK', 'NOT', 'ID', 'UK', 'US',
]);

function evidenceTokens(answer: ChatAnswer): { text: string; words: Set<string> } {
  const text = [answer.text, ...answer.citations.flatMap((c) => [c.id, c.label])].join('\n');
  return { text, words: new Set(text.match(/[A-Za-z0-9][A-Za-z0-9_.:-]*/g) ?? []) };
}

/** Identifiers in `output` that the evidence does not contain. */
export function unsupportedIdentifiers(output: string, evidence: ChatAnswer, knowledge: Pick<ChatKnowledge, 'genes' | 'hpo'>): string[] {
  const { text, words } = evidenceTokens(evidence);
  const bad = new Set<string>();
  const trim = (s: string) => s.replace(/[.,;:)]+$/, '');
  for (const m of output.matchAll(/\bHP:\d{7}\b/g)) if (!words.has(m[0])) bad.add(m[0]);
  for (const m of output.matchAll(/\b(?:OMIM|ORPHA|ORPHANET|DECIPHER|MONDO):\d+\b/g)) if (!words.has(m[0])) bad.add(m[0]);
  for (const m of output.matchAll(/\brs\d{3,}\b/g)) if (!words.has(m[0])) bad.add(m[0]);
  for (const m of output.matchAll(/(?:\b[A-Z]{2}_\d+(?:\.\d+)?:)?\b[cgnmp]\.[^\s,;]+/g)) {
    const hgvs = trim(m[0]).replace(/^[A-Z]{2}_\d+(?:\.\d+)?:/, '');
    if (!text.includes(hgvs)) bad.add(hgvs);
  }
  for (const m of output.matchAll(/\b(?:chr)?(?:\d{1,2}|X|Y|MT):\d{3,}(?:-\d+)?\b/g)) if (!text.includes(m[0].replace(/^chr/, ''))) bad.add(m[0]);
  for (const m of output.matchAll(/\b[A-Z][A-Z0-9]{1,}(?:-[A-Z0-9]+)*\b/g)) {
    const token = m[0];
    if (ABBREVIATIONS.has(token) || /^(PVS|PS|PM|PP|BA|BS|BP)\d$/.test(token) || words.has(token)) continue;
    const isGene = knowledge.genes?.bySymbolExact(token)?.symbol === token || knowledge.hpo.genes.has(token);
    if (isGene) bad.add(token);
  }
  return [...bad];
}

/** The model's prose for a built-in answer, or the built-in answer when the reply fails the check. */
export async function writeWithLlm(
  config: LlmConfig,
  question: string,
  built: ChatAnswer,
  knowledge: Pick<ChatKnowledge, 'genes' | 'hpo'>,
  fetchImpl: typeof fetch = fetch,
): Promise<LlmOutcome> {
  let reply: string;
  try {
    reply = await chatCompletion(
      config,
      [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: `QUESTION:\n${question}\n\nEVIDENCE:\n${built.text}\n\nCITED ITEMS:\n${built.citations.map((c) => `${c.kind} ${c.id}: ${c.label}`).join('\n')}`,
        },
      ],
      fetchImpl,
    );
  } catch (err) {
    return { answer: built, used: false, rejected: [], error: err instanceof Error ? err.message : String(err) };
  }
  const text = reply.trim();
  if (text === '') return { answer: built, used: false, rejected: [], error: 'the model returned an empty answer' };
  const rejected = unsupportedIdentifiers(text, built, knowledge);
  if (rejected.length > 0) return { answer: built, used: false, rejected, error: `the model named ${rejected.join(', ')}, not in the evidence` };
  return { answer: { ...built, text }, used: true, rejected: [] };
}
