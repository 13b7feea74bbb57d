/** Whitelists of what the GenomeTalks API returns, and the case as GenomeTalks reads it. */
import type { ChatCitation, ChatConversation, ChatConversationSummary, ChatMessage, TermRef } from '@rarelens/contract';
import type { CaseContext, Citation } from '@rarelens/genometalks';
import type { ChatConversationRow, ChatMessageRow } from '../../db/schema/chat.ts';
import type { AnalysisRunRow, ProductRow, RunGeneRow, RunPhenotypeRow, RunVariantRow } from '../../db/schema/products.ts';
import { presentRun } from '../cases/cases.service.ts';
import { presentGeneDetails } from '../genes/genes.service.ts';
import { presentPhenotype } from '../phenotypes/phenotypes.service.ts';
import { presentVariantDetails } from '../variants/variants.service.ts';
import type { ReviewerClassifications } from '../variants/index.ts';

export function presentCitation(c: Citation | ChatCitation): ChatCitation {
  return { kind: c.kind, id: c.id, label: c.label, href: c.href };
}

export function presentMessage(m: ChatMessageRow): ChatMessage {
  return {
    id: m.id,
    role: m.role,
    text: m.text,
    citations: m.citations.map((c) => presentCitation(c as ChatCitation)),
    createdAt: m.createdAt.toISOString(),
  };
}

export function presentConversationSummary(c: ChatConversationRow, messageCount: number): ChatConversationSummary {
  return { id: c.id, title: c.title, messageCount, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}

export function presentConversation(c: ChatConversationRow, messages: ChatMessageRow[]): ChatConversation {
  return { ...presentConversationSummary(c, messages.length), messages: messages.map(presentMessage) };
}

/** The case as the screens show it (the cases API presenters), for GenomeTalks to answer from. */
export function caseContextOf(
  product: ProductRow,
  results: { run: AnalysisRunRow | null; genes: RunGeneRow[]; diseases: RunPhenotypeRow[]; variants: RunVariantRow[]; candidates: number; storedVariants: number },
  label: (id: string) => string,
  reviews?: ReviewerClassifications,
): CaseContext {
  const terms = (ids: string[]): TermRef[] => ids.map((id) => ({ id, label: label(id) }));
  const run = results.run;
  return {
    product: {
      id: product.id,
      caseId: product.caseId,
      sex: product.gender,
      status: product.status,
      // The terms the stored ranking used (a re-ranking may be pending after an edit).
      hpoTerms: terms(run?.hpoTerms ?? product.hpoTerms),
      excludedTerms: terms(run?.excludedTerms ?? product.excludedTerms),
      hpoTermsSource: product.hpoTermsSource,
    },
    run: run ? presentRun(run) : null,
    genes: results.genes.map((g) => {
      const { variants: _variants, ...gene } = presentGeneDetails(g, []);
      return gene;
    }),
    diseases: results.diseases.map((d) => ({ ...presentPhenotype(d), explanation: d.explanation, mergedIds: d.mergedIds })),
    variants: results.variants.map((v) => presentVariantDetails(v, run?.inputAssembly ?? 'GRCh38', reviews)),
    totals: { variants: results.storedVariants, candidates: results.candidates },
  };
}
