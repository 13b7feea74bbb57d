/** Binary downloads (PDF, JSON, TSV) with the session cookie, and handing them to the browser. */
import { LocaleHeader, sendRefreshing, toApiError } from './api-client.ts';
import { getLocale } from './locale.ts';

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
export async function downloadFile(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<DownloadedFile> {
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
  const response = await sendRefreshing(send);
  if (!response.ok) throw await toApiError(response, { code: 'http_error' });
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
