import { FamilyResponse } from '@rarelens/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/download.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** GET /api/products/:id/family, read once the analysis has a run. */
export function useFamily(productId: string, runId: string | null) {
  return useQuery({
    queryKey: [...productKeys.results(productId), 'family', runId],
    queryFn: ({ signal }) => api.get(`${casesApi.path(productId)}/family`, { schema: FamilyResponse, signal }),
    enabled: runId !== null,
    staleTime: 60_000,
  });
}

export const familyApi = {
  /** GET /api/products/:id/family.ped: the pedigree as a PED file. */
  ped: (productId: string) => downloadFile(`${casesApi.path(productId)}/family.ped`),
};
