import { formatMoney, type PlansResponse } from '@rarelens/contract';
import { describe, expect, it } from 'vitest';
import { screenshotPath, startTestEnv, type TestEnv, useTestEnv } from './harness.ts';

let env: TestEnv;

useTestEnv(() => startTestEnv(), (started) => void (env = started));

describe('public pages in the browser', () => {
  it('shows the 404 page for an unknown path, and "Take me home" leads to /', async () => {
    const { page } = await env.newPage();
    const response = await page.goto('/no/such/page');
    // §8: status 404 for the document, and the app's error page.
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expect(page.getByText('Sorry, page not found').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('img', { name: /magnifying lens/ }).isVisible()).resolves.toBe(true);
    await expect(page.title()).resolves.toBe('Page Not Found: /no/such/page');
    await page.screenshot({ path: screenshotPath('not-found-desktop') });
    await page.getByRole('link', { name: 'Take me home' }).click();
    await page.waitForURL(env.baseUrl + '/');
    await page.getByRole('heading', { level: 1, name: /Effortless variant interpretation/ }).waitFor();
    await expect(page.title()).resolves.toBe('Effortless variant interpretation with AI');
  });

  it('serves the landing page with its metadata, and the header and footer links reach every anchor', async () => {
    const { page } = await env.newPage({ width: 1440, height: 900 });
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /Effortless variant interpretation/ }).waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(page.locator('meta[name="description"]').getAttribute('content')).resolves.toMatch(/saving time and improving accuracy/);
    await expect(page.locator('meta[property="og:title"]').getAttribute('content')).resolves.toBe('Effortless variant interpretation with AI');
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
      '@graph': Array<{ '@type': string; foundingDate?: string; industry?: string }>;
    };
    expect(jsonLd['@graph'].map((n) => n['@type']).sort()).toEqual(['BreadcrumbList', 'Organization', 'WebSite']);
    expect(jsonLd['@graph'].find((n) => n['@type'] === 'Organization')).toMatchObject({ foundingDate: '2024', industry: 'Biotechnology' });
    const localeCookie = (await page.context().cookies()).find((c) => c.name === 'rarelens_locale');
    expect(localeCookie?.value).toBe('en-US');
    const days = ((localeCookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    for (const claim of ['98%', '30%', '80%', '5 years']) {
      await expect(page.getByText(claim, { exact: true }).isVisible(), claim).resolves.toBe(true);
    }
    await page.screenshot({ path: screenshotPath('landing-desktop') });

    const header = page.getByRole('banner');
    for (const [label, id] of [
      ['Product', 'product'],
      ['About us', 'about-us'],
      ['Pricing', 'pricing'],
      ['Contact', 'contact-us'],
    ] as const) {
      await header.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**/#${id}`);
      await page.waitForFunction((target) => {
        const rect = document.getElementById(target)?.getBoundingClientRect();
        return rect !== undefined && Math.abs(rect.top) < 120;
      }, id);
    }
    const pricing = page.locator('#pricing');
    for (const plan of ['Basic', 'Standard', 'Advanced']) {
      await expect(pricing.getByRole('heading', { name: plan, exact: true }).isVisible(), plan).resolves.toBe(true);
    }
    expect(await pricing.getByText('per case per month', { exact: true }).count()).toBe(3);
    await expect(pricing.getByText('Add-on: raw data analysis').isVisible()).resolves.toBe(true);
    // The prices are the configured price list's (GET /api/plans), not texts of the page.
    const list = (await (await fetch(`${env.baseUrl}/api/plans`)).json()) as PlansResponse;
    for (const plan of list.plans) {
      const card = pricing.locator(`[data-testid="pricing-plan"][data-plan="${plan.code}"]`);
      await expect(card.getByTestId('pricing-price').innerText(), plan.code).resolves.toBe(formatMoney(plan.pricePerCase, list.currency));
    }
    const addOn = list.addOns.find((a) => a.code === 'raw-data-analysis')!;
    await expect(pricing.getByTestId('pricing-addon-price').innerText()).resolves.toBe(`${formatMoney(addOn.pricePerCase, list.currency)} per case.`);

    const footer = page.getByRole('contentinfo');
    for (const label of ['Product', 'About us', 'Pricing', 'Contact', 'Privacy', 'Terms']) {
      await expect(footer.getByRole('link', { name: label, exact: true }).isVisible(), label).resolves.toBe(true);
    }
    await footer.getByRole('link', { name: 'Privacy', exact: true }).click();
    await page.waitForURL('**/privacy');
    await page.getByText(/not directed to children under 13/).waitFor();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL('**/#pricing');
    await page.locator('#pricing').waitFor();
  });

  it('sends the contact form and the demo request', async () => {
    const { page } = await env.newPage();
    await page.goto('/#contact-us');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByRole('button', { name: 'Send message' }).click();
    expect(await form.getByText('This field is mandatory').count()).toBe(4);
    await form.getByLabel('Name', { exact: true }).fill('Barbara');
    await form.getByLabel('Surname').fill('McClintock');
    await form.getByLabel('Email').fill('barbara@example.org');
    await form.getByLabel('Message').fill('Do you support trio analysis?');
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('An email has been sent').waitFor();
    const messages = await env.sql<{ email: string }>('SELECT email FROM contact_messages WHERE email = $1', ['barbara@example.org']);
    expect(messages).toHaveLength(1);

    await page.goto('/book-demo');
    const demo = page.getByRole('form', { name: 'Demo request' });
    await demo.getByLabel('Name', { exact: true }).fill('Barbara');
    await demo.getByLabel('Surname').fill('McClintock');
    await demo.getByLabel('Work email').fill('barbara@example.org');
    await demo.getByLabel('Job title').fill('Lab director');
    await demo.getByLabel('Company name').fill('Cold Spring Genomics');
    await demo.getByLabel('Phone').fill('+1 555 0100');
    await demo.getByLabel('Country').fill('United States');
    await demo.getByLabel('Yearly sample count').selectOption({ index: 2 });
    await demo.getByRole('button', { name: 'Request a demo' }).click();
    await page.getByRole('heading', { name: 'Demo request sent' }).waitFor();
  });

  it('collapses the signed-out header into a popover menu on a phone', async () => {
    const { page } = await env.newPage({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.screenshot({ path: screenshotPath('landing-390') });
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' }).isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog');
    await menu.waitFor();
    await page.waitForTimeout(250); // let the fade-in finish before the screenshot
    for (const label of ['Product', 'About us', 'Pricing', 'Contact', 'Request a demo', 'Login']) {
      await expect(menu.getByRole('link', { name: label, exact: true }).isVisible(), label).resolves.toBe(true);
    }
    await page.screenshot({ path: screenshotPath('header-popover-390') });
    await menu.getByRole('link', { name: 'Pricing', exact: true }).click();
    await page.waitForURL('**/#pricing');
    await menu.waitFor({ state: 'hidden' });
  });
});
