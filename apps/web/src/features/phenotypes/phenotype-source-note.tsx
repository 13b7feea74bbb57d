import type { PhenotypeDetails, PhenotypeRow } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { Tooltip } from '../../components/tooltip.tsx';
import { DiseaseIdLink } from './disease-link.tsx';

type Unannotated = 'series' | 'disease-name';

/** A disease ranked without HPO annotations of its own; nothing for an annotated one or an older run (null). */
function unannotated(source: PhenotypeDetails['phenotypeSource']): source is Unannotated {
  return source === 'series' || source === 'disease-name';
}

const NOTES: Record<Unannotated, string> = {
  series: 'No HPO annotations yet — phenotype borrowed from its series',
  'disease-name': 'No HPO annotations yet — known only by its name (ranked on the features its name states)',
};

const BADGES: Record<Unannotated, string> = {
  series: 'No HPO annotations · series phenotype',
  'disease-name': 'No HPO annotations · ranked on its name',
};

/**
 * Says when a ranked disease has no HPO annotations of its own (issue 17). Nothing for an annotated
 * disease, nor for analyses ranked before the source was stored (null).
 */
export function PhenotypeSourceNote({ source }: { source: PhenotypeDetails['phenotypeSource'] }) {
  if (!unannotated(source)) return null;
  return (
    <p className="border-b border-ink-100 bg-amber-50 px-5 py-2.5 text-sm text-amber-900" data-testid="phenotype-source-note">
      {NOTES[source]}
    </p>
  );
}

/**
 * The same fact as a compact badge on a row of the ranked phenotypes, the full sentence as its
 * tooltip, so that a disease ranked without annotations of its own stands out in the list too.
 */
export function PhenotypeSourceBadge({ source }: { source: PhenotypeDetails['phenotypeSource'] }) {
  return unannotated(source) ? (
    <Tooltip content={NOTES[source]}>
      <span
        tabIndex={0}
        className="inline-flex items-center rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-medium text-amber-900 ring-1 ring-amber-200 ring-inset"
        data-testid="phenotype-source-badge"
      >
        {BADGES[source]}
      </span>
    </Tooltip>
  ) : null;
}

/**
 * A ranked disease as a row of a list shows it: its name (a link or plain text, as the list
 * wants), then its id link, the badge of a disease without HPO annotations and any `children`.
 */
export function RankedDiseaseName({ name, row, children }: { name: ReactNode; row: Pick<PhenotypeRow, 'id' | 'phenotypeSource'>; children?: ReactNode }) {
  return (
    <>
      {name}
      <div className="mt-0.5 flex flex-wrap items-center gap-2">
        <DiseaseIdLink id={row.id} />
        <PhenotypeSourceBadge source={row.phenotypeSource} />
        {children}
      </div>
    </>
  );
}
