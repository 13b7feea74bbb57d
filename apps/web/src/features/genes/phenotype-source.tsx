import type { GenePhenotypeSource } from '@rarelens/contract';
import { DiseaseIdLink } from '../phenotypes/index.ts';

/** The plain words for where a ranked gene's phenotype evidence comes from, before the disease. */
const SOURCE_WORDS: Record<GenePhenotypeSource['source'], string> = {
  annotations: 'annotated disease',
  allelic: 'possibly allelic disease of',
  'disease-name': 'disease known only by name',
  series: 'phenotype borrowed from the series of',
  'similar-titles': 'phenotype inferred from diseases with similar names, for',
  none: 'possible new disease gene (no annotated disease)',
};

/**
 * "Ranked on: …": where the gene's phenotype evidence comes from (issue 17). Renders nothing for
 * analyses ranked before the source was stored (null); their explanation still says it in words.
 */
export function PhenotypeSourceLabel({ source }: { source: GenePhenotypeSource | null }) {
  if (!source) return null;
  const disease = source.source === 'none' ? null : source.disease;
  return (
    <p
      className="border-t border-ink-100 px-5 py-3 text-sm text-ink-700"
      data-testid="gene-phenotype-source"
    >
      <span className="font-semibold text-ink-900">Ranked on: </span>
      {SOURCE_WORDS[source.source]}
      {disease ? (
        <>
          {' '}
          <span className="text-ink-900">{disease.label}</span> <DiseaseIdLink id={disease.id} />
        </>
      ) : null}
      {source.source === 'disease-name' || source.source === 'similar-titles' ? (
        <span className="text-ink-500"> (no HPO annotations yet)</span>
      ) : null}
    </p>
  );
}
