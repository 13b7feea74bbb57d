/**
 * Plans and orders in the browser (issue 18 item 2), with RARELENS_BILLING=on: a new user's
 * upload page says "Add a product to continue" and links to Orders (a signed-in navigation entry);
 * the user orders a plan with the raw data analysis add-on, sees the order pending payment and
 * downloads its invoice; the operator records the bank transfer with `rarelens orders activate`
 * and the page shows the plan active with its remaining cases, and the upload page no longer asks.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Messages } from '@rarelens/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInPage } from './case-fixtures.ts';
import { downloadOnClick } from './downloads.ts';
import { repoRoot, startTestEnv, uniqueEmail, type TestEnv, useTestEnv } from './harness.ts';

let env: TestEnv;

useTestEnv(() => startTestEnv({ env: { RARELENS_BILLING: 'on' } }), (started) => void (env = started));

async function toast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

describe('orders in the browser', () => {
  it('orders a plan and the add-on from the upload notice, downloads the invoice and sees the remaining cases once paid', async () => {
    const email = uniqueEmail('lab');
    const { page, errors } = await signedInPage(env, email, { name: 'Lab', surname: 'Manager', birthDate: '1980-01-01' }, { width: 1440, height: 900 });

    // Without a plan the upload page asks for one and links to Orders.
    await page.goto('/upload');
    const notice = page.getByTestId('add-product-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(Messages.addProductToContinue);
    await toast(page, Messages.addProductToContinue);
    await notice.getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL('**/orders');
    // Orders is in the signed-in navigation.
    expect(await page.getByRole('link', { name: /^Orders/ }).count()).toBeGreaterThan(0);

    // Standard plan, 3 cases, with the raw data analysis add-on.
    await page.getByRole('radio', { name: /Standard/ }).check({ force: true });
    await page.getByLabel('Cases per month').fill('3');
    await page.getByRole('checkbox').first().click();
    const total = await page.getByTestId('order-total').textContent();
    expect(total).toMatch(/\d/);
    await page.getByTestId('place-order').click();
    await toast(page, Messages.orderPlaced);
    const row = page.getByTestId('order-row').first();
    await row.waitFor();
    // The toasts sit over the side navigation, not over the page: the Invoice button stays clickable.
    const placedToast = (await page.locator('[data-sonner-toast]').filter({ hasText: Messages.orderPlaced }).first().boundingBox())!;
    const main = (await page.locator('main').boundingBox())!;
    expect(placedToast.x + placedToast.width).toBeLessThanOrEqual(main.x);
    expect(await row.getByTestId('order-status').textContent()).toBe('Pending payment');
    expect(await row.textContent()).toContain(total!);
    const orderId = (await row.getAttribute('data-order-id'))!;

    // The invoice downloads as a PDF (rendered on demand: allow for a loaded CI machine).
    const download = await downloadOnClick(page, row.getByTestId('download-invoice'));
    const pdf = await readFile(await download.path());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);

    // The operator records the bank transfer.
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'apps/cli/bin/rarelens.js'), 'orders', 'activate', orderId], {
      env: { ...process.env, DATABASE_URL: env.databaseUrl, RARELENS_DATA_DIR: env.dataDir, SMTP_URL: env.smtpUrl, PUBLIC_URL: env.baseUrl, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain(orderId);

    await page.reload();
    await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Active');
    expect(await page.getByTestId('remaining-cases').textContent()).toBe('3 of 3 cases remaining');
    await page.goto('/upload');
    await page.getByRole('form', { name: 'Genome upload' }).waitFor();
    expect(await page.getByTestId('add-product-notice').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 120_000);
});
