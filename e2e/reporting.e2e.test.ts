/**
 * Reporting end to end in the browser: a user with a completed case (a Pfeiffer exome excerpt,
 * uploaded over the API and analysed by the real engine) adds variants from the variant list
 * and the evidence view, opens Reporting, edits the interpretation, generates and downloads
 * the PDF report, finds it among the earlier reports, and removes and clears the list.
 *
 * Needs the knowledge base (RARELENS_KB, default ./data/kb) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createCompletedCase, createVerifiedUser, logIn, startCaseTestEnv } from './case-fixtures.ts';
import { downloadOnClick } from './downloads.ts';
import { screenshotPath, uniqueEmail, type TestEnv, useTestEnv } from './harness.ts';

let env: TestEnv;

useTestEnv(() => startCaseTestEnv(), (started) => void (env = started));

/** A verified user with a completed Pfeiffer case; returns the case id. */
async function createUserWithCase(email: string): Promise<string> {
  const auth = await createVerifiedUser(env, email, {
    name: 'Victor',
    surname: 'McKusick',
    birthDate: '1975-10-21',
  });
  return createCompletedCase(env, auth, {
    caseId: 'RPT-E2E-1',
    symptoms: 'Craniosynostosis, broad thumbs and great toes.',
    hpoTerms: ['HP:0000244', 'HP:0011304', 'HP:0001770'],
  });
}

/** Waits for a toast with exactly `text`. */
async function toast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

describe('reporting in the browser', () => {
  it('adds variants from the variant views, generates and downloads the PDF report, removes and clears the list', async () => {
    const email = uniqueEmail('victor');
    const productId = await createUserWithCase(email);
    const { page, errors } = await env.newPage({ width: 1440, height: 900 });
    await logIn(page, email);

    // Add the top FGFR2 variant from the variant list.
    await page.goto(`/my-product/${productId}/phenotypes?view=variants&mode=non-clustered&gene=FGFR2`);
    const rows = page.getByTestId('variant-row');
    await rows.first().waitFor();
    const firstAdd = rows.first().getByTestId('add-to-report');
    await firstAdd.click();
    await toast(page, 'Item added');
    await expect.poll(() => firstAdd.getAttribute('data-listed')).toBe('true');
    // Adding it again is not offered: the button is disabled and says why (no 409 asked for).
    await expect.poll(() => firstAdd.isDisabled()).toBe(true);
    await expect(firstAdd.getAttribute('title')).resolves.toBe('This variant is already in the reporting list');
    await page.screenshot({ path: screenshotPath('reporting-variants-desktop') });

    // Add another variant from its evidence view.
    // Rows show whether they are listed once the reporting list has loaded.
    const listLoaded = page.waitForResponse((r) => r.url().endsWith('/report-items') && r.request().method() === 'GET');
    await page.goto(`/my-product/${productId}/phenotypes?view=variants&mode=non-clustered`);
    await listLoaded;
    const unlisted = page.getByTestId('variant-row').filter({ has: page.locator('[data-testid="add-to-report"]:not([data-listed])') });
    await unlisted.first().waitFor();
    await unlisted.first().click();
    const evidence = page.getByTestId('variant-evidence');
    await evidence.waitFor();
    await evidence.getByTestId('add-to-report').click();
    await toast(page, 'Item added');
    await page.keyboard.press('Escape');
    await evidence.waitFor({ state: 'detached' });

    // The Reporting page lists both, after a reload too.
    await page.getByRole('link', { name: 'Reporting' }).first().click();
    await page.waitForURL(`**/my-product/${productId}/report`);
    await page.reload();
    const items = page.getByTestId('report-item');
    await expect.poll(() => items.count()).toBe(2);
    await expect(items.first().innerText()).resolves.toContain('FGFR2');
    const interpretation = page.getByTestId('interpretation');
    await expect.poll(async () => (await interpretation.inputValue()).length).toBeGreaterThan(40);
    await interpretation.fill('The FGFR2 variant is consistent with Pfeiffer syndrome. Parental testing is recommended.');
    await page.screenshot({ path: screenshotPath('reporting-page-desktop'), fullPage: true });

    // Generate: the browser downloads a PDF.
    const download = await downloadOnClick(page, page.getByTestId('generate-report'));
    expect(download.suggestedFilename()).toMatch(/^RareLens-report-RPT-E2E-1-\d{8}-\d{4}\.pdf$/);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await toast(page, 'Report downloaded successfully');
    await expect.poll(() => page.getByTestId('report-history-item').count()).toBe(1);

    // The stored report holds the edited interpretation.
    const stored = await env.sql<{ interpretation: string; variant_count: number }>(
      'select interpretation, variant_count from reports where product_id = $1',
      [productId],
    );
    expect(stored).toEqual([{ interpretation: 'The FGFR2 variant is consistent with Pfeiffer syndrome. Parental testing is recommended.', variant_count: 2 }]);

    // Download it again from the list.
    const again = await downloadOnClick(page, page.getByTestId('report-history-item').first().getByRole('button', { name: 'Download' }));
    expect(again.suggestedFilename()).toBe(download.suggestedFilename());

    // The same page on a phone.
    const phone = await env.newPage({ width: 390, height: 844 });
    await logIn(phone.page, email);
    await phone.page.goto(`/my-product/${productId}/report`);
    await expect.poll(() => phone.page.getByTestId('report-item').count()).toBe(2);
    await phone.page.getByTestId('report-history-item').first().waitFor();
    await phone.page.screenshot({ path: screenshotPath('reporting-page-390'), fullPage: true });
    expect(phone.errors).toEqual([]);

    // Remove one, then clear the rest after confirming.
    await items.nth(1).getByTestId('remove-report-item').click();
    await toast(page, 'Item removed');
    await expect.poll(() => items.count()).toBe(1);
    await page.getByTestId('clear-report-list').click();
    await page.getByTestId('confirm-clear-report-list').click();
    await toast(page, 'Reporting list cleared');
    await page.getByTestId('report-list-empty').waitFor();
    await page.screenshot({ path: screenshotPath('reporting-cleared-desktop'), fullPage: true });

    expect(errors).toEqual([]);
  });
});
