import { GeneDetails, GeneRow } from '@rarelens/contract';
import { rankedResults } from '../cases/index.ts';

const genes = rankedResults({ path: 'genes', one: 'gene', row: GeneRow, details: GeneDetails });

export const genesApi = genes.api;
/** A page of ranked genes; `rankedAt` in the key refreshes it after a re-ranking. */
export const useGenes = genes.useList;
export const useGene = genes.useOne;
/** The genes page of the URL's ?page=, with its setter. */
export const useGenesPage = genes.usePage;
