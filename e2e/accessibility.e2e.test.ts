/**
 * Accessibility in Chromium: axe-core (WCAG 2.0 and 2.1, levels A and AA) on every main screen
 * with real content (a Pfeiffer exome excerpt analysed by the real engine, a reporting list, a
 * GenomeTalks answer, a share), on a 1440x900 desktop and a 390 px phone, with axe's page-structure
 * rules (landmarks, headings). Any violation fails the test and is listed by rule, count and
 * element. No rule is switched off.
 *
 * Needs the knowledge base (RARELENS_KB, default ./data/kb) and the reference data
 * (RARELENS_SOURCES, default ../shared/data).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompletedCase, createVerifiedUser, logIn, startCaseTestEnv } from './case-fixtures.ts';
import { extractLink, fillRegistration, uniqueEmail, type TestEnv } from './harness.ts';

// Evaluated as a page script through the DevTools protocol: the app's Content-Security-Policy
// (script-src 'self') rightly refuses an injected <script>.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 and 2.1 success criteria of levels A and AA (axe's tags for them). */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * With them, axe's page-structure rules (tagged best-practice, not WCAG): one main landmark,
 * content inside landmarks, unique landmark names, an h1 and no skipped heading level, so that
 * screen-reader users can move by landmark and heading. All pass today; they guard the layouts.
 */
const structureRules = [
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-main-is-top-level',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-unique',
  'region',
  'page-has-heading-one',
  'heading-order',
];

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string; html?: string }[] };

/** Waits until CSS transitions and animations (drawers sliding in, fades) have ended. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/**
 * Runs axe on the page as it is now and returns its violations, one line per rule:
 * "rule-id (n): help — target; target ...".
 */
async function axeViolations(page: Page): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async ({ tags, extra }) => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: Violation[] }>; getRules: (tags: string[]) => { ruleId: string; tags: string[] }[] };
      }
    ).axe;
    // Rule ids rather than tags, to add the structure rules; axe's experimental rules stay off,
    // as a tag run leaves them.
    const rules = [...axe.getRules(tags).filter((r) => !r.tags.includes('experimental')).map((r) => r.ruleId), ...extra];
    // A wrong tag would silently run nothing: the WCAG A/AA rules number about 60 in axe 4.
    if (!rules.includes('color-contrast') || rules.length < 50) throw new Error(`axe would run only ${rules.join(', ')}`);
    const result = await axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, html: (n as { html?: string }).html })),
    }));
  }, { tags: wcagTags, extra: structureRules });
  // A11Y_REPORT=<file>: every violating element as a JSON line (rule, page, element), for audits.
  const report = process.env.A11Y_REPORT;
  if (report) {
    const where = { url: new URL(page.url()).pathname, width: page.viewportSize()?.width };
    for (const v of violations) for (const n of v.nodes) appendFileSync(report, JSON.stringify({ ...where, rule: v.id, target: n.target.join(' '), html: n.html?.slice(0, 200), summary: n.failureSummary }) + '\n');
  }
  return violations.map(
    (v) =>
      `${v.id} (${v.nodes.length}): ${v.help} — ${v.nodes
        .slice(0, 6)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}]` : ''}`)
        .join('; ')}`,
  );
}

let env: TestEnv;
let email: string;
let productId: string;
let sharedLink: string;

beforeAll(async () => {
  env = await startCaseTestEnv();
  email = uniqueEmail('a11y');
  const auth = await createVerifiedUser(env, email, { name: 'Grace', surname: 'Hopper', birthDate: '1976-12-09' });
  productId = await createCompletedCase(env, auth, {
    caseId: 'A11Y-PFS',
    symptoms: 'Broad thumbs and halluces, craniosynostosis and proptosis.',
    hpoTerms: ['HP:0011304', 'HP:0010055', 'HP:0001363', 'HP:0000520'],
  });
  const json = { ...auth, 'content-type': 'application/json' };
  // A reporting list with the FGFR2 variant, and a share whose link the signed-out pages open.
  const variants = (await (await fetch(`${env.baseUrl}/api/products/${productId}/variants?gene=FGFR2`, { headers: auth })).json()) as {
    items: { id: number; gene?: string | null }[];
  };
  const fgfr2 = variants.items[0];
  expect(fgfr2, 'an FGFR2 variant in the case').toBeDefined();
  const added = await fetch(`${env.baseUrl}/api/products/${productId}/report-items`, { method: 'POST', headers: json, body: JSON.stringify({ variantId: fgfr2!.id }) });
  expect(added.status).toBeLessThan(300);
  const colleague = uniqueEmail('a11y-colleague');
  const shared = await fetch(`${env.baseUrl}/api/products/${productId}/shares`, { method: 'POST', headers: json, body: JSON.stringify({ email: colleague }) });
  expect(shared.status).toBeLessThan(300);
  sharedLink = extractLink(await env.mail.waitForMail(colleague), '/shared/');
}, 300_000);
afterAll(async () => {
  await env?.stop();
});

