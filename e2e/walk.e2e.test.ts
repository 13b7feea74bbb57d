/**
 * What a walk through every screen found (issue 18 item 4), each fixed and checked here in
 * Chromium: no 401 logged by a visitor's page, the e-mail code step surviving a reload, the HPO
 * search offering the term whose synonym or lay wording the user typed, an unknown case id
 * shown as not found (not as a case named by the raw id), the symptom counts of the disease
 * list agreeing with the disease's details, and the disease's protein IDs.
 */
import { execFileSync } from 'node:child_process';
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompletedCase,
  createVerifiedUser,
  insertQueuedCopy,
  lateFailingVcf,
  logIn,
  startCaseTestEnv,
  testPassword,
  vcfPath,
} from './case-fixtures.ts';
import { downloadOnClick } from './downloads.ts';
import { extractCode, fillRegistration, screenshotPath, uniqueEmail, type TestEnv } from './harness.ts';

let env: TestEnv;
let email: string;
let auth: Record<string, string>;
let productId: string;

beforeAll(async () => {
  env = await startCaseTestEnv();
  email = uniqueEmail('walker');
  auth = await createVerifiedUser(env, email, { name: 'Wanda', surname: 'Walker', birthDate: '1975-03-08' });
  // Five terms given; Abnormality of the hand (HP:0001155) is implied by Broad thumb, so the
  // ranking uses four.
  productId = await createCompletedCase(env, auth, {
    caseId: 'WALK-PFS',
    symptoms: 'Broad thumbs and halluces, craniosynostosis and proptosis.',
    hpoTerms: ['HP:0011304', 'HP:0010055', 'HP:0001363', 'HP:0000520', 'HP:0001155'],
  });
});
afterAll(async () => {
  await env?.stop();
});

