/** The phenotypes feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { DiseaseIdLink } from './disease-link.tsx';
export { abbreviateInheritance, countMatched, GeneChips, InheritanceList, PROBABILITY_HELP, ProbabilityBar, ProbabilityLabel, RankExplanation, symptomTerms } from './phenotype-ui.tsx';
export { phenotypesApi, usePhenotypes } from './phenotypes.api.ts';
export { PhenotypeSourceBadge, RankedDiseaseName } from './phenotype-source-note.tsx';
