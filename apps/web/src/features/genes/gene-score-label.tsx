import { GENE_SCORE_HELP } from '@rarelens/contract';
import { Tooltip } from '../../components/tooltip.tsx';

/** The score's name and unit, with how to read it on hover or focus (genes screen and gene page). */
export function GeneScoreLabel({ className }: { className?: string }) {
  return (
    <Tooltip content={GENE_SCORE_HELP}>
      <span tabIndex={0} className={className} data-testid="gene-score-label">
        Score (log10)
      </span>
    </Tooltip>
  );
}
