import {
  AddReportItemResponse,
  ErrorBody,
  ErrorCode,
  Messages,
  ReportItemListResponse,
  ReportListMessage,
  ReportListResponse,
  type CreateReportBody,
} from '@rarelens/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, LocaleHeader, refreshTokens } from '../../lib/api-client.ts';
import { getLocale } from '../../lib/locale.ts';
import { casesApi, productKeys } from '../cases/cases.api.ts';

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

export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star);
    } catch {
      // A malformed encoding: fall back to the plain parameter.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? fallback;
}

/**
 * Fetches a binary answer (PDF, JSON or TSV file) with the session cookie, refreshing the
 * session once on 401 like the JSON client does.
 */
async function downloadFile(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<DownloadedFile> {
  const send = () =>
    fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'include',
      headers: {
        [LocaleHeader]: getLocale(),
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
  let response = await send();
  if (response.status === 401 && (await refreshTokens())) response = await send();
  if (!response.ok) {
    let body: ErrorBody = { code: 'http_error', message: Messages.somethingWentWrong };
    try {
      const parsed = ErrorBody.safeParse(await response.json());
      if (parsed.success) body = parsed.data;
    } catch {
      // Not JSON: keep the generic message.
    }
    throw new ApiError(response.status, body);
  }
  const fallback = path.split('/').pop() ?? 'download';
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition'), fallback) };
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile({ blob, fileName }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: some browsers read the URL asynchronously after the click.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
