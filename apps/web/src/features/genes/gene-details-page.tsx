import type { ProductDetails } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { Alert, Card } from '../../components/card.tsx';
import { PageSpinner } from '../../components/spinner.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { ResultsGate, TermsNotice } from '../cases/index.ts';
import { DiseaseIdLink, PROBABILITY_HELP, RankExplanation } from '../phenotypes/index.ts';
import { SignificanceBadge, VariantEvidenceDrawer, VariantTable } from '../variants/index.ts';
import { useGene } from './genes.api.ts';
import { GeneProbability, GeneScoreLabel, ScoreBars } from './genes-page.tsx';
import { PhenotypeSourceLabel } from './phenotype-source.tsx';

function hgncUrl(id: string): string | null {
  return /^HGNC:\d+$/.test(id)
    ? `https://www.genenames.org/data/gene-symbol-report/#!/hgnc_id/${id}`
    : null;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="border-t border-ink-100 px-5 py-3 sm:grid sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-xs font-semibold tracking-wide text-ink-500 uppercase sm:pt-0.5">
        {label}
      </dt>
      <dd className="mt-1 text-sm text-ink-900 sm:mt-0">{children}</dd>
    </div>
  );
}

const none = <span className="text-ink-400">not available</span>;

function Details({ product, geneId }: { product: ProductDetails; geneId: string }) {
  const gene = useGene(product.id, product.run?.rankedAt ?? null, geneId);
  useDocumentTitle(gene.data ? `${gene.data.symbol} · gene` : 'Gene details');
  if (gene.isPending) return <PageSpinner label="Loading gene" />;
  if (gene.isError) return <Alert tone="error">{errorMessage(gene.error)}</Alert>;
  const g = gene.data;
  const hgnc = g.geneId ? hgncUrl(g.geneId) : null;
  return (
    <div className="flex flex-col gap-5">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-xs font-semibold tracking-wide text-accent-700 uppercase">
            Rank {g.rank} · gene
          </p>
          <h1
            className="mt-1 text-2xl font-semibold tracking-tight text-ink-900"
            data-testid="gene-symbol"
          >
            <span className="italic">{g.symbol}</span>
            {g.name ? (
              <span className="ml-2 text-lg font-normal text-ink-500">{g.name}</span>
            ) : null}
          </h1>
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <div className="flex flex-col items-start gap-0.5" data-testid="gene-probability">
            <Tooltip content={PROBABILITY_HELP.gene}>
              <span tabIndex={0} className="text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
                Probability
              </span>
            </Tooltip>
            <GeneProbability value={g.probability} />
          </div>
          <div className="flex flex-col items-start gap-0.5">
            <GeneScoreLabel className="text-[11px] font-semibold tracking-wide text-ink-500 uppercase" />
            <ScoreBars gene={g} />
          </div>
          <SignificanceBadge value={g.significance} />
        </div>
      </header>

      <div className="grid gap-5 xl:grid-cols-[3fr_2fr]">
        <Card className="self-start overflow-hidden">
          <h2 className="px-5 py-3.5 text-sm font-semibold text-ink-900">Gene</h2>
          <dl data-testid="gene-facts">
            <Field label="Gene ID">
              {g.geneId ? (
                hgnc ? (
                  <a
                    href={hgnc}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-mono text-accent-700 hover:underline"
                  >
                    {g.geneId}
                  </a>
                ) : (
                  <span className="font-mono">{g.geneId}</span>
                )
              ) : (
                none
              )}
            </Field>
            <Field label="Gene name">{g.name ?? none}</Field>
            <Field label="Chromosome">{g.chromosome ?? none}</Field>
            <Field label="Type">{g.type ?? none}</Field>
            <Field label="Description">
              {g.description ? (
                <p className="leading-relaxed text-ink-700">{g.description}</p>
              ) : (
                none
              )}
            </Field>
            <Field label="Synonyms">
              {g.synonyms.length > 0 ? (
                <span className="flex flex-wrap gap-1">
                  {g.synonyms.map((s) => (
                    <span
                      key={s}
                      className="rounded bg-ink-50 px-1.5 py-0.5 font-mono text-xs text-ink-700 ring-1 ring-ink-100 ring-inset"
                    >
                      {s}
                    </span>
                  ))}
                </span>
              ) : (
                none
              )}
            </Field>
            <Field label="Inheritance">
              {g.inheritance.length > 0 ? g.inheritance.join(', ') : none}
            </Field>
            <Field label="Age of onset">
              {g.ageOfOnset.length > 0 ? g.ageOfOnset.join(', ') : none}
            </Field>
            <Field label="Significance">
              <SignificanceBadge value={g.significance} />
            </Field>
          </dl>
        </Card>
        <div className="flex flex-col gap-5">
          <Card className="overflow-hidden">
            <h2 className="px-5 py-3.5 text-sm font-semibold text-ink-900">Why this rank</h2>
            <PhenotypeSourceLabel source={g.phenotypeSource} />
            <RankExplanation lines={g.explanation} testId="gene-explanation" className="border-t border-ink-100" />
          </Card>
          <Card className="overflow-hidden">
            <h2 className="px-5 py-3.5 text-sm font-semibold text-ink-900">Associated diseases</h2>
            {g.diseases.length > 0 ? (
              <ul className="border-t border-ink-100">
                {g.diseases.map((d) => (
                  <li
                    key={d.id}
                    className="flex items-baseline justify-between gap-3 border-b border-ink-100 px-5 py-2 last:border-b-0"
                  >
                    <span className="text-sm text-ink-800">{d.label}</span>
                    <DiseaseIdLink id={d.id} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="border-t border-ink-100 px-5 py-4 text-sm text-ink-500">
                No disease association in the knowledge base.
              </p>
            )}
          </Card>
        </div>
      </div>

      <Card className="overflow-hidden">
        <div className="border-b border-ink-100 px-5 py-3.5">
          <h2 className="text-sm font-semibold text-ink-900">Variants in {g.symbol}</h2>
          <p className="mt-0.5 text-xs text-ink-500">
            {g.variantCount} variant{g.variantCount === 1 ? '' : 's'} of the case
            {g.variantCount > g.variants.length ? `, top ${g.variants.length} shown` : ''}. Select
            one for its evidence.
          </p>
        </div>
        <VariantTable variants={g.variants} productId={product.id} isGeneShown={false} />
      </Card>
      <VariantEvidenceDrawer productId={product.id} />
    </div>
  );
}

/** /my-product/:id/genes/:geneId: a ranked gene, its annotation, explanation and variants. */
export function GeneDetailsPage() {
  const productId = useProductId();
  const { geneId } = useParams();
  return (
    <ResultsGate productId={productId}>
      {(product) => (
        <>
          <TermsNotice product={product} />
          <Details product={product} geneId={geneId ?? ''} />
        </>
      )}
    </ResultsGate>
  );
}
