/** The genes feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { useGenes } from './genes.api.ts';
export { GeneScoreLabel } from './gene-score-label.tsx';
