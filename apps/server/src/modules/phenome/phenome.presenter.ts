/** Response whitelist for PhenomeAI terms. */
import type { PhenomeExtractResponse, PhenomeTermDto } from '@rarelens/contract';
import type { PhenomeTerm } from '@rarelens/phenome';
import type { PhenomeModifier, PhenomeResult } from './phenome.service.ts';

export function presentPhenomeTerm(t: PhenomeTerm | PhenomeModifier): PhenomeTermDto {
  const out: PhenomeTermDto = {
    id: t.id,
    label: t.label,
    start: t.start,
    end: t.end,
    text: t.text,
    negated: t.negated,
    subject: t.subject,
    confidence: t.confidence,
    category: t.category,
  };
  if (t.uncertain) out.uncertain = true;
  return out;
}

export function presentPhenomeResult(r: PhenomeResult): PhenomeExtractResponse {
  return {
    hpoVersion: r.hpoVersion,
    terms: r.terms.map(presentPhenomeTerm),
    modifiers: r.modifiers.map(presentPhenomeTerm),
    llmUsed: r.llmUsed,
  };
}
