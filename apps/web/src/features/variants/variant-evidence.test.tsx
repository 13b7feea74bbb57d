import '@testing-library/jest-dom/vitest';
import type { VariantDetails } from '@rarelens/contract';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { buildReview, buildVariantRow, fgfr2ClinvarAssertion } from './testing/variant-row.ts';
import { VariantEvidenceDrawer } from './variant-evidence.tsx';

vi.mock('./igv-view.tsx', () => ({
  IgvView: ({ chrom, pos }: { chrom: string; pos: number }) => (
    <div data-testid="igv-stub">{`${chrom}:${pos}`}</div>
  ),
}));
vi.mock('./variant-actions.tsx', () => ({ VariantActions: () => null }));

const variant: VariantDetails = {
  ...buildVariantRow({ transcript: 'NM_000141.5', hgvsC: 'NM_000141.5:c.1694A>C', clinvar: 'Pathogenic', acmg: 'Likely pathogenic', acmgPoints: 6, score: 0.9 }),
  clinvarAssertion: fgfr2ClinvarAssertion,
  hgncId: 'HGNC:3689',
  isManeSelect: true,
  afSource: null,
  qual: 900,
  filter: [],
  genotype: {
    gt: '0/1',
    zygosity: 'heterozygous',
    depth: 78,
    genotypeQuality: 99,
    alleleDepths: [42, 36],
    heteroplasmy: null,
  },
  input: { chrom: '10', pos: 123256215, ref: 'T', alt: 'G', line: 5166 },
  inputAssembly: 'GRCh37',
  acmgNotAssessed: [
    { code: 'BA1', reason: 'no population frequency available for this locus' },
  ],
  codingOutcome: [],
  otherGenes: [],
  geneConstraint: { pLI: 1, loeuf: 0.21, misZ: 4.6, source: 'gnomAD v4.1' },
  acmgCriteria: [
    {
      code: 'PM5',
      strength: 'Moderate',
      points: 2,
      reason: 'different pathogenic missense at the same codon',
    },
    {
      code: 'PM2_Supporting',
      strength: 'Supporting',
      points: 1,
      reason: 'absent from population databases',
    },
    { code: 'PP3', strength: 'Supporting', points: 1, reason: 'AlphaMissense 0.98' },
  ],
  clinvarRecord: {
    significance: 'Pathogenic',
    stars: 2,
    id: '13294',
    conditions: ['Pfeiffer_syndrome'],
    match: 'exact',
  },
  frequencies: [],
  rankingFilters: [
    { id: 'gene', passed: true, reason: 'not in a gene' },
    { id: 'frequency', passed: true, reason: 'population allele frequency above 2 %' },
  ],
};

