import { PhenotypeDetails, PhenotypeRow } from '@rarelens/contract';
import { rankedResults } from '../cases/index.ts';

const phenotypes = rankedResults({ path: 'phenotypes', one: 'phenotype', row: PhenotypeRow, details: PhenotypeDetails });

export const phenotypesApi = phenotypes.api;
/** A page of ranked diseases; `rankedAt` in the key refreshes it after a re-ranking. */
export const usePhenotypes = phenotypes.useList;
export const usePhenotype = phenotypes.useOne;
/** The diseases page of the URL's ?page=, with its setter. */
export const usePhenotypesPage = phenotypes.usePage;
