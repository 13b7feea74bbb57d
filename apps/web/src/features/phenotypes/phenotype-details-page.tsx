import type { PhenotypeDetails, ProductDetails } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { Alert, Card } from '../../components/card.tsx';
import { ArrowRightIcon } from '../../components/icons.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { formatProbability } from '../../lib/format.ts';
import { GenotypeNotice, ResultsGate, TermsNotice } from '../cases/index.ts';
import { SignificanceBadge, VariantEvidenceDrawer, VariantTable } from '../variants/index.ts';
import { DiseaseIdLink } from './disease-link.tsx';
import {
  countMatched,
  GeneChips,
  InheritanceList,
  MatchBadge,
  ProbabilityBar,
  RankExplanation,
  symptomTerms,
} from './phenotype-ui.tsx';
import { usePhenotype } from './phenotypes.api.ts';
import { PhenotypeSourceNote } from './phenotype-source-note.tsx';

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-xl border border-ink-100 bg-white px-4 py-3 shadow-card">
      <p className="text-[11px] font-semibold tracking-wide text-ink-500 uppercase">{label}</p>
      <div className="mt-1.5">{children}</div>
    </div>
  );
}

function Panel({
  title,
  description,
  children,
  testId,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card className="overflow-hidden" data-testid={testId}>
      <div className="border-b border-ink-100 px-5 py-3.5">
        <h2 className="text-sm font-semibold text-ink-900">{title}</h2>
        {description ? <p className="mt-0.5 text-xs text-ink-500">{description}</p> : null}
      </div>
      {children}
    </Card>
  );
}

/** What the disease column says when a patient term met nothing: the onset line, when the disease has no onset annotation (LR 1). */
function noCounterpart(match: string): string {
  return match === 'onset' ? 'no onset annotation in the disease (not counted)' : 'no counterpart in the disease';
}

