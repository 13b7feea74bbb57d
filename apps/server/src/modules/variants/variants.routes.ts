/** /api/products/:id/variants: the variants of a case (list and details). Every route requires a session. */
import { VariantDetails, VariantListQuery, VariantListResponse } from '@rarelens/contract';
import { z } from 'zod';
import { caseResultRoutes } from '../../http/case-results-routes.ts';
import type { VariantsService } from './variants.service.ts';

export const variantsRoutes = (service: VariantsService) =>
  caseResultRoutes({ list: 'variants', itemParam: 'variantId', item: z.coerce.number().int().min(1), query: VariantListQuery, page: VariantListResponse, details: VariantDetails, service });
