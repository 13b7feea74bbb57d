import { RawDataInfo, ReadsReference, type RawDataFileName } from '@rarelens/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** GET /api/products/:id/raw-data: QC, reference, tools and tracks of a FASTQ case's run. */
export function useRawData(productId: string, runId: string | null, enabled = true) {
  return useQuery({
    queryKey: [...productKeys.results(productId), 'raw-data', runId],
    queryFn: ({ signal }) =>
      api.get(`${casesApi.path(productId)}/raw-data`, { schema: RawDataInfo, signal }),
    enabled: enabled && runId !== null,
    staleTime: 60_000,
  });
}

export const rawDataApi = {
  /** A download link (the browser streams it with the session cookie: BAMs can be gigabytes). */
  fileUrl: (productId: string, name: RawDataFileName) =>
    `${casesApi.path(productId)}/raw-data/files/${name}`,
  /** A track path of RawDataInfo.track, relative to the case. */
  trackUrl: (productId: string, relative: string) => `${casesApi.path(productId)}/${relative}`,
};

/** GET /api/raw-data/reference: the reference this server aligns FASTQ uploads to. */
export function useReadsReference(enabled = true) {
  return useQuery({
    queryKey: ['raw-data', 'reference'],
    queryFn: ({ signal }) => api.get('/api/raw-data/reference', { schema: ReadsReference, signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