beforeEach(() => {
  stubFetchByUrl({
    '/api/products/p1/variants/7': variant,
    '/api/products/p1/variants/8': {
      ...variant,
      id: 8,
      rank: null,
      rankingFilters: [
        { id: 'gene', passed: true, reason: 'not in a gene' },
        { id: 'frequency', passed: false, reason: 'population allele frequency above 2 %' },
      ],
    },
    '/api/products/p1/variants/12': { ...variant, id: 12, reviewerClassification: buildReview({ automaticClass: 'Likely pathogenic' }) },
    '/api/products/p1/variants/10': {
      ...variant,
      id: 10,
      chrom: 'MT',
      pos: 3243,
      zygosity: 'heteroplasmic',
      genotype: { gt: '1', zygosity: 'heteroplasmic', depth: 120, genotypeQuality: null, alleleDepths: [79, 41], heteroplasmy: 41 / 120 },
    },
    '/api/products/p1/variants/11': {
      ...variant,
      id: 11,
      chrom: 'MT',
      pos: 3243,
      zygosity: 'mitochondrial',
      genotype: { gt: '1', zygosity: 'mitochondrial', depth: null, genotypeQuality: null, alleleDepths: null, heteroplasmy: null },
    },
    '/api/products/p1/variants/9': {
      ...variant,
      id: 9,
      consequence: 'coding_sequence_variant',
      consequences: ['coding_sequence_variant'],
      hgvsP: null,
      codingOutcome: [
        { term: 'missense_variant', p: 0.5952 },
        { term: 'stop_gained', p: 0.2141 },
        { term: 'synonymous_variant', p: 0.1907 },
      ],
    },
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(url: string) {
  renderApp(<VariantEvidenceDrawer productId="p1" />, { url });
}

describe('VariantEvidenceDrawer', () => {
  it('stays closed without ?variant=', () => {
    renderAt('/my-product/p1/phenotypes');
    expect(screen.queryByTestId('variant-evidence')).not.toBeInTheDocument();
  });

  it('shows the ACMG criteria with points, ClinVar, honest frequencies, HGVS, genotype and the genome browser', async () => {
    renderAt('/my-product/p1/phenotypes?view=variants&variant=7');
    const drawer = await screen.findByTestId('variant-evidence');
    await within(drawer).findByTestId('acmg-criteria');

    const criteria = within(screen.getByTestId('acmg-criteria')).getAllByRole('row');
    // header, three criteria, total
    expect(criteria).toHaveLength(5);
    expect(criteria[1]).toHaveTextContent(/PM5\s*moderate\s*\+2\s*different pathogenic missense/i);
    expect(criteria[4]).toHaveTextContent(/Total\s*6/);

    expect(drawer).toHaveTextContent('2 of 4 stars');
    // The stars are an image named by their count (aria-label is not allowed on a bare span).
    expect(within(drawer).getAllByRole('img', { name: '2 of 4 review stars' }).length).toBeGreaterThan(0);
    // The release and its source, without nested brackets.
    expect(drawer).toHaveTextContent('ClinVar 2016-09 · ClinVar GRCh37 (lifted to GRCh38)');
    expect(drawer).toHaveTextContent('Pfeiffer syndrome');
    expect(within(drawer).getByRole('link', { name: 'VCV 13294' })).toHaveAttribute(
      'href',
      'https://www.ncbi.nlm.nih.gov/clinvar/variation/13294/',
    );
    expect(within(drawer).getByTestId('af-not-available')).toHaveTextContent('not available');
    expect(drawer).toHaveTextContent('NM_000141.5:c.1694A>C');
    expect(drawer).toHaveTextContent('MANE Select');
    expect(drawer).toHaveTextContent('42 / 36');
    expect(drawer).toHaveTextContent('10:123256215 T>G (GRCh37, line 5166)');
    expect(await within(drawer).findByTestId('igv-stub')).toHaveTextContent('10:121496701');
  });

  it('states a mitochondrial call by its heteroplasmy, with the fraction of reads, or that the level is unknown', async () => {
    renderAt('/my-product/p1/phenotypes?variant=10');
    let drawer = await screen.findByTestId('variant-evidence');
    await within(drawer).findByTestId('acmg-criteria');
    expect(drawer).toHaveTextContent('Heteroplasmic, 34.2 % of reads');
    expect(drawer).not.toHaveTextContent(/hemizygous/i);
    cleanup();
    renderAt('/my-product/p1/phenotypes?variant=11');
    drawer = await screen.findByTestId('variant-evidence');
    await within(drawer).findByTestId('acmg-criteria');
    expect(drawer).toHaveTextContent('Mitochondrial, heteroplasmy level unknown (the file gives no AF or AD)');
  });

  it('says "not ranked" for a variant outside the ranking', async () => {
    renderAt('/my-product/p1/phenotypes?variant=8');
    const drawer = await screen.findByTestId('variant-evidence');
    await within(drawer).findByTestId('acmg-criteria');
    expect(drawer).toHaveTextContent('10:121,496,701 T>G · not ranked');
    expect(within(drawer).getByTestId('ranking-filters-summary')).toHaveTextContent(
      'Filtered out of the gene ranking (1 of 2 filters failed)',
    );
    expect(drawer).toHaveTextContent('frequency: population allele frequency above 2 %');
  });

  it('labels the class in the header as the automatic ACMG class once a reviewer has classified the variant', async () => {
    renderAt('/my-product/p1/phenotypes?variant=7');
    const unreviewed = await screen.findAllByTestId('header-acmg');
    for (const badge of unreviewed) expect(badge).toHaveTextContent(/^ACMG\s*Likely pathogenic\s*\+6$/);
    cleanup();
    renderAt('/my-product/p1/phenotypes?variant=12');
    const drawer = await screen.findByTestId('variant-evidence');
    const reviewed = await within(drawer).findAllByTestId('header-acmg');
    for (const badge of reviewed) expect(badge).toHaveTextContent(/^Automatic ACMG\s*Likely pathogenic\s*\+6$/);
    expect(within(drawer).getByTestId('evidence-classes')).toHaveTextContent('Reviewer: Pathogenic');
  });

  it('says a ranked variant passed every ranking filter', async () => {
    renderAt('/my-product/p1/phenotypes?variant=7');
    const drawer = await screen.findByTestId('variant-evidence');
    expect(await within(drawer).findByTestId('ranking-filters-summary')).toHaveTextContent(
      'Passed every ranking filter',
    );
  });

  it('shows the expected codon outcome of a coding variant whose codon is not known, and none otherwise', async () => {
    renderAt('/my-product/p1/phenotypes?variant=9');
    const drawer = await screen.findByTestId('variant-evidence');
    expect(await within(drawer).findByTestId('coding-outcome')).toHaveTextContent(
      'Missense variant P = 0.60 · Stop gained P = 0.21 · Synonymous variant P = 0.19 (codon not known without the reference sequence)',
    );
    cleanup();
    renderAt('/my-product/p1/phenotypes?variant=7');
    await within(await screen.findByTestId('variant-evidence')).findByTestId('acmg-criteria');
    expect(screen.queryByTestId('coding-outcome')).not.toBeInTheDocument();
  });

  it('explains a failure instead of showing an empty drawer', async () => {
    renderAt('/my-product/p1/phenotypes?variant=99');
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });
});