/** Console errors and failed API responses of a page, for "nothing was logged" checks. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      problems.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return problems;
}

describe('the walk-through findings', () => {
  it('logs no 401 (nor any other error) on signed-out pages, before and after a session', async () => {
    const { page, errors } = await env.newPage();
    const problems = watchProblems(page);
    for (const path of ['/', '/login', '/register', '/reset-password', '/book-demo', '/terms', '/privacy', '/shared']) {
      await page.goto(path);
      await page.locator('main, [role="main"], h1').first().waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(problems).toEqual([]);
    // A session, then logout: the signed-out pages stay quiet.
    await logIn(page, email);
    await page.goto('/logout');
    await page.waitForURL('**/login');
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await page.goto('/book-demo');
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
    // A protected page still sends a visitor to the login with the redirect.
    await page.goto('/home');
    await page.waitForURL('**/login?redirect=%2Fhome');
    expect(errors).toEqual([]);
  });

  it('keeps the e-mail code step across a reload and verifies from it', async () => {
    const { page, errors } = await env.newPage();
    const address = uniqueEmail('reloader');
    await page.goto('/register');
    await fillRegistration(page, address, testPassword, { name: 'Rita', surname: 'Reload', birthDate: '1990-04-12' });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    const code = extractCode(await env.mail.waitForMail(address));

    await page.reload();
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await expect(page.getByText(address).count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('walk-verify-after-reload') });
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(code);
    await page.waitForURL('**/login');
    await page.getByText('Your email is verified. You can log in now.').waitFor();
    // Done: a later visit of /register shows the form again.
    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('offers Hearing impairment first for "hearing loss" and finds lay wording', async () => {
    const { page, errors } = await env.newPage();
    await logIn(page, email);
    await page.goto('/upload');
    const box = page.getByRole('combobox', { name: 'HPO terms' });
    const first = page.getByRole('option').first();
    await box.fill('hearing loss');
    await expect.poll(() => first.innerText(), { timeout: 30_000 }).toMatch(/^Hearing impairment/);
    await page.screenshot({ path: screenshotPath('walk-hpo-hearing-loss') });
    await box.fill('deafness');
    await expect.poll(() => first.innerText(), { timeout: 15_000 }).toMatch(/^Hearing impairment/);
    await box.fill('big head');
    await expect.poll(() => first.innerText(), { timeout: 15_000 }).toMatch(/^Macrocephaly/);
    await first.click();
    await page.getByTestId('hpo-chip').filter({ hasText: 'Macrocephaly' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows an unknown case id as not found, not as a case named by the id', async () => {
    const { page, errors } = await env.newPage();
    await logIn(page, email);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'no-such-case']) {
      for (const path of [`/my-product/${id}/phenotypes`, `/my-product/${id}/phenotypes/OMIM:101600`, `/my-product/${id}/diagnose`]) {
        await page.goto(path);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        await expect(page.getByText(id).count()).resolves.toBe(0);
        await expect(page.title()).resolves.toBe(`Page Not Found: ${path}`);
      }
    }
    // The case navigation is not offered for a case that does not exist.
    await expect(page.getByRole('link', { name: 'Diagnose module' }).count()).resolves.toBe(0);
    await page.screenshot({ path: screenshotPath('walk-unknown-case') });
    expect(errors).toEqual([]);
  });

  it('counts symptoms on the disease list as the disease details do, which list protein IDs', async () => {
    const { page, errors } = await env.newPage({ width: 1440, height: 900 });
    await logIn(page, email);
    await page.goto(`/my-product/${productId}/phenotypes`);
    const row = page.getByTestId('phenotype-row').filter({ hasText: 'OMIM:101600' });
    await row.waitFor();
    await page.getByText(/diseases ranked for 4 patient terms \(of 5 given/).waitFor();
    const listed = (await row.locator('td').filter({ hasText: /^\d+ \/ \d+$/ }).innerText()).trim();
    expect(listed).toMatch(/^\d \/ 4$/);
    await row.getByRole('link', { name: 'Pfeiffer syndrome' }).click();
    await page.getByTestId('phenotype-name').filter({ hasText: 'Pfeiffer syndrome' }).waitFor();
    const stat = page.locator('p').filter({ hasText: /^\d+ \/ \d+$/ }).first();
    await expect(stat.innerText().then((t) => t.replace(/\s+/g, ' ').trim())).resolves.toBe(listed);
    await expect(page.getByTestId('matched-symptoms').locator('tbody tr').count()).resolves.toBe(4);
    // Protein IDs (§3 Phenotype): the UniProt accession of each disease gene's product.
    const proteins = page.getByTestId('phenotype-proteins');
    await proteins.getByText('Protein IDs').waitFor();
    const fgfr2 = proteins.getByRole('link', { name: 'P21802' });
    await expect(fgfr2.getAttribute('href')).resolves.toBe('https://www.uniprot.org/uniprotkb/P21802');
    await expect(proteins.locator('li').filter({ hasText: 'FGFR2' }).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('on a phone', () => {
  it('keeps the whole pagination of the ranked lists on a 360 px screen', async () => {
    const { page, errors } = await env.newPage({ width: 360, height: 800 });
    await logIn(page, email);
    for (const list of ['phenotypes', 'genes']) {
      await page.goto(`/my-product/${productId}/${list}`);
      const nav = page.getByRole('navigation', { name: 'Pagination' });
      await nav.waitFor();
      for (const name of ['Previous page', 'Page 1', 'Next page']) {
        const box = (await nav.getByRole('button', { name, exact: true }).boundingBox())!;
        expect(box.x, `${list}: ${name}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${list}: ${name}`).toBeLessThanOrEqual(360);
      }
      await nav.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(() => nav.getByRole('button', { name: 'Page 2', exact: true }).getAttribute('aria-current')).toBe('page');
    }
    await page.screenshot({ path: screenshotPath('walk-phone-pagination') });
    expect(errors).toEqual([]);
  });

  it('keeps the gene header and the variant evidence inside a 390 px screen', async () => {
    const { page, errors } = await env.newPage({ width: 390, height: 844 });
    await logIn(page, email);
    /** Elements of `root` that end beyond the screen's right edge (outside any horizontal scroller). */
    const beyond = (selector: string) =>
      page.evaluate((sel) => {
        const root = document.querySelector(sel);
        if (!root) return ['missing ' + sel];
        const scrolls = (e: Element | null): boolean => {
          for (let x = e; x && x !== root; x = x.parentElement) if (/(auto|scroll|hidden)/.test(getComputedStyle(x).overflowX)) return true;
          return false;
        };
        return [...root.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().right > window.innerWidth + 0.5 && !scrolls(e.parentElement))
          .map((e) => `${e.tagName} "${(e.textContent ?? '').trim().slice(0, 30)}" right ${Math.round(e.getBoundingClientRect().right)}`);
      }, selector);
    await page.goto(`/my-product/${productId}/genes/FGFR2`);
    await page.getByTestId('gene-symbol').waitFor();
    await page.getByTestId('gene-probability').waitFor();
    expect(await beyond('main header')).toEqual([]);
    const badge = (await page.locator('main header').getByText(/significance|pathogenic|benign/i).first().boundingBox())!;
    expect(badge.x + badge.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('walk-phone-gene') });

    await page.getByTestId('variant-card').first().click();
    const evidence = page.getByTestId('variant-evidence');
    await evidence.waitFor();
    await evidence.getByText(/ACMG/).first().waitFor();
    // Once the drawer has slid in.
    await expect.poll(() => beyond('[data-testid="variant-evidence"]'), { timeout: 5000 }).toEqual([]);
    await page.screenshot({ path: screenshotPath('walk-phone-variant') });

    // The knowledge-base versions the ranking used are shown on a phone too, inside the screen.
    await page.goto(`/my-product/${productId}/phenotypes`);
    const versions = page.getByTestId('kb-versions');
    await versions.waitFor({ state: 'visible' });
    await expect(versions.innerText()).resolves.toMatch(/^Knowledge base hpo \d{4}-\d{2}-\d{2}/);
    expect(await beyond('[data-testid="kb-versions"]')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps a completed case’s actions (Share, Open results, Delete) inside its card on a 390 px screen', async () => {
    const { page, errors } = await env.newPage({ width: 390, height: 844 });
    await logIn(page, email);
    const card = page.getByTestId('case-card').filter({ hasText: 'WALK-PFS' }).first();
    const remove = card.getByRole('button', { name: 'Delete case WALK-PFS' });
    await remove.waitFor();
    const cardBox = (await card.boundingBox())!;
    for (const action of [remove, card.getByRole('link', { name: /Open results/ }), card.getByRole('button', { name: /Share/ })]) {
      const box = (await action.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
      expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    }
    expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('walk-phone-home') });
    expect(errors).toEqual([]);
  });

  it('keeps the account activity inside a 390 px screen (the table scrolls in its card)', async () => {
    const { page, errors } = await env.newPage({ width: 390, height: 844 });
    await logIn(page, email);
    await page.goto('/my-account/passwords');
    const table = page.getByRole('table', { name: 'Account activity' });
    await table.getByText('Signed in').first().waitFor();
    const card = (await page.getByRole('heading', { name: 'Account activity' }).locator('..').boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(390);
    // Nothing makes the signed-in area scroll sideways.
    const sideways = await page.evaluate(() => {
      const holder = document.querySelector('table[aria-label="Account activity"]')?.parentElement;
      return [...document.querySelectorAll('*')]
        .filter((e) => e !== holder && e.scrollWidth > e.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(e).overflowX))
        .map((e) => `${e.tagName}.${String(e.className).slice(0, 40)} ${e.scrollWidth} > ${e.clientWidth}`);
    });
    expect(sideways).toEqual([]);
    await page.screenshot({ path: screenshotPath('walk-phone-activity') });
    expect(errors).toEqual([]);
  });
});

describe('queued and failed cases', () => {
  it('shows a queued case as "In queue" everywhere, never "Processing... 0%"', async () => {
    // A case waiting for a worker: the row the upload writes, with no job taken yet.
    const queuedId = await insertQueuedCopy(env, productId, 'WALK-QUEUED');
    const { page, errors } = await env.newPage({ width: 1440, height: 900 });
    await logIn(page, email);
    const row = page.locator('[data-case-id="WALK-QUEUED"]');
    await expect(row.getByTestId('case-status').innerText()).resolves.toBe('In queue');
    await expect(row.getByText(/Processing|%/).count()).resolves.toBe(0);
    for (const path of ['phenotypes', 'diagnose', 'chat']) {
      await page.goto(`/my-product/${queuedId}/${path}`);
      await page.getByTestId('case-status').first().waitFor();
      await expect(page.getByTestId('case-status').first().innerText()).resolves.toBe('In queue');
      await expect(page.getByText(/Processing\.\.\.|\d+%/).count()).resolves.toBe(0);
    }
    await page.screenshot({ path: screenshotPath('walk-queued-diagnose') });
    expect(errors).toEqual([]);
  });

  it('offers Retry and Delete on a failed case, on /home and on its results page', async () => {
    const vcf = lateFailingVcf().text;
    const upload = async (caseId: string) => {
      const form = new FormData();
      form.set('caseId', caseId);
      form.set('gender', 'female');
      form.set('symptoms', 'Craniosynostosis.');
      form.set('hpoTerms', JSON.stringify(['HP:0001363']));
      form.set('assembly', 'GRCh37');
      form.set('genomeFile', new Blob([vcf], { type: 'text/plain' }), 'broken.vcf');
      const res = await fetch(`${env.baseUrl}/api/products`, { method: 'POST', headers: auth, body: form });
      expect(res.status).toBe(202);
      return ((await res.json()) as { id: string }).id;
    };
    const failedId = await upload('WALK-FAILED');
    const otherId = await upload('WALK-FAILED-2');
    const { page, errors } = await env.newPage({ width: 1440, height: 900 });
    await logIn(page, email);
    const row = page.locator('[data-case-id="WALK-FAILED"]');
    await row.locator('[data-status="Error"]').waitFor({ timeout: 120_000 });
    const stateOf = async () =>
      (await env.sql<{ status: string; at: string }>('SELECT status, updated_at::text AS at FROM products WHERE id = $1', [failedId]))[0]!;
    const before = await stateOf();

    // Retry: the case goes back to the queue and is analysed again (it fails again: same file).
    await row.getByRole('button', { name: 'Retry the analysis of WALK-FAILED' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Case WALK-FAILED is queued again' }).waitFor();
    await expect
      .poll(async () => {
        const now = await stateOf();
        return now.status === 'Error' && now.at !== before.at ? 'failed again' : now.status;
      }, { timeout: 120_000, interval: 200 })
      .toBe('failed again');
    await row.locator('[data-status="Error"]').waitFor({ timeout: 30_000 });

    // Delete from /home, after the confirmation.
    await row.getByRole('button', { name: 'Delete case WALK-FAILED' }).click();
    await page.getByRole('alertdialog').getByText('Delete case WALK-FAILED?').waitFor();
    await page.getByTestId('confirm-delete-case').click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Case WALK-FAILED deleted' }).waitFor();
    await row.waitFor({ state: 'detached' });
    await expect(env.sql('SELECT id FROM products WHERE id = $1', [failedId])).resolves.toEqual([]);

    // The results page of a failed case offers the same, and goes home after a delete.
    await page.goto(`/my-product/${otherId}/phenotypes`);
    await page.getByTestId('case-error-reason').waitFor({ timeout: 120_000 });
    await expect(page.getByRole('button', { name: 'Retry the analysis of WALK-FAILED-2' }).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Delete case WALK-FAILED-2' }).click();
    await page.getByTestId('confirm-delete-case').click();
    await page.waitForURL('**/home');
    await expect(page.locator('[data-case-id="WALK-FAILED-2"]').count()).resolves.toBe(0);
    await page.screenshot({ path: screenshotPath('walk-failed-deleted') });

    // A completed case cannot be "retried" (the authorization matrix covers the other users).
    const retryCompleted = await fetch(`${env.baseUrl}/api/products/${productId}/retry`, { method: 'POST', headers: auth });
    expect(retryCompleted.status).toBe(409);
    expect(errors).toEqual([]);
  });
});

describe('the Diagnose module', () => {
  it('takes free text: PhenomeAI suggests its phenotypes and an accepted one is saved with the terms', async () => {
    const { page, errors } = await env.newPage({ width: 1440, height: 1100 });
    await logIn(page, email);
    await page.goto(`/my-product/${productId}/diagnose`);
    const box = page.getByLabel('Add findings in free text');
    await box.fill('Since the last visit: hearing loss on the left.');
    const hearing = page.locator('[data-testid="phenome-suggestion"][data-kind="present"][data-term-id="HP:0000365"]');
    await hearing.waitFor({ timeout: 30_000 });
    // The typed text is shown with its phenotype marked, after the case's description.
    await page.getByTestId('diagnose-text').locator('mark[data-term-id="HP:0000365"]').waitFor();
    await page.screenshot({ path: screenshotPath('walk-diagnose-free-text') });
    await page.getByRole('button', { name: 'Accept: Hearing impairment (HP:0000365)' }).click();
    const presentTerms = page.getByTestId('diagnose-present-terms').getByTestId('diagnose-term');
    await expect
      .poll(() => presentTerms.evaluateAll((els) => els.map((e) => e.getAttribute('data-term-id'))))
      .toContain('HP:0000365');
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/api/products/${productId}/phenotype-terms`));
    await page.getByTestId('diagnose-rerank').click();
    expect(((await put).postDataJSON() as { hpoTerms: string[] }).hpoTerms).toContain('HP:0000365');
    await expect
      .poll(async () => {
        const res = await fetch(`${env.baseUrl}/api/products/${productId}`, { headers: auth });
        return ((await res.json()) as { hpoTerms: { id: string }[] | string[] }).hpoTerms.map((t) => (typeof t === 'string' ? t : t.id));
      }, { timeout: 30_000 })
      .toContain('HP:0000365');
    expect(errors).toEqual([]);
  });
});

describe('a new user’s Pfeiffer exome, end to end (issue 17 items 4 and 6)', () => {
  it('reads the terms when the upload is sent while PhenomeAI still reads; the reviewer’s class reaches every screen and the PDF', async () => {
    const { page, errors } = await env.newPage({ width: 1440, height: 900 });
    await logIn(page, email);
    await page.goto('/upload');
    await page.getByLabel('Case ID').fill('WALK-NEW-USER');
    await page.getByText('Male', { exact: true }).click();
    await page.getByLabel('Clinical symptoms').fill('Boy, 2 years. Broad thumbs and great toes, craniosynostosis with a cloverleaf skull, proptosis and midface hypoplasia.');
    await page.locator('[data-testid="genome-dropzone"] input[type=file]').setInputFiles(vcfPath);
    await page.getByLabel('Genome assembly').selectOption('GRCh37');
    // Submitted at once: no term picked, PhenomeAI's suggestions not accepted.
    expect(await page.getByTestId('hpo-chip').count()).toBe(0);
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    await page.waitForURL('**/home', { timeout: 60_000 });
    const row = page.locator('[data-case-id="WALK-NEW-USER"]');
    await row.locator('[data-status="Completed"]').waitFor({ timeout: 180_000 });
    const [created] = await env.sql<{ id: string; terms: number; source: string }>(
      "select id, jsonb_array_length(hpo_terms) as terms, hpo_terms_source as source from products where case_id = 'WALK-NEW-USER'",
    );
    expect(created!.source).toBe('phenome');
    expect(created!.terms).toBeGreaterThanOrEqual(4);
    const base = `/my-product/${created!.id}`;

    // Phenotypes: said where the terms came from, ranked on them, with post-test probabilities.
    await page.goto(`${base}/phenotypes`);
    await page.getByTestId('phenome-terms-notice').waitFor();
    await page.getByText(new RegExp(`diseases ranked for ${created!.terms} patient terms`)).waitFor();
    await expect(page.getByTestId('phenotype-row').first().innerText()).resolves.toMatch(/\d+(\.\d)?%/);

    // The FGFR2 variant: ClinVar's assertion beside the ACMG class; the reviewer sets Pathogenic.
    await page.goto(`${base}/genes/FGFR2`);
    await expect(page.getByTestId('gene-probability').innerText()).resolves.toMatch(/\d+%/);
    await page.locator('tr').filter({ hasText: 'c.1694A>C' }).first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('clinvar-assertion').first().waitFor();
    await expect(drawer.getByText('0 of 4 stars · no assertion criteria provided').count()).resolves.toBe(1);
    await drawer.getByRole('button', { name: 'Set reviewer class' }).click();
    await drawer.getByLabel('Reviewer class', { exact: true }).selectOption('Pathogenic');
    await drawer.getByLabel('Reason').fill('Known Pfeiffer allele, phenotype specific.');
    await drawer.getByRole('button', { name: 'Save reviewer class' }).click();
    await drawer.getByTestId('reviewer-classification').first().waitFor();
    await drawer.getByRole('button', { name: 'Add to report' }).click();
    await drawer.getByText('In reporting list').waitFor();
    await page.keyboard.press('Escape');

    // Its gene and the gene's diseases take the reviewer's class as their significance.
    await page.goto(`${base}/genes`);
    await expect(page.locator('tr').filter({ hasText: 'FGFR2' }).first().innerText()).resolves.toContain('Pathogenic');
    await page.goto(`${base}/phenotypes`);
    await expect(page.getByTestId('phenotype-row').filter({ hasText: 'FGFR2' }).first().innerText()).resolves.toContain('Pathogenic');

    // Reporting list and PDF: the reviewer's class and reason, ClinVar, and no contradiction.
    await page.goto(`${base}/report`);
    const item = page.getByTestId('report-item');
    await item.getByTestId('reviewer-classification').waitFor();
    await item.getByTestId('clinvar-assertion').waitFor();
    await page.screenshot({ path: screenshotPath('walk-new-user-report') });
    const downloading = await downloadOnClick(page, page.getByTestId('generate-report'));
    const text = execFileSync('pdftotext', [await downloading.path(), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Pathogenic — Known Pfeiffer allele, phenotype specific.');
    expect(text).toContain('Pathogenic (0 stars, no assertion criteria provided) VCV 13294 release 2016-09');
    expect(text).toContain('reviewer: Pathogenic; automatic ACMG: Uncertain significance');
    expect(text).not.toContain('none is classified as pathogenic');
    expect(text).not.toContain('specific..');
    expect(errors).toEqual([]);
  });
});
