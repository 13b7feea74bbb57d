/** Test builders for the cases API shapes: a completed case with three given terms by default. */
import type { ProductDetails, ProductSummary } from '@rarelens/contract';

export function buildProductSummary(over: Partial<ProductSummary> = {}): ProductSummary {
  return {
    id: 'p1',
    caseId: 'CASE-1',
    name: 'CASE-1',
    status: 'Completed',
    isShared: false,
    isOwner: true,
    sharedBy: null,
    sharedByName: null,
    createdAt: '2026-11-20T09:30:00.000Z',
    progress: 100,
    progressStage: null,
    rawDataAnalysis: false,
    error: null,
    hpoTermCount: 3,
    hpoTermsSource: 'given',
    ...over,
  };
}

export function buildProductDetails(over: Partial<ProductDetails> = {}): ProductDetails {
  const hpoTerms = over.hpoTerms ?? [
    { id: 'HP:0011304', label: 'Broad thumb' },
    { id: 'HP:0000244', label: 'Brachyturricephaly' },
    { id: 'HP:0001770', label: 'Toe syndactyly' },
  ];
  return {
    ...buildProductSummary({ hpoTermCount: hpoTerms.length }),
    gender: 'female',
    symptoms: 'Broad thumbs, fused toes',
    hpoTerms,
    excludedTerms: [],
    assemblyRequested: 'auto',
    assembly: 'GRCh38',
    genomeFormat: 'vcf',
    imageDescription: null,
    files: [],
    run: null,
    sharedWith: [],
    ...over,
  };
}
