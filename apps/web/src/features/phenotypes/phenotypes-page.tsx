import type { PhenotypeRow, ProductDetails } from '@rarelens/contract';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/card.tsx';
import { StethoscopeIcon } from '../../components/icons.tsx';
import { RankedPanel, RankedRowLink, RankedTable } from '../../components/ranked-table.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { useProductId } from '../../app/layouts/product-layout.tsx';
import { cn } from '../../lib/cn.ts';
import { useProduct, ResultsPage } from '../cases/index.ts';
import { ShareCaseButton } from '../sharing/index.ts';
import { SignificanceBadge, VariantEvidenceDrawer, VariantsPanel } from '../variants/index.ts';
import { CaseFamily } from '../family/index.ts';
import { CaseRawData } from '../raw-data/index.ts';
import { RankedDiseaseName } from './phenotype-source-note.tsx';
import {
  countMatched,
  symptomTerms,
  GeneChips,
  InheritanceList,
  PROBABILITY_HELP,
  ProbabilityBar,
  ProbabilityLabel,
} from './phenotype-ui.tsx';
import { usePhenotypesPage } from './phenotypes.api.ts';

export type ResultsView = 'diseases' | 'variants';

/** Switches the results between ranked diseases and the variant list (?view=). */
export function ResultsTabs({ view }: { view: ResultsView }) {
  const [params] = useSearchParams();
  const tabs: Array<{ key: ResultsView; label: string }> = [
    { key: 'diseases', label: 'Ranked diseases' },
    { key: 'variants', label: 'Variants' },
  ];
  return (
    <div
      role="tablist"
      aria-label="Results"
      className="mb-5 inline-flex rounded-lg border border-ink-100 bg-white p-1 shadow-card"
    >
      {tabs.map((tab) => {
        const next = new URLSearchParams();
        if (tab.key === 'variants') {
          next.set('view', 'variants');
          for (const key of [
            'mode',
            'vpage',
            'consequence',
            'maxAf',
            'clinvar',
            'acmg',
            'zygosity',
            'gene',
          ]) {
            const value = params.get(key);
            if (value !== null) next.set(key, value);
          }
        } else {
          const page = params.get('page');
          if (page) next.set('page', page);
        }
        return (
          <Link
            key={tab.key}
            role="tab"
            aria-selected={view === tab.key}
            to={{ search: next.toString() }}
            className={cn(
              'rounded-md px-3.5 py-1.5 text-sm font-medium transition-colors',
              view === tab.key
                ? 'bg-ink-900 text-white'
                : 'text-ink-600 hover:bg-ink-50 hover:text-ink-900',
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </div>
  );
}

function phenotypePath(productId: string, id: string): string {
  return `/my-product/${encodeURIComponent(productId)}/phenotypes/${encodeURIComponent(id)}`;
}

/**
 * "matched / terms": the denominator is the patient terms the ranking used (the row's
 * matchedTerms), as on the disease's details; terms implied by a more specific one, or not
 * phenotypic abnormalities, are not among them.
 */
function MatchedCell({ row }: { row: PhenotypeRow }) {
  const matched = countMatched(row.matchedTerms);
  const total = symptomTerms(row.matchedTerms).length;
  const names = symptomTerms(row.matchedTerms)
    .filter((t) => t.match !== 'unmatched' && t.match !== 'contradicted')
    .map((t) => t.label);
  return (
    <Tooltip content={names.length > 0 ? names.join(', ') : 'No patient term matches this disease'}>
      <span tabIndex={0} className="text-xs text-ink-800 tabular-nums">
        <strong className="font-semibold">{matched}</strong>
        <span className="text-ink-400"> / {total}</span>
      </span>
    </Tooltip>
  );
}

/** The disease's name linking to its details: the table row's link, or the phone card's. */
function DiseaseName({ productId, row, card = false, children }: { productId: string; row: PhenotypeRow; card?: boolean; children?: ReactNode }) {
  const to = phenotypePath(productId, row.id);
  const name = card ? (
    <Link to={to} className="text-sm font-semibold text-ink-900 hover:underline">
      {row.name}
    </Link>
  ) : (
    <RankedRowLink to={to} className="font-medium text-ink-900 hover:text-accent-700 hover:underline">
      {row.name}
    </RankedRowLink>
  );
  return (
    <RankedDiseaseName row={row} name={name}>
      {children}
    </RankedDiseaseName>
  );
}

function DiseasesTable({ productId, rows }: { productId: string; rows: PhenotypeRow[] }) {
  return (
    <RankedTable
      testId="phenotype"
      rows={rows}
      rowKey={(row) => row.id}
      href={(row) => phenotypePath(productId, row.id)}
      columns={[
        {
          header: 'Disease',
          className: 'max-w-md px-3 py-3',
          cell: (row) => <DiseaseName productId={productId} row={row} />,
        },
        { header: 'Inheritance', cell: (row) => <InheritanceList terms={row.inheritance} /> },
        {
          header: (
            <Tooltip content={PROBABILITY_HELP.disease}>
              <span tabIndex={0}>Probability</span>
            </Tooltip>
          ),
          cell: (row) => <ProbabilityBar value={row.probability} />,
        },
        { header: 'Significance', cell: (row) => <SignificanceBadge value={row.significance} /> },
        { header: 'Symptoms', cell: (row) => <MatchedCell row={row} /> },
        { header: 'Genes', cell: (row) => <GeneChips productId={productId} genes={row.genes} /> },
      ]}
      card={(row) => (
        <>
          <DiseaseName productId={productId} row={row} card>
            <InheritanceList terms={row.inheritance} />
          </DiseaseName>
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1.5">
            <span className="flex items-center gap-1.5" data-testid="card-probability">
              <ProbabilityLabel kind="disease" />
              <ProbabilityBar value={row.probability} />
            </span>
            <SignificanceBadge value={row.significance} />
            <MatchedCell row={row} />
          </div>
          <div className="mt-2">
            <GeneChips productId={productId} genes={row.genes} />
          </div>
        </>
      )}
    />
  );
}

function DiseasesPanel({ product }: { product: ProductDetails }) {
  const paged = usePhenotypesPage(product);
  return (
    <RankedPanel
      {...paged}
      loadingLabel="Loading phenotypes"
      empty={
        <EmptyState icon={<StethoscopeIcon />} title="No disease ranked for this case">
          {product.hpoTerms.length === 0
            ? 'The case has no HPO terms: add the patient’s phenotype in the Diagnose module to rank diseases.'
            : 'None of the knowledge base’s diseases matches the patient’s terms and variants.'}
        </EmptyState>
      }
    >
      {(data) => {
        // The patient terms the ranking used (every row has one entry per used term).
        const rankedTerms = data.items[0] ? symptomTerms(data.items[0].matchedTerms).length : product.hpoTerms.length;
        return (
          <>
            <p className="mb-2 text-xs text-ink-500">
              {data.total.toLocaleString('en-US')}
              {data.totalIsCapped ? '+' : ''} diseases ranked for {rankedTerms} patient
              term{rankedTerms === 1 ? '' : 's'}
              {rankedTerms < product.hpoTerms.length
                ? ` (of ${product.hpoTerms.length} given: the others are implied by a more specific term or are not phenotypic abnormalities)`
                : ''}
            </p>
            <DiseasesTable productId={product.id} rows={data.items} />
          </>
        );
      }}
    </RankedPanel>
  );
}

/** /my-product/:id/phenotypes: ranked diseases and, on the second tab, the variants. */
export function PhenotypesPage() {
  const productId = useProductId();
  const [params] = useSearchParams();
  const view: ResultsView = params.get('view') === 'variants' ? 'variants' : 'diseases';
  const product = useProduct(productId);
  return (
    <ResultsPage
      actions={product.data?.isOwner ? <ShareCaseButton productId={product.data.id} caseName={product.data.name} /> : null}
      title={view === 'variants' ? 'Variants' : 'Phenotypes'}
      description={
        view === 'variants'
          ? 'Every variant of the case, annotated and classified, with the evidence behind each call.'
          : 'Diseases ranked by how well they explain the patient’s phenotype and genotype.'
      }
    >
      {(product) => (
        <>
          <CaseFamily product={product} />
          <CaseRawData product={product} />
          <ResultsTabs view={view} />
          {view === 'variants' ? <VariantsPanel product={product} /> : <DiseasesPanel product={product} />}
          <VariantEvidenceDrawer productId={product.id} />
        </>
      )}
    </ResultsPage>
  );
}
