/**
 * Cases end to end in the browser: a new user uploads a real VCF (a Pfeiffer syndrome exome
 * excerpt on GRCh37) with HPO terms through the Genome Upload form, watches the case reach
 * Completed on /home, and reviews the ranked phenotypes, genes, variants, a variant's evidence
 * and the igv.js view — with no request leaving the machine.
 *
 * Needs the knowledge base built by `npx rarelens kb build` (RARELENS_KB, default ./data/kb)
 * and the reference data in RARELENS_SOURCES (default ../shared/data).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  screenshotPath,
  uniqueEmail,
  type TestEnv,
  useTestEnv,
} from './harness.ts';
import { createVerifiedUser, lateFailingVcf, logIn, startCaseTestEnv, vcfPath } from './case-fixtures.ts';

/** Waits of expect.poll: the machine is shared, so give the UI time to settle. */
const poll = { timeout: 20_000, interval: 200 };

let env: TestEnv;
/** Every request the pages made to a host other than the test server. */
const externalRequests: string[] = [];

useTestEnv(() => startCaseTestEnv(), (started) => void (env = started));

function watchRequests(page: Page) {
  const origin = new URL(env.baseUrl).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return;
    if (new URL(url).origin !== origin) externalRequests.push(url);
  });
}

/** Registers and verifies an account over the API (the accounts test covers those screens). */
const createUser = (email: string) => createVerifiedUser(env, email, { name: 'Barbara', surname: 'McClintock', birthDate: '1982-06-16' });

/** A new user signed in in a new page whose requests are watched from the start (login included). */
async function watchedUserPage(email: string, size: { width: number; height: number }): Promise<Page> {
  await createUser(email);
  const { page } = await env.newPage(size);
  watchRequests(page);
  await logIn(page, email);
  return page;
}

/** Picks an HPO term with the autocomplete: types, waits for the option, chooses it. */
async function pickTerm(page: Page, query: string, label: string) {
  const box = page.getByRole('combobox', { name: 'HPO terms' });
  await box.fill(query);
  await page
    .getByRole('option', { name: new RegExp(`^${label}\\b`) })
    .first()
    .click();
  await page.getByTestId('hpo-chip').filter({ hasText: label }).waitFor();
}

function attachmentFiles(count: number): string[] {
  const dir = path.join(tmpdir(), 'rarelens-e2e-attachments');
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `clinical-note-${i + 1}.txt`);
    writeFileSync(file, `Clinical note ${i + 1}: broad thumbs and halluces, turribrachycephaly.\n`);
    return file;
  });
}

