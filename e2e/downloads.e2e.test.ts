/**
 * The download helper of the browser tests (e2e/downloads.ts), on a bare page: a toast that moves
 * over a button between pointerdown and pointerup swallows the click while Playwright reports it
 * done (the CI failure of orders.e2e at load 20-28: 60 s without a download); the helper clicks
 * once no toast is shown, and says what happened when no download comes.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadOnClick } from './downloads.ts';
import { chromiumArgs } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A button that downloads a file, under a toast that closes after `closeAfterMs`; a second toast,
 * stacked behind, slides over the button on the next pointerdown (as Sonner's back toast takes the
 * front place) and closes after `backClosesAfterMs`.
 */
async function pageWithToasts(opts: { closeAfterMs: number; backClosesAfterMs: number; onClick?: 'download' | 'error-toast' | 'nothing' }): Promise<Page> {
  const page = await browser.newPage();
  await page.setContent(`
    <button data-testid="get" style="position:absolute;left:100px;top:100px;width:90px;height:32px">Invoice</button>
    <ol>
      <li data-sonner-toast data-type="success" id="front" style="position:fixed;left:80px;top:90px;width:140px;height:50px;background:#efe">Order placed</li>
      <li data-sonner-toast data-type="warning" id="back" style="position:fixed;left:80px;top:300px;width:140px;height:50px;background:#ffe">Add a product</li>
    </ol>
    <script>
      setTimeout(() => document.getElementById('front').remove(), ${opts.closeAfterMs});
      setTimeout(() => document.getElementById('back').remove(), ${opts.backClosesAfterMs});
      const button = document.querySelector('[data-testid=get]');
      button.addEventListener('pointerdown', () => { const back = document.getElementById('back'); if (back) back.style.top = '90px'; });
      button.addEventListener('click', () => {
        if ('${opts.onClick ?? 'download'}' === 'download') {
          const a = document.createElement('a');
          a.href = URL.createObjectURL(new Blob(['%PDF-1.7'], { type: 'application/pdf' }));
          a.download = 'invoice.pdf';
          document.body.append(a);
          a.click();
          a.remove();
        } else if ('${opts.onClick}' === 'error-toast') {
          const toast = document.createElement('li');
          toast.setAttribute('data-sonner-toast', '');
          toast.setAttribute('data-type', 'error');
          toast.textContent = 'Something went wrong';
          toast.style.cssText = 'position:fixed;left:600px;top:600px';
          document.body.append(toast);
        }
      });
    </script>`);
  return page;
}

describe('downloads started by a click', () => {
  it('loses the click when a toast slides over the button mid-click, unless the helper waits for the toasts to close', async () => {
    const bare = await pageWithToasts({ closeAfterMs: 300, backClosesAfterMs: 2500 });
    // The bare pattern: Playwright waits for the front toast, clicks, and the back toast takes the mouseup.
    const [download, click] = await Promise.allSettled([bare.waitForEvent('download', { timeout: 3000 }), bare.getByTestId('get').click()]);
    expect(click.status).toBe('fulfilled');
    expect(download.status).toBe('rejected');
    await bare.close();

    const page = await pageWithToasts({ closeAfterMs: 300, backClosesAfterMs: 2500 });
    const file = await downloadOnClick(page, page.getByTestId('get'), { timeout: 5000 });
    expect(file.suggestedFilename()).toBe('invoice.pdf');
    await page.close();
  });

  it('fails with the error toast, or with "the click started nothing", when no download comes', async () => {
    const toasting = await pageWithToasts({ closeAfterMs: 0, backClosesAfterMs: 0, onClick: 'error-toast' });
    await expect(downloadOnClick(toasting, toasting.getByTestId('get'), { timeout: 5000 })).rejects.toThrow(
      /gave an error toast instead of a download\. API calls since the click: none \(the click started nothing\)\. Toasts: error: Something went wrong/,
    );
    await toasting.close();

    const silent = await pageWithToasts({ closeAfterMs: 0, backClosesAfterMs: 0, onClick: 'nothing' });
    await expect(downloadOnClick(silent, silent.getByTestId('get'), { timeout: 1000 })).rejects.toThrow(/gave no download within 1000 ms\. API calls since the click: none/);
    await silent.close();
  });
});
