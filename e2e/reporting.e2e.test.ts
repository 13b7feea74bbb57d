/**
 * Reporting end to end in the browser: a user with a completed case (a Pfeiffer exome excerpt,
 * uploaded over the API and analysed by the real engine) adds variants from the variant list
 * and the evidence view, opens Reporting, edits the interpretation, generates and downloads
 * the PDF report, finds it among the earlier reports, and removes and clears the list.
 *
 * Needs the knowledge base (RARELENS_KB, default ./data/kb) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractCode, repoRoot, screenshotPath, startTestEnv, uniqueEmail, type TestEnv } from './harness.ts';

const kbDir = path.resolve(process.env.RARELENS_KB ?? path.join(repoRoot, 'data/kb'));
const sourcesDir = path.resolve(process.env.RARELENS_SOURCES ?? path.join(repoRoot, '../shared/data'));
const vcfPath = path.join(sourcesDir, 'vcf/Pfeiffer.hg19.vcf.gz');
const password = 'Genome2024';

let env: TestEnv;

beforeAll(async () => {
  if (!existsSync(path.join(kbDir, 'manifest.json'))) {
    throw new Error(`No knowledge base at ${kbDir}: build it with \`npx rarelens kb build\` (or set RARELENS_KB)`);
  }
  if (!existsSync(vcfPath)) throw new Error(`${vcfPath} is missing: set RARELENS_SOURCES to the reference data directory`);
  env = await startTestEnv({ env: { RARELENS_KB: kbDir, RARELENS_INPROCESS_WORKER: 'true' } });
});
afterAll(async () => {
  await env?.stop();
});

/** Header, the first 300 records and every record around FGFR2 of the Pfeiffer exome (GRCh37). */
function pfeifferExcerpt(): string {
  const lines = gunzipSync(readFileSync(vcfPath)).toString('utf8').split('\n');
  const records = lines.filter((l) => l !== '' && !l.startsWith('#'));
  const fgfr2 = records.filter((l) => {
    const [chrom, pos] = l.split('\t');
    return chrom === '10' && Number(pos) > 123_200_000 && Number(pos) < 123_400_000;
  });
  return [...lines.filter((l) => l.startsWith('#')), ...records.slice(0, 300), ...fgfr2].join('\n') + '\n';
}

/** Registers, verifies and logs in over the API; uploads the case and waits for Completed. */
async function createUserWithCase(email: string): Promise<string> {
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${env.baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const registered = await post('/api/auth/register', {
    name: 'Victor',
    surname: 'McKusick',
    birthDate: '1975-10-21',
    email,
    password,
    termsAccepted: true,
  });
  expect(registered.status).toBe(201);
  const code = extractCode(await env.mail.waitForMail(email));
  expect((await post('/api/auth/verify', { email, code })).status).toBe(200);
  const login = await post('/api/auth/login', { email, password });
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };

  const form = new FormData();
  form.set('caseId', 'RPT-E2E-1');
  form.set('gender', 'female');
  form.set('symptoms', 'Craniosynostosis, broad thumbs and great toes.');
  form.set('hpoTerms', JSON.stringify(['HP:0000244', 'HP:0011304', 'HP:0001770']));
  form.set('assembly', 'auto');
  form.set('genomeFile', new Blob([pfeifferExcerpt()], { type: 'text/plain' }), 'pfeiffer-excerpt.vcf');
  const upload = await fetch(`${env.baseUrl}/api/products`, { method: 'POST', headers: auth, body: form });
  expect(upload.status).toBe(202);
  const { id } = (await upload.json()) as { id: string };
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = await fetch(`${env.baseUrl}/api/products/${id}`, { headers: auth });
    const p = (await res.json()) as { status: string; error: unknown };
    if (p.status === 'Completed') return id;
    if (p.status === 'Error') throw new Error(`analysis failed: ${JSON.stringify(p.error)}`);
    if (Date.now() > deadline) throw new Error(`the case did not complete in time\n${env.serverLogs()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/home');
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
    // Adding it again is refused.
    await firstAdd.click();
    await toast(page, 'This variant is already in the reporting list');
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
    const downloading = page.waitForEvent('download');
    await page.getByTestId('generate-report').click();
    const download = await downloading;
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
    const again = page.waitForEvent('download');
    await page.getByTestId('report-history-item').first().getByRole('button', { name: 'Download' }).click();
    expect((await again).suggestedFilename()).toBe(download.suggestedFilename());

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