function MatchedSymptoms({ phenotype }: { phenotype: PhenotypeDetails }) {
  if (phenotype.matchedTerms.length === 0)
    return <p className="px-5 py-4 text-sm text-ink-500">The case has no HPO terms to compare.</p>;
  return (
    <>
      <ul className="divide-y divide-ink-100 sm:hidden" aria-label="Matched symptoms">
        {phenotype.matchedTerms.map((t) => (
          <li key={t.id} className="flex items-start justify-between gap-3 px-4 py-2.5 text-sm">
            <div className="min-w-0">
              <p className="font-medium text-ink-900">
                {t.label}{' '}
                <span className="font-mono text-[11px] font-normal text-ink-500">{t.id}</span>
              </p>
              <p className="mt-0.5 text-xs text-ink-600">
                →{' '}
                {t.diseaseTermId
                  ? `${t.match === 'onset' ? 'disease onset ' : ''}${t.diseaseTermLabel ?? t.diseaseTermId} (${t.diseaseTermId})`
                  : noCounterpart(t.match)}
              </p>
            </div>
            <MatchBadge match={t.match} />
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto sm:block">
        <table className="w-full text-sm" data-testid="matched-symptoms">
          <thead className="bg-ink-50/70 text-left text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
            <tr>
              <th scope="col" className="px-5 py-2">Patient term</th>
              {/* Every cell has a header (the arrow column's is read, not shown). */}
              <th scope="col" className="w-8 px-1 py-2">
                <span className="sr-only">Maps to</span>
              </th>
              <th scope="col" className="px-3 py-2">Disease term</th>
              <th scope="col" className="px-3 py-2">Match</th>
            </tr>
          </thead>
          <tbody>
            {phenotype.matchedTerms.map((t) => (
              <tr key={t.id} className="border-t border-ink-100 align-top">
                <td className="px-5 py-2.5">
                  <p className="font-medium text-ink-900">{t.label}</p>
                  <p className="font-mono text-[11px] text-ink-500">{t.id}</p>
                </td>
                <td className="px-1 py-3 text-ink-300">
                  <ArrowRightIcon className="size-4" />
                </td>
                <td className="px-3 py-2.5">
                  {t.diseaseTermId ? (
                    <>
                      <p className="text-ink-800">{t.diseaseTermLabel ?? t.diseaseTermId}</p>
                      <p className="font-mono text-[11px] text-ink-500">{t.diseaseTermId}</p>
                    </>
                  ) : (
                    <span className="text-xs text-ink-400">{noCounterpart(t.match)}</span>
                  )}
                </td>
                <td className="px-3 py-2.5">
                  <MatchBadge match={t.match} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Details({ product, phenotypeId }: { product: ProductDetails; phenotypeId: string }) {
  const phenotype = usePhenotype(product.id, product.run?.rankedAt ?? null, phenotypeId);
  useDocumentTitle(phenotype.data?.name ?? 'Phenotype details');
  if (phenotype.isPending) return <PageSpinner label="Loading phenotype" />;
  if (phenotype.isError) return <Alert tone="error">{errorMessage(phenotype.error)}</Alert>;
  const p = phenotype.data;
  const matched = countMatched(p.matchedTerms);
  return (
    <div className="flex flex-col gap-5">
      <header>
        <p className="text-xs font-semibold tracking-wide text-accent-700 uppercase">
          Rank {p.rank} · phenotype
        </p>
        <h1
          className="mt-1 text-2xl font-semibold tracking-tight text-ink-900"
          data-testid="phenotype-name"
        >
          {p.name}
        </h1>
        <div className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-ink-500">
          <DiseaseIdLink id={p.id} />
          {p.mergedIds
            .filter((id) => id !== p.id)
            .map((id) => (
              <DiseaseIdLink key={id} id={id} />
            ))}
        </div>
      </header>

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Probability">
          <p className="text-2xl font-semibold text-ink-900 tabular-nums">
            {formatProbability(p.probability)}
          </p>
          <ProbabilityBar value={p.probability} className="mt-1 [&>span]:hidden" />
        </Stat>
        <Stat label="Significance">
          <SignificanceBadge value={p.significance} />
        </Stat>
        <Stat label="Inheritance">
          <InheritanceList terms={p.inheritance} />
          {p.onset.length > 0 ? (
            <p className="mt-1.5 text-xs text-ink-500">
              Onset: {p.onset.map((o) => o.label).join(', ')}
            </p>
          ) : null}
        </Stat>
        <Stat label="Matched symptoms">
          <p className="text-2xl font-semibold text-ink-900 tabular-nums">
            {matched}
            <span className="text-base font-normal text-ink-400"> / {symptomTerms(p.matchedTerms).length}</span>
          </p>
        </Stat>
      </div>

      <div className="grid gap-5 xl:grid-cols-[3fr_2fr]">
        <Panel
          title="Matched symptoms"
          description="Each patient term and the disease annotation it met."
          testId="matched-symptoms-panel"
        >
          <MatchedSymptoms phenotype={p} />
        </Panel>
        <Panel
          title="Why this rank"
          description="Likelihood-ratio reasoning: each finding multiplies the odds of the disease."
        >
          <PhenotypeSourceNote source={p.phenotypeSource} />
          <RankExplanation lines={p.explanation} testId="phenotype-explanation" />
          <div className="border-t border-ink-100 px-5 py-3">
            <p className="mb-1.5 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
              Genes
            </p>
            <GeneChips productId={product.id} genes={p.genes} max={20} />
          </div>
          <div className="border-t border-ink-100 px-5 py-3" data-testid="phenotype-proteins">
            <p className="mb-1.5 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
              Protein IDs
            </p>
            {p.proteins.length > 0 ? (
              <ul className="flex flex-col gap-1 text-sm">
                {p.proteins.map((g) => (
                  <li key={g.gene} className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-medium text-ink-800">{g.gene}</span>
                    {g.uniprot.map((id) => (
                      <a
                        key={id}
                        href={`https://www.uniprot.org/uniprotkb/${encodeURIComponent(id)}`}
                        target="_blank"
                        rel="noreferrer"
                        className="font-mono text-xs text-accent-700 hover:underline"
                        title={`UniProt ${id}`}
                      >
                        {id}
                      </a>
                    ))}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-ink-500">No protein ID is known for the disease genes.</p>
            )}
          </div>
        </Panel>
      </div>

      <Panel
        title="Variants in the disease genes"
        description={`The case’s top variants in ${p.genes.join(', ') || 'the associated genes'}, by rank. Select one for its evidence.`}
      >
        <VariantTable variants={p.variants} productId={product.id} />
      </Panel>
      <VariantEvidenceDrawer productId={product.id} />
    </div>
  );
}

/** /my-product/:id/phenotypes/:phenotypeId: one ranked disease with its evidence. */
export function PhenotypeDetailsPage() {
  const productId = useProductId();
  const { phenotypeId } = useParams();
  return (
    <ResultsGate productId={productId}>
      {(product) => (
        <>
          <TermsNotice product={product} />
          <GenotypeNotice product={product} />
          <Details product={product} phenotypeId={phenotypeId ?? ''} />
        </>
      )}
    </ResultsGate>
  );
}
