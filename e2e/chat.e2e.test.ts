/**
 * GenomeTalks in the browser: a user with a completed case (a Pfeiffer exome excerpt analysed
 * by the real engine) opens GenomeTalks from the navigation, asks in their own words with
 * Enter, gets a cited answer; a failed request shows "Sorry, an error occurred. Please try
 * again." and keeps the typed question, which then sends; a citation opens the gene screen; the conversation
 * survives a reload; on a 360 px phone the conversations open in a sheet; another user's case
 * shows the not-found page.
 *
 * Needs the knowledge base (RARELENS_KB, default ./data/kb) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { describe, expect, it } from 'vitest';
import { createCompletedCase, createVerifiedUser, logIn, startCaseTestEnv, signedInPage } from './case-fixtures.ts';
import { screenshotPath, uniqueEmail, type TestEnv, useTestEnv } from './harness.ts';

let env: TestEnv;

useTestEnv(() => startCaseTestEnv(), (started) => void (env = started));

describe('GenomeTalks in the browser', () => {
  it('asks about the case, follows a citation, keeps the conversation, and works on a phone', async () => {
    const email = uniqueEmail('barbara');
    const auth = await createVerifiedUser(env, email, { name: 'Barbara', surname: 'McClintock', birthDate: '1970-06-16' });
    const productId = await createCompletedCase(env, auth, {
      caseId: 'CHAT-E2E-1',
      symptoms: 'Craniosynostosis, broad thumbs and great toes.',
      hpoTerms: ['HP:0000244', 'HP:0011304', 'HP:0001770'],
    });
    const genes = (await (await fetch(`${env.baseUrl}/api/products/${productId}/genes`, { headers: auth })).json()) as { items: { symbol: string }[] };
    const top = genes.items[0]!.symbol;

    const { page, errors } = await env.newPage({ width: 1280, height: 900 });
    await logIn(page, email);
    await page.goto(`/my-product/${productId}/phenotypes`);
    await page.getByRole('link', { name: /GenomeTalks/ }).first().click();
    await page.waitForURL(`**/my-product/${productId}/chat`);
    // The first chat request of a fresh server loads the chat knowledge from the KB: over 15 s on a loaded 2-core machine.
    await page.getByTestId('suggested-question').first().waitFor({ timeout: 90_000 });

    const composer = page.getByLabel('Your question');
    await composer.fill('why is this gene at the top?');
    await composer.press('Enter');
    const answer = page.getByTestId('chat-answer').last();
    await answer.getByText(`The most likely candidate is ${top}`).waitFor();
    await answer.getByTestId('citation').first().waitFor();
    expect(await composer.inputValue()).toBe('');
    await page.screenshot({ path: screenshotPath('chat-desktop') });

    // A failed request says so and keeps what was typed; sending it again then works.
    await page.waitForURL(/[?&]c=[0-9a-f-]{36}/);
    const chatUrl = `**/api/products/${productId}/chat`;
    let failed = 0;
    await page.route(chatUrl, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      failed++;
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal_error', message: 'boom' }) });
    });
    await composer.fill('what should I examine next?');
    await composer.press('Enter');
    await page.getByText('Sorry, an error occurred. Please try again.').first().waitFor();
    expect(failed).toBe(1);
    expect(await composer.inputValue()).toBe('what should I examine next?');
    await page.unroute(chatUrl);
    await composer.press('Enter');
    await page.getByTestId('chat-question').filter({ hasText: 'what should I examine next?' }).waitFor();
    await expect.poll(() => page.getByTestId('chat-answer').count()).toBe(2);
    expect(await page.getByText('Sorry, an error occurred. Please try again.').count()).toBe(0);
    expect(await composer.inputValue()).toBe('');

    // The conversation is kept: it is in the URL and survives a reload.
    await page.reload();
    await page.getByTestId('chat-question').filter({ hasText: 'why is this gene at the top?' }).waitFor();

    // A gene citation opens the gene screen.
    await page.getByTestId('chat-answer').last().locator(`[data-testid="citation"][data-kind="gene"]`).filter({ hasText: top }).first().click();
    await page.waitForURL(`**/my-product/${productId}/genes/${top}`);
    await page.getByRole('heading', { name: top }).first().waitFor();
    expect(errors).toEqual([]);

    // Phone: the conversation list opens as a sheet.
    const phone = await env.newPage({ width: 360, height: 740 });
    await logIn(phone.page, email);
    await phone.page.goto(`/my-product/${productId}/chat`);
    await phone.page.getByRole('button', { name: /Conversations \(1\)/ }).click();
    await phone.page.getByRole('dialog').getByText('why is this gene at the top?').waitFor();
    await phone.page.screenshot({ path: screenshotPath('chat-phone') });

    // Someone who may not read the case gets the not-found page.
    const otherEmail = uniqueEmail('rosalind');
    const other = await signedInPage(env, otherEmail, { name: 'Rosalind', surname: 'Franklin', birthDate: '1980-07-25' }, { width: 1280, height: 900 });
    await other.page.goto(`/my-product/${productId}/chat`);
    await other.page.getByText('Sorry, page not found').waitFor();
  });
});
