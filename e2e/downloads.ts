/**
 * Downloads started by a click, for the browser tests. A bare `page.waitForEvent('download')` beside
 * the click only says "Timeout exceeded" when nothing comes; this says what happened instead: the
 * click started no request, the request is still pending, the server answered an error, or the page
 * toasted one.
 */
import type { Download, Locator, Page, Request } from 'playwright-core';

const toasts = '[data-sonner-toast]';

/** The toasts now on the page, as "type: text". */
async function toastTexts(page: Page): Promise<string[]> {
  return page.locator(toasts).evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-type') ?? 'toast'}: ${(n.textContent ?? '').trim()}`));
}

/**
 * Waits until no toast is shown. On pages without a side column toasts stack bottom-right, over
 * the right-hand column of a table (Invoice, Download): a toast that moves there between the click's pointerdown and pointerup
 * turns the click into one on their common ancestor — no handler runs, yet Playwright (which checks
 * the hit target once, at pointerdown) reports the click as done. The mouse leaves the toasts first:
 * a hovered toast does not close.
 */
export async function waitForNoToast(page: Page, timeout = 20_000): Promise<void> {
  await page.mouse.move(0, 0);
  const deadline = Date.now() + timeout;
  while ((await page.locator(toasts).count()) > 0) {
    if (Date.now() > deadline) throw new Error(`Toasts still shown after ${timeout} ms: ${(await toastTexts(page)).join(' | ')}`);
    await page.waitForTimeout(100);
  }
}

/**
 * Clicks `target` (with no toast over the page) and returns the download it starts; otherwise fails
 * with the API calls made since the click (or that there were none), their answers and the toasts.
 */
export async function downloadOnClick(page: Page, target: Locator, { timeout = 60_000 } = {}): Promise<Download> {
  await waitForNoToast(page);
  const calls: string[] = [];
  const pending = new Set<Request>();
  const onRequest = (request: Request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/')) return;
    pending.add(request);
    calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  };
  const onFinished = (request: Request) => {
    if (!pending.delete(request)) return;
    void request.response().then((response) => calls.push(`  → ${response?.status() ?? 'no answer'} ${new URL(request.url()).pathname}`));
  };
  const onFailed = (request: Request) => {
    if (pending.delete(request)) calls.push(`  → failed (${request.failure()?.errorText}) ${new URL(request.url()).pathname}`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  try {
    // Both waits end by the timeout at the latest; the one that loses is settled quietly.
    const downloading = page.waitForEvent('download', { timeout }).then(
      (download) => ({ download }),
      () => undefined,
    );
    const errorToast = page
      .locator(`${toasts}[data-type="error"]`)
      .first()
      .waitFor({ timeout })
      .then(
        () => ({ download: undefined }),
        () => undefined,
      );
    await target.click();
    const outcome = await Promise.race([downloading, errorToast]);
    if (outcome?.download) return outcome.download;
    const what = outcome === undefined ? `no download within ${timeout} ms` : 'an error toast instead of a download';
    const still = [...pending].map((r) => `${r.method()} ${new URL(r.url()).pathname} (still pending)`);
    throw new Error(
      `Clicking ${target.toString()} gave ${what}. API calls since the click: ${calls.length ? [...calls, ...still].join('; ') : 'none (the click started nothing)'}. ` +
        `Toasts: ${(await toastTexts(page)).join(' | ') || 'none'}.`,
    );
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
  }
}