describe('cases in the browser', () => {
  it('uploads a VCF with symptoms, waits for Completed and reviews phenotypes, genes, variants and igv', async () => {
    const email = uniqueEmail('barbara');
    const page = await watchedUserPage(email, { width: 1440, height: 900 });

    // An empty home offers the upload.
    await page.getByText('No cases yet').waitFor();
    await page.getByRole('link', { name: 'Upload patient data' }).last().click();
    await page.waitForURL('**/upload');

    // Required fields.
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await expect
      .poll(() => page.getByText('This field is mandatory').count(), poll)
      .toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: screenshotPath('cases-upload-errors-desktop'), fullPage: true });

    // At most five additional files.
    const notes = attachmentFiles(6);
    await page
      .locator('[data-testid="attachments-dropzone"] input[type=file]')
      .setInputFiles(notes);
    await page.getByText('You can only upload a maximum of 5 files.').waitFor();
    expect(await page.getByTestId('attachment').count()).toBe(5);
    for (let i = 0; i < 4; i++)
      await page
        .getByRole('button', { name: /^Remove clinical-note-/ })
        .first()
        .click();
    expect(await page.getByTestId('attachment').count()).toBe(1);

    await page.getByLabel('Case ID').fill('PFS-E2E-1');
    await page.getByText('Male', { exact: true }).click();
    await page
      .getByLabel('Clinical symptoms')
      .fill('Broad thumbs and halluces, craniosynostosis and proptosis since birth.');
    await pickTerm(page, 'broad thumb', 'Broad thumb');
    await pickTerm(page, 'broad hallux', 'Broad hallux');
    await pickTerm(page, 'craniosynostosis', 'Craniosynostosis');
    await pickTerm(page, 'proptosis', 'Proptosis');
    expect(await page.getByTestId('hpo-chip').count()).toBe(4);
    await page
      .getByLabel('Image description')
      .fill('Hands and feet: broad, medially deviated thumbs and halluces.');
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').setInputFiles(vcfPath);
    await page.getByTestId('genome-file').filter({ hasText: 'Pfeiffer.hg19.vcf.gz' }).waitFor();
    await page.getByLabel('Genome assembly').selectOption('GRCh37');
    await page.screenshot({ path: screenshotPath('cases-upload-filled-desktop'), fullPage: true });

    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await page.waitForURL('**/home', { timeout: 60_000 });
    await page.getByText('Case PFS-E2E-1 uploaded').waitFor();

    // Watch the status on /home until the analysis completes.
    const status = page.locator('[data-case-id="PFS-E2E-1"] [data-testid="case-status"]');
    const seen: string[] = [];
    const deadline = Date.now() + 150_000;
    for (;;) {
      const value = await status.getAttribute('data-status');
      if (value && seen.at(-1) !== value) seen.push(value);
      if (value === 'Completed' || value === 'Error') break;
      if (Date.now() > deadline)
        throw new Error(
          `The case did not complete in time; statuses seen: ${seen.join(' → ')}\n${env.serverLogs()}`,
        );
      await page.waitForTimeout(250);
    }
    expect(seen.at(-1), `statuses seen: ${seen.join(' → ')}`).toBe('Completed');
    expect(seen.every((s) => ['In queue', 'Processing', 'Completed'].includes(s))).toBe(true);
    await page.screenshot({ path: screenshotPath('cases-home-desktop') });

    // Results: ranked diseases, Pfeiffer syndrome on the first page.
    await page.getByRole('link', { name: 'Open results of PFS-E2E-1' }).click();
    await page.waitForURL('**/phenotypes');
    const productId = new URL(page.url()).pathname.split('/')[2]!;
    const rows = page.getByTestId('phenotype-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    const pfeiffer = rows.filter({ hasText: 'OMIM:101600' });
    await expect.poll(() => pfeiffer.count(), poll).toBe(1);
    await expect(
      page.getByRole('link', { name: 'OMIM:101600' }).getAttribute('href'),
    ).resolves.toBe('https://omim.org/entry/101600');
    // Genes is only in the navigation of a shared case.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Genes' }).count(),
    ).resolves.toBe(0);
    await page.screenshot({ path: screenshotPath('cases-phenotypes-desktop') });

    await pfeiffer.getByRole('link', { name: 'Pfeiffer syndrome' }).click();
    await page.getByTestId('phenotype-name').filter({ hasText: 'Pfeiffer syndrome' }).waitFor();
    const matched = page.getByTestId('matched-symptoms').locator('tbody tr');
    expect(await matched.count()).toBe(4);
    expect(await page.getByTestId('phenotype-explanation').locator('li').count()).toBeGreaterThan(
      0,
    );
    await expect(page.getByText('FGFR2').first().isVisible()).resolves.toBe(true);
    await page.screenshot({
      path: screenshotPath('cases-phenotype-details-desktop'),
      fullPage: true,
    });

    // Variants: clustered by gene, then non-clustered filtered to FGFR2.
    await page.goto(`/my-product/${productId}/phenotypes?view=variants`);
    await page.getByTestId('gene-cluster').first().waitFor();
    expect(await page.getByTestId('gene-cluster').count()).toBeGreaterThan(0);
    await page.getByRole('radio', { name: 'Non-clustered' }).click();
    await page.getByLabel('Gene', { exact: true }).fill('FGFR2');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Filter applied').waitFor();
    await page.waitForURL(/gene=FGFR2/);
    const variantRows = page.getByTestId('variant-row');
    await expect
      .poll(async () => {
        const texts = await variantRows.allInnerTexts();
        return texts.length > 0 && texts.every((t) => t.includes('FGFR2'))
          ? 'only FGFR2'
          : texts.join(' | ');
      }, poll)
      .toBe('only FGFR2');
    await page.screenshot({ path: screenshotPath('cases-variants-desktop') });

    // Filtered mode keeps only candidates (no benign or likely benign class).
    await page.getByRole('radio', { name: 'Filtered' }).click();
    await page.waitForURL(/mode=filtered/);
    await expect
      .poll(async () => {
        const rows = await variantRows.count();
        const classes = await page.getByTestId('acmg-badge').allInnerTexts();
        return rows > 0 && !classes.some((t) => /^(B|LB)\b/.test(t))
          ? 'candidates only'
          : `${rows} rows: ${classes.join(', ')}`;
      }, poll)
      .toBe('candidates only');
    await page.getByRole('radio', { name: 'Non-clustered' }).click();

    // The evidence of the FGFR2 missense variant, with igv.js at the variant.
    await variantRows.filter({ hasText: 'Missense' }).first().click();
    const evidence = page.getByTestId('variant-evidence');
    await evidence.waitFor();
    await evidence.getByText('NM_000141', { exact: false }).first().waitFor();
    await evidence.getByText('Classification', { exact: true }).waitFor();
    expect(
      await evidence.getByText(/not available|gnomAD|1000 Genomes|ExAC/).count(),
    ).toBeGreaterThan(0);
    const igv = evidence.locator('[data-testid="igv-view"]');
    await igv.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });
    await evidence.getByText('PFS-E2E-1 variants').first().waitFor();
    await page.waitForTimeout(1000);
    await page.screenshot({ path: screenshotPath('cases-evidence-desktop') });
    await igv.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('cases-igv-desktop') });
    await page.keyboard.press('Escape');
    await evidence.waitFor({ state: 'detached' });

    // Genes list and details.
    await page.goto(`/my-product/${productId}/genes`);
    const geneRows = page.getByTestId('gene-row');
    await geneRows.first().waitFor();
    expect(await geneRows.count()).toBe(10);
    // Each gene shows its post-test probability, explained by the column's tooltip.
    expect(await geneRows.first().getByTestId('gene-probability').textContent()).toMatch(/\d%/);
    await page.goto(`/my-product/${productId}/genes/FGFR2`);
    await page.getByTestId('gene-facts').getByText('HGNC:3689').waitFor();
    await page.screenshot({ path: screenshotPath('cases-gene-details-desktop'), fullPage: true });

    // /my-product/{id} goes home.
    await page.goto(`/my-product/${productId}`);
    await page.waitForURL('**/home');

    // The same screens on a phone.
    const phone = await env.newPage({ width: 390, height: 844 });
    watchRequests(phone.page);
    await logIn(phone.page, email);
    await phone.page.getByTestId('case-card').first().waitFor();
    await phone.page.screenshot({ path: screenshotPath('cases-home-390') });
    await phone.page.goto(`/my-product/${productId}/phenotypes`);
    await phone.page.getByTestId('phenotype-card').first().waitFor();
    await phone.page.screenshot({ path: screenshotPath('cases-phenotypes-390') });
    await phone.page.goto(`/my-product/${productId}/phenotypes?view=variants&mode=non-clustered`);
    await phone.page.getByTestId('variant-card').first().waitFor();
    await phone.page.screenshot({ path: screenshotPath('cases-variants-390') });
    await phone.page.getByTestId('variant-card').first().getByRole('button').first().click();
    await phone.page
      .locator('[data-testid="igv-view"][data-state="ready"]')
      .waitFor({ timeout: 60_000 });
    await phone.page.screenshot({ path: screenshotPath('cases-evidence-390') });
    await phone.page.goto('/upload');
    await phone.page.getByRole('heading', { name: 'Genome Upload' }).waitFor();
    await phone.page.screenshot({ path: screenshotPath('cases-upload-390'), fullPage: true });

    // Shared with a colleague: the case appears under "Shared with me" and Genes joins the navigation.
    const colleague = uniqueEmail('colleague');
    await createUser(colleague);
    // A request from the app's own origin (the server refuses cookie-borne changes from elsewhere).
    const shared = await page.request.post(`/api/products/${productId}/shares`, {
      data: { email: colleague },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(shared.status()).toBe(200);
    const other = await env.newPage({ width: 1280, height: 860 });
    watchRequests(other.page);
    await logIn(other.page, colleague);
    const sharedSection = other.page.getByRole('region', { name: 'Shared with me' });
    await sharedSection.getByTestId('case-row').filter({ hasText: 'PFS-E2E-1' }).waitFor();
    await sharedSection.getByRole('link', { name: 'Open results of PFS-E2E-1' }).click();
    await other.page.waitForURL('**/phenotypes');
    const nav = other.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Genes' }).click();
    await other.page.getByTestId('gene-row').first().waitFor();

    expect(externalRequests).toEqual([]);
  });

  /** Fills /upload for a female case with one symptom and a GRCh37 VCF, and submits it. */
  async function uploadGrch37Vcf(page: Page, caseId: string, vcf: string) {
    await page.goto('/upload');
    await page.getByLabel('Case ID').fill(caseId);
    await page.getByText('Female', { exact: true }).click();
    await page.getByLabel('Clinical symptoms').fill('Craniosynostosis.');
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').setInputFiles(vcf);
    await page.getByLabel('Genome assembly').selectOption('GRCh37');
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
  }

  it('shows "An error occurred" with the failing VCF line when the analysis fails', async () => {
    const email = uniqueEmail('rosalyn');
    const page = await watchedUserPage(email, { width: 1280, height: 860 });

    const dir = path.join(tmpdir(), 'rarelens-e2e-attachments');
    mkdirSync(dir, { recursive: true });
    const broken = path.join(dir, 'broken.vcf');
    // A malformed line in the first records is refused at upload, on the form; one further in
    // (past the records checked before queueing) ends the analysis in Error, naming the line.
    const { text, badLine } = lateFailingVcf();
    writeFileSync(broken, text);

    const early = path.join(dir, 'early.vcf');
    writeFileSync(early, ['##fileformat=VCFv4.2', '##contig=<ID=10,length=135534747>', '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO', '10\tnot-a-position\t.\tA\tC\t50\tPASS\t.', ''].join('\n'));
    await uploadGrch37Vcf(page, 'EARLY-1', early);
    await page.getByText(/early\.vcf:4: bad POS/).first().waitFor({ timeout: 30_000 });
    expect(page.url()).toContain('/upload');

    await uploadGrch37Vcf(page, 'BROKEN-1', broken);
    await page.waitForURL('**/home', { timeout: 60_000 });

    const row = page.locator('[data-case-id="BROKEN-1"]');
    await row.locator('[data-status="Error"]').waitFor({ timeout: 120_000 });
    await expect(row.getByTestId('case-status').innerText()).resolves.toContain(
      'An error occurred',
    );
    // The reason names the line that failed.
    await expect(row.getByTestId('case-error-reason').innerText()).resolves.toMatch(new RegExp(`line ${badLine}|:${badLine}\\b`));
    await expect(row.getByRole('link', { name: /Open results/ }).count()).resolves.toBe(0);
    await page.screenshot({ path: screenshotPath('cases-home-error-desktop') });
    expect(externalRequests).toEqual([]);
  });
});