const viewports = [
  { name: 'desktop 1440x900', width: 1440, height: 900 },
  { name: 'phone 390x844', width: 390, height: 844 },
];

describe.each(viewports)('WCAG 2.1 AA on $name', (viewport) => {
  let page: Page;
  let pageErrors: string[];
  let visitor: Page;

  beforeAll(async () => {
    ({ page, errors: pageErrors } = await env.newPage(viewport));
    await logIn(page, email);
    ({ page: visitor } = await env.newPage(viewport));
  });
  afterAll(() => {
    expect(pageErrors).toEqual([]);
  });

  /** Opens `path` in `on`, waits for `ready`, and expects no violation. */
  async function audit(on: Page, path: string, ready: (p: Page) => Promise<unknown>): Promise<void> {
    await on.goto(path);
    await ready(on);
    await on.waitForLoadState('networkidle');
    expect(await axeViolations(on), `${path} at ${viewport.width} px`).toEqual([]);
  }

  describe('signed out', () => {
    it('landing', () => audit(visitor, '/', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('login', () => audit(visitor, '/login', (p) => p.getByRole('button', { name: 'Log in' }).waitFor()));
    it('login with its errors', async () => {
      await visitor.goto('/login');
      await visitor.getByRole('button', { name: 'Log in' }).click();
      await visitor.locator('[aria-invalid="true"]').first().waitFor();
      expect(await axeViolations(visitor)).toEqual([]);
    });
    it('sign-up, and with its errors', async () => {
      await audit(visitor, '/register', (p) => p.getByRole('button', { name: 'Create account' }).waitFor());
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await visitor.locator('[aria-invalid="true"]').first().waitFor();
      expect(await axeViolations(visitor), 'sign-up with errors').toEqual([]);
      // The e-mail code step that follows.
      await fillRegistration(visitor, uniqueEmail(`a11y-signup-${viewport.width}`), 'Genome2024', { name: 'Ada', surname: 'Yonath', birthDate: '1979-06-22' });
      await visitor.getByRole('button', { name: 'Create account' }).click();
      await visitor.getByRole('heading', { name: 'Verify your email' }).waitFor();
      expect(await axeViolations(visitor), 'e-mail code step').toEqual([]);
    });
    it('shared index', () => audit(visitor, '/shared', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('shared case', () => audit(visitor, new URL(sharedLink).pathname, (p) => p.getByTestId('shared-phenotype-row').first().waitFor()));
    it('404', () => audit(visitor, '/no-such-page', (p) => p.getByRole('heading', { name: 'Page not found' }).waitFor()));
    it('password reset request', () => audit(visitor, '/reset-password', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('book a demo', () => audit(visitor, '/book-demo', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('terms and privacy', async () => {
      await audit(visitor, '/terms', (p) => p.getByRole('heading', { level: 1 }).waitFor());
      await audit(visitor, '/privacy', (p) => p.getByRole('heading', { level: 1 }).waitFor());
    });
  });

  describe('signed in', () => {
    const base = () => `/my-product/${productId}`;
    it('home with cases', () => audit(page, '/home', (p) => p.getByTestId('case-card').or(p.locator('[data-case-id="A11Y-PFS"]')).filter({ visible: true }).first().waitFor()));
    it('upload, with the form’s errors', async () => {
      await page.goto('/upload');
      await page.getByRole('form', { name: 'Genome upload' }).waitFor();
      expect(await axeViolations(page), 'empty upload form').toEqual([]);
      await page.getByRole('button', { name: 'Upload and analyse' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      expect(await axeViolations(page), 'upload form with errors').toEqual([]);
    });
    it('case overview (phenotypes)', () => audit(page, `${base()}/phenotypes`, (p) => p.getByText('Pfeiffer syndrome').filter({ visible: true }).first().waitFor()));
    it('phenotype details', () => audit(page, `${base()}/phenotypes/OMIM:101600`, (p) => p.getByTestId('phenotype-name').waitFor()));
    it('genes', () => audit(page, `${base()}/genes`, (p) => p.getByText('FGFR2').filter({ visible: true }).first().waitFor()));
    it('gene details', () => audit(page, `${base()}/genes/FGFR2`, (p) => p.getByTestId('gene-probability').waitFor()));
    it('variants, table and open drawer', async () => {
      await audit(page, `${base()}/phenotypes?view=variants`, (p) => p.getByTestId('variant-card').or(p.getByRole('button', { name: /^Open evidence for / })).filter({ visible: true }).first().waitFor());
      await page.getByTestId('variant-card').or(page.getByRole('button', { name: /^Open evidence for / })).filter({ visible: true }).first().click();
      await page.getByTestId('variant-evidence').getByText(/ACMG/).filter({ visible: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page), 'variant drawer').toEqual([]);
    });
    it('share dialog and delete confirmation', async () => {
      await page.goto(`${base()}/phenotypes`);
      await page.getByTestId('share-case').click();
      await page.getByRole('dialog', { name: 'Share A11Y-PFS' }).waitFor();
      await page.getByTestId('confirm-share').click();
      await page.getByRole('dialog').locator('[aria-invalid="true"]').waitFor();
      expect(await axeViolations(page), 'share dialog with its error').toEqual([]);
      await page.keyboard.press('Escape');
      await page.goto('/home');
      const remove = page.getByRole('button', { name: 'Delete case A11Y-PFS' }).filter({ visible: true }).first();
      await remove.click();
      await page.getByRole('alertdialog').waitFor();
      expect(await axeViolations(page), 'delete confirmation').toEqual([]);
      await page.keyboard.press('Escape');
    });
    it('navigation menu', async () => {
      await page.goto('/home');
      const open = page.getByRole('button', { name: 'Open menu' });
      if (!(await open.isVisible())) return; // the side navigation is always shown on a desktop
      await open.click();
      await page.getByRole('dialog').waitFor();
      expect(await axeViolations(page), 'navigation sheet').toEqual([]);
      await page.keyboard.press('Escape');
    });
    it('diagnose', () => audit(page, `${base()}/diagnose`, (p) => p.getByLabel('Add findings in free text').waitFor()));
    it('reporting list', () => audit(page, `${base()}/report`, (p) => p.getByTestId('report-item').first().waitFor()));
    it('GenomeTalks, with an answer', async () => {
      await audit(page, `${base()}/chat`, (p) => p.getByTestId('suggested-question').first().waitFor({ timeout: 90_000 }));
      const composer = page.getByLabel('Your question');
      await composer.fill('why is this gene at the top?');
      await composer.press('Enter');
      await page.getByTestId('chat-answer').last().getByTestId('citation').first().waitFor({ timeout: 60_000 });
      expect(await axeViolations(page), 'chat with an answer').toEqual([]);
    });
    it('account information', () => audit(page, '/my-account/account-information', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('passwords and activity', () => audit(page, '/my-account/passwords', (p) => p.getByRole('table', { name: 'Account activity' }).getByText('Signed in').first().waitFor()));
    it('orders', () => audit(page, '/orders', (p) => p.getByRole('heading', { level: 1 }).waitFor()));
    it('share settings', () => audit(page, '/my-product/share-settings', (p) => p.getByTestId('share-row').first().waitFor()));
    it('404 signed in', () => audit(page, '/my-product/00000000-0000-4000-8000-000000000000/phenotypes', (p) => p.getByRole('heading', { name: 'Page not found' }).waitFor()));
  });
});

// Radix moves the focus back to the opener in a timeout after the dialog unmounts: the checks
// of the focus after a close poll.

/** What has the keyboard focus: its accessible label or text, and whether it lies in `within`. */
async function focused(page: Page, within?: string): Promise<{ label: string; inside: boolean; tag: string }> {
  return page.evaluate((selector) => {
    const e = document.activeElement as HTMLElement | null;
    const label = e?.getAttribute('aria-label') ?? e?.textContent?.trim().slice(0, 80) ?? '';
    return { label, inside: selector ? Boolean(e?.closest(selector)) : false, tag: e?.tagName.toLowerCase() ?? '' };
  }, within);
}

/** Presses Tab until the focus is on an element whose label matches `target` (at most `limit` presses). */
async function tabTo(page: Page, target: RegExp, limit = 80): Promise<string> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const { label } = await focused(page);
    if (target.test(label)) return label;
  }
  throw new Error(`${limit} presses of Tab did not reach ${target}`);
}

describe('keyboard only', () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await env.newPage({ width: 1440, height: 900 }));
    await logIn(page, email);
  });

  it('opens a variant’s evidence from the table with Enter, keeps Tab inside the drawer, closes it with Escape and returns the focus', async () => {
    await page.goto(`/my-product/${productId}/phenotypes?view=variants`);
    await page.getByRole('button', { name: /^Open evidence for / }).first().waitFor();
    const opener = await tabTo(page, /^Open evidence for /);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await drawer.getByText(/ACMG/).filter({ visible: true }).first().waitFor();
    expect(new URL(page.url()).searchParams.get('variant')).toMatch(/^\d+$/);
    expect((await focused(page, '[data-testid="variant-evidence"]')).inside).toBe(true);
    // The focus stays in the drawer however far one tabs, forwards and backwards.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(i < 25 ? 'Tab' : 'Shift+Tab');
      const now = await focused(page, '[data-testid="variant-evidence"]');
      expect(now.inside, `Tab ${i + 1} left the drawer for ${now.tag} "${now.label}"`).toBe(true);
    }
    // Escape closes what is on top: a tooltip shown for the focused control first, then the drawer.
    const before = await focused(page);
    const tooltips = await page.getByRole('tooltip').count();
    await page.keyboard.press('Escape');
    if (tooltips > 0) {
      await expect.poll(() => page.getByRole('tooltip').count()).toBe(0);
      await page.keyboard.press('Escape');
    }
    await drawer.waitFor({ state: 'detached', timeout: 5000 }).catch(() => {
      throw new Error(`Escape did not close the drawer; the focus was on ${before.tag} "${before.label}" (${tooltips} tooltips)`);
    });
    expect(new URL(page.url()).searchParams.get('variant')).toBeNull();
    await expect.poll(async () => (await focused(page)).label).toBe(opener);
  });

  it('filters the variants with the keyboard: a checkbox list opened with Enter, Space, Escape back to its button, Enter applies', async () => {
    await page.goto(`/my-product/${productId}/phenotypes?view=variants`);
    await page.getByRole('button', { name: /^Open evidence for / }).first().waitFor();
    await tabTo(page, /^Zygosity: Any$/);
    await page.keyboard.press('Enter');
    const list = page.getByRole('dialog').filter({ has: page.getByRole('checkbox', { name: 'Heterozygous' }) });
    await list.waitFor();
    // The focus moves into the list, on its first choice.
    await expect.poll(async () => (await focused(page)).label).toBe('Heterozygous');
    await page.keyboard.press('Space');
    await expect.poll(() => list.getByRole('checkbox', { name: 'Heterozygous' }).getAttribute('aria-checked')).toBe('true');
    expect(await axeViolations(page), 'variant filter list open').toEqual([]);
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).label).toBe('Zygosity: Heterozygous');
    // The gene box, then Enter submits the filter form.
    await page.getByLabel('Gene', { exact: true }).focus();
    await page.keyboard.type('FGFR2');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('gene'), { timeout: 15_000 }).toBe('FGFR2');
    // Only FGFR2's variants are left (on its transcript NM_000141; the gene is the cluster's heading).
    const hgvs = page.getByTestId('variant-row').locator('td:nth-child(3) p.font-mono:first-of-type');
    await expect.poll(async () => (await hgvs.allTextContents()).every((t) => t.startsWith('NM_000141:')), { timeout: 15_000 }).toBe(true);
    expect(await hgvs.count()).toBeGreaterThan(0);
  });

  /** Picks a term with the arrows and Enter in the combobox `box`, then removes its chip with the keyboard. */
  async function pickWithKeys(box: Locator, chipOf: (termId: string) => Locator): Promise<void> {
    await box.focus();
    await page.keyboard.type('craniosyn');
    const options = page.getByRole('option');
    await expect.poll(() => options.count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await expect.poll(() => options.first().textContent(), { timeout: 15_000 }).toMatch(/HP:\d{7}/);
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const second = options.nth(1);
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    await page.keyboard.press('ArrowUp');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const chosenId = (await second.textContent())!.match(/HP:\d{7}/)![0];
    await page.keyboard.press('Enter');
    // The term is chosen, the list closes, the focus stays in the box for the next term.
    const chip = chipOf(chosenId);
    await chip.waitFor();
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('proptos');
    await expect.poll(() => box.getAttribute('aria-expanded'), { timeout: 15_000 }).toBe('true');
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    // The chip's remove button is reachable by Tab and works with Enter.
    const remove = chip.getByRole('button', { name: new RegExp(`^Remove .*\\(${chosenId}\\)$`) });
    await remove.waitFor();
    // Forwards (upload: the chips follow the box), else backwards (Diagnose: the list is above it).
    const isOn = () => remove.evaluate((e) => e === document.activeElement);
    for (let i = 0; i < 15 && !(await isOn()); i++) await page.keyboard.press('Tab');
    if (!(await isOn())) await box.focus();
    for (let i = 0; i < 40 && !(await isOn()); i++) await page.keyboard.press('Shift+Tab');
    expect(await remove.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await chip.waitFor({ state: 'detached' });
  }

  it('picks and removes an HPO term on the upload form with the arrows, Enter, Escape and Tab', async () => {
    await page.goto('/upload');
    await pickWithKeys(page.getByRole('combobox', { name: 'HPO terms' }), (id) => page.getByTestId('hpo-chip').filter({ hasText: id }));
  });

  it('picks and removes an HPO term in the Diagnose module with the keyboard', async () => {
    await page.goto(`/my-product/${productId}/diagnose`);
    await pickWithKeys(page.getByRole('combobox', { name: 'Add a present HPO term' }), (id) =>
      page.getByTestId('diagnose-present-terms').locator(`[data-testid="diagnose-term"][data-term-id="${id}"]`),
    );
  });

  it('traps the focus in the share dialog, closes it with Escape and returns the focus to Share', async () => {
    await page.goto(`/my-product/${productId}/phenotypes`);
    await page.getByTestId('share-case').waitFor();
    await tabTo(page, /^Share A11Y-PFS$/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Share A11Y-PFS' });
    await dialog.waitFor();
    expect((await focused(page, '[role="dialog"]')).inside).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page, '[role="dialog"]')).inside).toBe(true);
    }
    // An empty address is refused, the message tied to the field.
    await dialog.getByLabel('E-mail address').focus();
    await page.keyboard.press('Enter');
    const field = dialog.getByLabel('E-mail address');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy.split(' ')[0]}"]`).textContent()).toMatch(/\w/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).label).toBe('Share A11Y-PFS');
  });

  it('opens the user menu with Enter, moves with the arrows and closes with Escape', async () => {
    await page.goto('/home');
    await tabTo(page, /^User menu: Grace Hopper$/);
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    await expect.poll(async () => (await focused(page, '[role="menu"]')).inside).toBe(true);
    await page.keyboard.press('ArrowDown');
    const items = await menu.getByRole('menuitem').allTextContents();
    expect(items.map((t) => t.trim())).toEqual(['My account', 'Logout']);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).label).toBe('User menu: Grace Hopper');
  });

  it('asks before deleting a case (alert dialog), Escape cancels and returns the focus', async () => {
    await page.goto('/home');
    const remove = page.getByRole('button', { name: 'Delete case A11Y-PFS' });
    await remove.waitFor();
    await tabTo(page, /^Delete case A11Y-PFS$/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect((await focused(page, '[role="alertdialog"]')).inside).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await focused(page)).label).toBe('Delete case A11Y-PFS');
    await expect(env.sql('SELECT id FROM products WHERE id = $1', [productId])).resolves.toHaveLength(1);
  });
});
