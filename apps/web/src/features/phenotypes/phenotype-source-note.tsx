import type { PhenotypeDetails } from '@rarelens/contract';

const NOTES: Record<'series' | 'disease-name', string> = {
  series: 'No HPO annotations yet — phenotype borrowed from its series',
  'disease-name': 'No HPO annotations yet — known only by its name (ranked on the features its name states)',
};

/**
 * Says when a ranked disease has no HPO annotations of its own (issue 17). Nothing for an annotated
 * disease, nor for analyses ranked before the source was stored (null).
 */
export function PhenotypeSourceNote({ source }: { source: PhenotypeDetails['phenotypeSource'] }) {
  if (source !== 'series' && source !== 'disease-name') return null;
  return (
    <p
      className="border-b border-ink-100 bg-amber-50 px-5 py-2.5 text-sm text-amber-900"
      data-testid="phenotype-source-note"
    >
      {NOTES[source]}
    </p>
  );
}
