/** /api/products/:id/genes: the ranked genes of a case (list and details). Every route requires a session. */
import { GeneDetails, GeneRow, PageQuery, pageOf } from '@rarelens/contract';
import { z } from 'zod';
import { caseResultRoutes } from '../../http/case-results-routes.ts';
import type { GenesService } from './genes.service.ts';

export const genesRoutes = (service: GenesService) =>
  caseResultRoutes({ list: 'genes', itemParam: 'geneId', item: z.string().min(1).max(50), query: PageQuery, page: pageOf(GeneRow), details: GeneDetails, service });
