/**
 * Sharing end to end in the browser (issue 18): the owner shares a completed case's phenotypes
 * with a colleague who has no account; the e-mail is caught, the colleague opens the link
 * signed out and reads the phenotypes; the owner sees the opening in Share settings, unshares
 * (confirmation, toast) and the link is dead at once. A recipient with an account who opens the
 * link signed in is taken to the case, finds it under "Shared with me" and sees Genes.
 *
 * Needs the knowledge base (RARELENS_KB, default ./data/kb) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { Messages } from '@rarelens/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompletedCase, createVerifiedUser, logIn, startCaseTestEnv } from './case-fixtures.ts';
import { extractLink, screenshotPath, uniqueEmail, type TestEnv } from './harness.ts';

const CASE_ID = 'SHARE-E2E-1';
let env: TestEnv;
let ownerEmail: string;
let productId: string;

beforeAll(async () => {
  env = await startCaseTestEnv();
  ownerEmail = uniqueEmail('owner');
  const auth = await createVerifiedUser(env, ownerEmail, { name: 'Ada', surname: 'Hamosh', birthDate: '1970-03-01' });
  productId = await createCompletedCase(env, auth, {
    caseId: CASE_ID,
    symptoms: 'Craniosynostosis, broad thumbs and great toes.',
    hpoTerms: ['HP:0000244', 'HP:0011304', 'HP:0001770'],
  });
}, 240_000);
afterAll(async () => {
  await env?.stop();
});

async function toast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();
}

/** Shares the case from its phenotypes page and returns the link e-mailed to `email`. */
async function shareFromPhenotypes(page: Page, email: string): Promise<string> {
  const before = env.mail.mailsFor(email).length;
  await page.goto(`/my-product/${productId}/phenotypes`);
  await page.getByTestId('share-case').click();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByTestId('confirm-share').click();
  await toast(page, `Shared with ${email}`);
  const mail = await env.mail.waitForMail(email, { skip: before });
  expect(mail.subject).toContain(CASE_ID);
  return extractLink(mail, '/shared/');
}

describe('sharing in the browser', () => {
  it('shares by e-mail, the link opens signed out, the owner sees the opening and unshares, the link dies', async () => {
    const owner = await env.newPage({ width: 1440, height: 900 });
    await logIn(owner.page, ownerEmail);
    const colleague = uniqueEmail('colleague');
    const link = await shareFromPhenotypes(owner.page, colleague);
    expect(new URL(link).pathname).toMatch(/^\/shared\/[A-Za-z0-9_-]{43}$/);

    // The colleague has no account: the link shows the phenotypes read-only, no login.
    const reader = await env.newPage({ width: 1280, height: 900 });
    await reader.page.goto(link);
    await reader.page.getByRole('heading', { name: `Case ${CASE_ID}` }).waitFor();
    expect(reader.page.url()).toBe(link);
    const rows = reader.page.getByTestId('shared-phenotype-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    await expect.poll(() => reader.page.getByText(/Pfeiffer/i).count()).toBeGreaterThan(0);
    expect(await reader.page.getByTestId('share-case').count()).toBe(0);
    await reader.page.screenshot({ path: screenshotPath('shared-link-signed-out') });

    // The owner sees who opened it, then unshares with the spec's confirmation and toast.
    await owner.page.goto('/my-product/share-settings');
    const row = owner.page.locator(`[data-testid="share-row"][data-email="${colleague}"]`);
    await row.waitFor();
    await expect.poll(() => row.getByTestId('share-last-opened').textContent()).toContain('(1 time)');
    expect(await row.textContent()).toContain(CASE_ID);
    expect(await row.textContent()).toContain('Active');
    await row.getByTestId('unshare').click();
    await owner.page.getByRole('alertdialog').getByText(Messages.unshareConfirm).waitFor();
    await owner.page.getByTestId('confirm-unshare').click();
    await toast(owner.page, Messages.unshared);
    await expect.poll(() => row.textContent()).toContain('Unshared');

    // The link is dead at once.
    await reader.page.reload();
    await reader.page.getByTestId('shared-link-dead').waitFor();
    expect(owner.errors).toEqual([]);
    expect(reader.errors).toEqual([]);
  }, 120_000);

  it('takes a signed-in recipient from the link to the case, listed under "Shared with me" with Genes', async () => {
    const recipientEmail = uniqueEmail('recipient');
    await createVerifiedUser(env, recipientEmail, { name: 'Victor', surname: 'McKusick', birthDate: '1975-10-21' });
    const owner = await env.newPage({ width: 1440, height: 900 });
    await logIn(owner.page, ownerEmail);
    const link = await shareFromPhenotypes(owner.page, recipientEmail);

    const recipient = await env.newPage({ width: 1440, height: 900 });
    await logIn(recipient.page, recipientEmail);
    const shared = recipient.page.getByRole('region', { name: 'Shared with me' });
    await shared.getByRole('link', { name: CASE_ID, exact: true }).waitFor();
    await recipient.page.goto(link);
    await recipient.page.waitForURL(`**/my-product/${productId}/phenotypes`);
    // A shared product shows Genes in its navigation; a shared user cannot re-share.
    await recipient.page.getByRole('link', { name: 'Genes' }).first().waitFor();
    await recipient.page.getByTestId('phenotype-row').first().waitFor();
    expect(await recipient.page.getByTestId('share-case').count()).toBe(0);
    expect(recipient.errors).toEqual([]);
  }, 120_000);
});
