/**
 * Intent recognition: which of the questions GenomeTalks can answer a message asks, from its
 * wording and the entities it names. Rules, not a model: each intent has cue words, and the
 * entities decide between intents whose cues overlap ("why is FGFR2 first" is about a gene,
 * "why is this gene first" about the top candidate).
 */
import type { Intent } from './context.ts';
import type { Mentions } from './resolve.ts';

const CUES = {
  compare: /\b(compare|comparison|compared|versus|vs\.?|differences?|differ|distinguish|better than|rather than|more likely than|over)\b/,
  examine: /\b(examin\w*|check|look for|test for|tests?|assess\w*|evaluat\w*|next steps?|what else|missing|not explain\w*|n[o']t explain\w*|unexplained|fail\w* to explain|lacks?|absent|work-?up|investigat\w*|follow-?up|order|confirm\w*|ask (?:the )?(?:patient|family|parents)|atypical|argue against|against it|doesn[’']?t fit|does not fit|don[’']?t fit|do not fit)\b/,
  inheritance: /\b(inherit\w*|zygos\w*|famil\w*|parents?|parental|siblings?|brothers?|sisters?|child(?:ren)?|offspring|carriers?|recurrence|de novo|segregat\w*|mother|father|maternal|paternal|heterozyg\w*|homozyg\w*|hemizyg\w*|compound|trans|cis|phase|penetrance|pregnan\w*|genetic counsel\w*)\b/,
  limitations: /\b(could ?n[o']t|couldn[’']t|can ?not|can[’']t|not) (?:see|detect|find|cover|call)|\b(limitations?|limits?|blind spots?|missed|miss|not covered|coverage|assembl\w*|grch3[78]|hg19|hg38|liftover|lifted|filtered|filters?|how many variants|structural|copy.number|cnvs?|repeat expansions?|mosaic\w*|knowledge.base|versions?|quality|population (?:data|frequenc\w*)|frequencies)\b/,
  variant: /\b(variants?|mutations?|alleles?|hgvs|acmg|clinvar|pathogenic\w*|benign|classif\w*|criteri\w*|consequence|missense|frameshift|nonsense|splice|vus|uncertain significance|frequency|gnomad|pvs1|ps\d|pm\d|pp\d|ba1|bs\d|bp\d)\b/,
  symptom: /\b(explain\w*|caus\w*|associated|account\w* for|due to|linked|responsible|which (?:diseases?|conditions?|syndromes?|disorders?|genes?)|what (?:diseases?|conditions?|syndromes?|disorders?|genes?))\b/,
  top: /\b(top|first|best|most likely|likeliest|most probable|leading|diagnos\w*|candidates?|culprit|causal|causative|answer|winner|number one|#1|ranked highest|highest)\b/,
  why: /\b(why|how come|explain|reason|evidence|justify|support)\b/,
  help: /\b(what can you|what do you (?:do|know)|help|how do (?:i|you)|who are you|what are you|capabilit\w*|hello|hi|hey)\b/,
};

/** Decides the intent of a question given the entities found in it. */
export function recognizeIntent(question: string, m: Mentions): Intent {
  const q = question.toLowerCase().replace(/[’]/g, "'");
  const namedVariants = m.variants.length + m.positions.filter((p) => p.list === 'variant').length;
  const namedGenes = m.genes.length + m.positions.filter((p) => p.list === 'gene').length;
  const namedDiseases = m.diseases.length + m.positions.filter((p) => p.list === 'disease').length;
  const unlisted = m.positions.filter((p) => p.list === null).length;

  if (CUES.compare.test(q) || (/\bor\b/.test(q) && /\b(which|more likely|better)\b/.test(q))) {
    if (namedGenes + unlisted >= 2 || namedDiseases >= 2 || namedVariants >= 2 || namedGenes + namedDiseases >= 2) return 'compare';
  }
  if (CUES.inheritance.test(q) && !/\bfamily history\b.*\b(examine|check)\b/.test(q)) return 'inheritance';
  if (CUES.examine.test(q) && !(namedVariants > 0 && CUES.variant.test(q) && !/\b(next|examine|missing)\b/.test(q))) return 'examine-next';
  if (namedVariants > 0) return 'variant';
  if (CUES.limitations.test(q) && namedGenes === 0 && namedDiseases === 0) return 'limitations';
  if (m.terms.length > 0 && namedGenes === 0 && namedDiseases === 0 && (CUES.symptom.test(q) || !CUES.top.test(q))) return 'symptom';
  if (CUES.variant.test(q) && (namedGenes > 0 || /\b(top|first|best|causal|leading|main)\b/.test(q))) return 'variant';
  if (namedGenes > 0) return 'gene';
  if (namedDiseases > 0) return 'disease';
  if (CUES.top.test(q) || (CUES.why.test(q) && /\b(this|that|the) (gene|disease|variant|one|result)\b/.test(q))) return 'top-candidate';
  if (CUES.help.test(q)) return 'help';
  if (CUES.limitations.test(q)) return 'limitations';
  return 'unknown';
}
