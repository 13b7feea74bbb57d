/** /api/products/:id/phenotypes: the ranked phenotypes (diseases) of a case (list and details). Every route requires a session. */
import { PageQuery, PhenotypeDetails, PhenotypeRow, pageOf } from '@rarelens/contract';
import { z } from 'zod';
import { caseResultRoutes } from '../../http/case-results-routes.ts';
import type { PhenotypesService } from './phenotypes.service.ts';

export const phenotypesRoutes = (service: PhenotypesService) =>
  caseResultRoutes({ list: 'phenotypes', itemParam: 'phenotypeId', item: z.string().min(1).max(100), query: PageQuery, page: pageOf(PhenotypeRow), details: PhenotypeDetails, service });
