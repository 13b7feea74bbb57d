import {
  AddReportItemResponse,
  ErrorCode,
  ReportItemListResponse,
  ReportListMessage,
  ReportListResponse,
  type CreateReportBody,
} from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/download.ts';
import { casesApi, productKeys } from '../cases/index.ts';

/** Query keys of the reporting feature (under the case's results, so a new analysis refreshes them). */
export const reportingKeys = {
  items: (productId: string) => [...productKeys.detail(productId), 'report-items'] as const,
  reports: (productId: string) => [...productKeys.detail(productId), 'reports'] as const,
};

const base = (productId: string) => casesApi.path(productId);

export const reportingApi = {
  items: (productId: string, signal?: AbortSignal) => api.get(`${base(productId)}/report-items`, { schema: ReportItemListResponse, signal }),
  add: (productId: string, variantId: number) => api.post(`${base(productId)}/report-items`, { variantId }, { schema: AddReportItemResponse }),
  remove: (productId: string, itemId: string) =>
    api.delete(`${base(productId)}/report-items/${encodeURIComponent(itemId)}`, { schema: ReportListMessage }),
  clear: (productId: string) => api.delete(`${base(productId)}/report-items`, { schema: ReportListMessage }),
  reports: (productId: string, signal?: AbortSignal) => api.get(`${base(productId)}/reports`, { schema: ReportListResponse, signal }),
  generate: (productId: string, body: CreateReportBody) => downloadFile(`${base(productId)}/reports`, { method: 'POST', body }),
  download: (productId: string, reportId: string) => downloadFile(`${base(productId)}/reports/${encodeURIComponent(reportId)}`),
  phenopacket: (productId: string) => downloadFile(`${base(productId)}/phenopacket`),
  variantsTsv: (productId: string) => downloadFile(`${base(productId)}/variants.tsv`),
};

/** The reporting list of a case (shared by the Reporting page and every Add-to-report button). */
export function useReportItems(productId: string) {
  return useQuery({
    queryKey: reportingKeys.items(productId),
    queryFn: ({ signal }) => reportingApi.items(productId, signal),
    staleTime: 10_000,
  });
}

export function useReports(productId: string) {
  return useQuery({
    queryKey: reportingKeys.reports(productId),
    queryFn: ({ signal }) => reportingApi.reports(productId, signal),
  });
}

/** Add / remove / clear, each refreshing the list. */
export function useReportItemMutations(productId: string) {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: reportingKeys.items(productId) });
  return {
    add: useMutation({ mutationFn: (variantId: number) => reportingApi.add(productId, variantId), onSettled }),
    remove: useMutation({ mutationFn: (itemId: string) => reportingApi.remove(productId, itemId), onSettled }),
    clear: useMutation({ mutationFn: () => reportingApi.clear(productId), onSettled }),
  };
}

/** True when the error is the "already in the reporting list" refusal. */
export function isAlreadyInReport(error: unknown): boolean {
  return error instanceof ApiError && error.code === ErrorCode.variantAlreadyInReport;
}

export { fileNameOf, saveFile, type DownloadedFile } from '../../lib/download.ts';
