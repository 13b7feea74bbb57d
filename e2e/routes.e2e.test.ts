/**
 * Spec conformance of every route of §2 in Chromium (issue 18 item 3), table-driven: for each
 * route and each kind of visitor — signed out, the case's owner, a user the case is shared with,
 * another signed-in user, a holder of the e-mailed link — the guard's outcome (the page, or the
 * redirect with its query), the layout (§2's names, on the frame as data-layout), the navigation
 * entries, the page title and the spec's texts on it. Then what is not a route: the signed-in
 * header on a phone (360 px side sheet) and on a desktop (user menu), toasts (5000 ms, pause on
 * hover, Escape), the session-expired dialog in both readings, the cross-tab reload on login and
 * logout, the locale header, the stale-build reload and the chunk-reload guard.
 *
 * Needs the knowledge base (RARELENS_KB) and the reference data (RARELENS_SOURCES): the product
 * routes need a completed case.
 */
import { Constants, cookieNames, Messages } from '@rarelens/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompletedCase, createVerifiedUser, insertQueuedCopy, logIn, startCaseTestEnv, signedInPage } from './case-fixtures.ts';
import { extractLink, screenshotPath, submitLogin, uniqueEmail, type TestEnv } from './harness.ts';

const CASE_ID = 'ROUTES-PFS';
const GENE = 'FGFR2';
const DISEASE = 'OMIM:101600';

type Who = 'visitor' | 'owner' | 'shared' | 'other' | 'tokenHolder';
type Layout = 'default' | 'auth' | 'logout' | 'my-account' | 'product' | 'details';

/** What one visitor meets on a route: a redirect (path and query), or a page. */
type Outcome =
  | { redirect: string }
  | {
      layout: Layout;
      title: string;
      /** The page's main heading (exact). */
      heading: string | RegExp;
      /** Entries of the navigation (side navigation signed in; marketing header signed out). */
      nav?: readonly string[];
      /** Further texts of §2, §4, §5 or §8 the page shows. */
      texts?: readonly string[];
      /** Extra checks. */
      check?: (page: Page) => Promise<void>;
    };

type Ids = { product: string; token: string };
type RouteCase = { route: string; path: (ids: Ids) => string; views: Partial<Record<Who, Outcome>> };

const marketingNav = ['Product', 'About us', 'Pricing', 'Contact', 'Request a demo', 'Login'] as const;
const myAccountNav = ['Home', 'Upload patient data', 'Account information', 'Passwords', 'Share settings', 'Orders', 'Logout'] as const;
/** A product that is not shared: no Genes (§2, §6). */
const unsharedProductNav = ['Home', 'Phenotypes', 'Diagnose module', 'GenomeTalks', 'Reporting'] as const;
/** A shared product (isShared: shared with the user, or shared by its owner): with Genes. */
const sharedProductNav = ['Home', 'Phenotypes', 'Genes', 'Diagnose module', 'GenomeTalks', 'Reporting'] as const;

const titled = (title: string) => `${title} · RareLens`;
const toLogin = (path: string) => ({ redirect: `/login?redirect=${encodeURIComponent(path)}` });
const toHome = { redirect: '/home' };
const notFound = (path: string, layout: Layout, nav: readonly string[]): Outcome => ({
  layout,
  title: `Page Not Found: ${path}`,
  heading: 'Page not found',
  nav,
  texts: ['Sorry, page not found', 'Take me home'],
});

/** A product page: the owner and the shared user see it (the case is shared: Genes for both), another user does not. */
function productRoute(
  route: string,
  sub: string,
  page: { layout: Layout; title: string; heading: string | RegExp; texts?: string[]; check?: (page: Page) => Promise<void> },
): RouteCase {
  const path = (ids: Ids) => `/my-product/${ids.product}/${sub}`;
  return {
    route,
    path,
    views: {
      visitor: { redirect: '' }, // filled in by the test: the path depends on the id
      owner: { ...page, nav: sharedProductNav },
      shared: { ...page, nav: sharedProductNav },
      other: { redirect: '' },
    },
  };
}

/** The reset check (§2): a link that is not live shows "Reset link expired" and "Send me a new link". */
const resetLinkNotLive: Outcome = { layout: 'auth', title: titled('Choose a new password'), heading: Messages.resetLinkExpired, texts: [Messages.sendNewLink] };

const routes: RouteCase[] = [
  {
    route: '/',
    path: () => '/',
    views: {
      visitor: {
        layout: 'default',
        title: 'Effortless variant interpretation with AI',
        heading: /Effortless variant interpretation/,
        nav: marketingNav,
        check: async (page) => {
          for (const anchor of ['product', 'about-us', 'pricing', 'contact-us']) {
            expect(await page.locator(`#${anchor}`).count(), anchor).toBe(1);
          }
        },
      },
      owner: toHome,
    },
  },
  {
    route: '/home',
    path: () => '/home',
    views: {
      visitor: toLogin('/home'),
      owner: {
        layout: 'my-account',
        title: titled('Home'),
        heading: 'Welcome, Ada',
        nav: myAccountNav,
        check: async (page) => {
          const mine = page.getByRole('region', { name: 'My cases' });
          const row = mine.locator(`[data-case-id="${CASE_ID}"]`);
          await row.getByTestId('case-status').filter({ hasText: 'Completed' }).waitFor();
          // The case menu shares too (issue 18 item 1): the e-mail with the link goes out.
          const colleague = uniqueEmail('row-share');
          await row.getByRole('button', { name: `Share ${CASE_ID}` }).click();
          await page.getByRole('dialog', { name: `Share ${CASE_ID}` }).getByLabel('E-mail address').fill(colleague);
          await page.getByTestId('confirm-share').click();
          await page.locator('[data-sonner-toast]').filter({ hasText: `Shared with ${colleague}` }).waitFor();
          expect(new URL(extractLink(await env.mail.waitForMail(colleague), '/shared/')).pathname).toMatch(/^\/shared\/[A-Za-z0-9_-]{43}$/);
        },
      },
      shared: {
        layout: 'my-account',
        title: titled('Home'),
        heading: 'Welcome, Victor',
        nav: myAccountNav,
        check: async (page) => {
          await page.getByRole('region', { name: 'Shared with me' }).getByRole('link', { name: CASE_ID, exact: true }).waitFor();
        },
      },
    },
  },
  {
    route: '/upload',
    path: () => '/upload',
    views: {
      visitor: toLogin('/upload'),
      owner: { layout: 'my-account', title: titled('Genome Upload'), heading: 'Genome Upload', nav: myAccountNav },
    },
  },
  { route: '/my-account', path: () => '/my-account', views: { visitor: toLogin('/my-account'), owner: { redirect: '/my-account/account-information' } } },
  {
    route: '/my-account/account-information',
    path: () => '/my-account/account-information',
    views: {
      visitor: toLogin('/my-account/account-information'),
      owner: { layout: 'my-account', title: titled('Account information'), heading: 'Account information', nav: myAccountNav },
    },
  },
  {
    route: '/my-account/passwords',
    path: () => '/my-account/passwords',
    views: {
      visitor: toLogin('/my-account/passwords'),
      owner: {
        layout: 'my-account',
        title: titled('Passwords'),
        heading: 'Passwords',
        nav: myAccountNav,
        check: async (page) => {
          // §5: the password rules and the mismatch message.
          await page.getByLabel('New password', { exact: true }).fill('abc');
          await page.getByLabel('Confirm new password').fill('abd');
          await page.getByRole('button', { name: /Change password|Update password|Save/ }).click();
          await page.getByText('The passwords did not match').waitFor();
          for (const rule of [Messages.passwordMin, Messages.passwordLower, Messages.passwordUpper, Messages.passwordNumber]) {
            expect(await page.getByText(rule).count(), rule).toBeGreaterThan(0);
          }
        },
      },
    },
  },
  { route: '/my-product', path: () => '/my-product', views: { visitor: toLogin('/my-product'), owner: toHome } },
  { route: '/my-product/{id}', path: (ids) => `/my-product/${ids.product}`, views: { visitor: { redirect: '' }, owner: toHome, shared: toHome } },
  productRoute('/my-product/{id}/genes', 'genes', { layout: 'product', title: titled('Genes'), heading: 'Genes' }),
  productRoute('/my-product/{id}/genes/{geneId}', `genes/${GENE}`, { layout: 'details', title: titled(`${GENE} · gene`), heading: new RegExp(`^${GENE}`), texts: ['Back'] }),
  productRoute('/my-product/{id}/phenotypes', 'phenotypes', { layout: 'product', title: titled('Phenotypes'), heading: 'Phenotypes' }),
  productRoute('/my-product/{id}/phenotypes/{phenotypeId}', `phenotypes/${encodeURIComponent(DISEASE)}`, {
    layout: 'details',
    title: titled('Pfeiffer syndrome'),
    heading: /Pfeiffer syndrome/,
    texts: ['Back', 'Protein IDs'],
  }),
  productRoute('/my-product/{id}/report', 'report', { layout: 'product', title: titled('Reporting'), heading: 'Reporting' }),
  productRoute('/my-product/{id}/diagnose', 'diagnose', { layout: 'product', title: titled('Diagnose module'), heading: /^Diagnose module\s*PhenomeAI$/ }),
  // The "chat" guard (§2) of GenomeTalks; a failed answer shows §8's chat failure text.
  productRoute('/my-product/{id}/chat', 'chat', {
    layout: 'product',
    title: titled('GenomeTalks'),
    heading: 'GenomeTalks',
    check: async (page) => {
      await page.route('**/api/products/*/chat', (route) => (route.request().method() === 'POST' ? route.abort() : route.fallback()));
      const composer = page.getByLabel('Your question');
      await composer.fill('which gene explains the thumbs?');
      await composer.press('Enter');
      await page.getByText(Messages.chatFailure).first().waitFor();
      await page.unroute('**/api/products/*/chat');
    },
  }),
  {
    route: '/my-product/share-settings',
    path: () => '/my-product/share-settings',
    views: {
      visitor: toLogin('/my-product/share-settings'),
      owner: {
        layout: 'my-account',
        title: titled('Share settings'),
        heading: 'Share settings',
        nav: myAccountNav,
        check: async (page) => {
          const row = page.getByTestId('share-row').first();
          await row.waitFor();
          expect(await row.textContent()).toContain(CASE_ID);
        },
      },
    },
  },
  {
    route: '/orders',
    path: () => '/orders',
    views: { visitor: toLogin('/orders'), owner: { layout: 'my-account', title: titled('Orders'), heading: 'Orders', nav: myAccountNav } },
  },
  {
    route: '/login',
    path: () => '/login',
    views: {
      visitor: {
        layout: 'auth',
        title: titled('Login'),
        heading: 'Welcome back',
        check: async (page) => {
          await submitLogin(page, 'nobody@example.org', 'Wrong-password-1');
          await page.getByText(Messages.incorrectCredentials).first().waitFor();
        },
      },
      owner: toHome,
    },
  },
  {
    route: '/login?redirect=…',
    path: () => '/login?redirect=%2Fupload',
    // A signed-in user goes to the redirect value (§2).
    views: { owner: { redirect: '/upload' } },
  },
  {
    route: '/register',
    path: () => '/register',
    views: {
      visitor: {
        layout: 'auth',
        title: titled('Create your account'),
        heading: 'Create your account',
        check: async (page) => {
          await page.getByRole('button', { name: 'Create account' }).click();
          await page.getByText(Messages.mandatory).first().waitFor();
          await page.getByText(Messages.confirmToContinue).waitFor();
          await page.getByLabel('Email').fill('not-an-email');
          await page.getByRole('button', { name: 'Create account' }).click();
          await page.getByText(Messages.invalidEmail).waitFor();
        },
      },
      owner: toHome,
    },
  },
  {
    route: '/reset-password',
    path: () => '/reset-password',
    views: {
      visitor: {
        layout: 'auth',
        title: titled('Reset your password'),
        heading: 'Reset your password',
        check: async (page) => {
          await page.getByLabel('Email').fill(uniqueEmail('nobody'));
          await page.getByRole('button', { name: /Send/ }).click();
          await page.getByText(Messages.unknownResetEmail).first().waitFor();
        },
      },
      owner: toHome,
    },
  },
  {
    route: '/reset-password/{token}',
    path: () => '/reset-password/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    views: {
      visitor: resetLinkNotLive,
      owner: toHome,
    },
  },
  {
    route: '/reset-password/{token cut short}',
    path: () => '/reset-password/AAAA',
    views: { visitor: resetLinkNotLive },
  },
  {
    route: '/logout',
    path: () => '/logout',
    // Checked on its own below (it ends the session); a visitor just ends on the login page.
    views: { visitor: { redirect: '/login' } },
  },
  {
    route: '/shared',
    path: () => '/shared',
    views: {
      visitor: { layout: 'default', title: titled('Shared phenotypes'), heading: 'Shared phenotypes', nav: marketingNav },
      owner: toHome,
    },
  },
  {
    route: '/shared/{token}',
    path: (ids) => `/shared/${ids.token}`,
    views: {
      tokenHolder: {
        layout: 'default',
        title: titled(`Shared case ${CASE_ID}`),
        heading: `Case ${CASE_ID}`,
        nav: marketingNav,
        texts: ['You are reading a shared case without signing in. Nothing can be changed from here.'],
        check: async (page) => {
          await page.getByTestId('shared-phenotype-row').first().waitFor();
          expect(await page.getByTestId('share-case').count()).toBe(0);
        },
      },
      // The recipient signed in is taken to the case; the owner too.
      shared: { redirect: '' },
      owner: { redirect: '' },
    },
  },
  {
    route: '/shared/{dead token}',
    path: () => '/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    views: {
      visitor: { layout: 'default', title: titled('Link not available'), heading: 'This link is not available', texts: ['Take me home'] },
    },
  },
  {
    route: '/book-demo',
    path: () => '/book-demo',
    views: {
      visitor: { layout: 'default', title: titled('Request a demo'), heading: 'See RareLens on a case like yours', nav: marketingNav },
      // Public pages stay readable signed in, under the user menu.
      owner: { layout: 'default', title: titled('Request a demo'), heading: 'See RareLens on a case like yours', nav: [] },
    },
  },
  {
    route: '/terms',
    path: () => '/terms',
    views: {
      visitor: { layout: 'default', title: titled('Terms of service'), heading: 'Terms of service', nav: marketingNav },
      owner: { layout: 'default', title: titled('Terms of service'), heading: 'Terms of service', nav: [] },
    },
  },
  {
    route: '/privacy',
    path: () => '/privacy',
    views: {
      visitor: { layout: 'default', title: titled('Privacy policy'), heading: 'Privacy policy', nav: marketingNav, texts: ['not directed to children under 13'] },
    },
  },
  {
    route: '(no match)',
    path: () => '/no/such/page',
    views: { visitor: notFound('/no/such/page', 'default', marketingNav), owner: notFound('/no/such/page', 'default', []) },
  },
];

let env: TestEnv;
let ids: Ids;
const emails = { owner: '', shared: '', other: '' };
const pages = {} as Record<Who, Page>;
const contexts = {} as Record<Who, BrowserContext>;
const pageErrors: string[] = [];

beforeAll(async () => {
  env = await startCaseTestEnv();
  emails.owner = uniqueEmail('route-owner');
  emails.shared = uniqueEmail('route-shared');
  emails.other = uniqueEmail('route-other');
  const ownerAuth = await createVerifiedUser(env, emails.owner, { name: 'Ada', surname: 'Hamosh', birthDate: '1970-03-01' });
  await createVerifiedUser(env, emails.shared, { name: 'Victor', surname: 'McKusick', birthDate: '1975-10-21' });
  await createVerifiedUser(env, emails.other, { name: 'Otto', surname: 'Other', birthDate: '1980-01-01' });
  const product = await createCompletedCase(env, ownerAuth, {
    caseId: CASE_ID,
    symptoms: 'Broad thumbs and halluces, craniosynostosis and proptosis.',
    hpoTerms: ['HP:0011304', 'HP:0010055', 'HP:0001363', 'HP:0000520'],
  });
  const shared = await fetch(`${env.baseUrl}/api/products/${product}/shares`, {
    method: 'POST',
    headers: { ...ownerAuth, 'content-type': 'application/json' },
    body: JSON.stringify({ email: emails.shared }),
  });
  expect(shared.status).toBeLessThan(300);
  const link = extractLink(await env.mail.waitForMail(emails.shared, { skip: 1 }), '/shared/');
  ids = { product, token: new URL(link).pathname.split('/').at(-1)! };

  for (const who of ['visitor', 'owner', 'shared', 'other', 'tokenHolder'] as const) {
    const { context, page, errors } = await env.newPage({ width: 1440, height: 900 });
    contexts[who] = context;
    pages[who] = page;
    page.on('pageerror', () => pageErrors.push(`${who}: ${errors.at(-1)}`));
  }
  await logIn(pages.owner, emails.owner);
  await logIn(pages.shared, emails.shared);
  await logIn(pages.other, emails.other);
}, 300_000);
afterAll(async () => {
  await env?.stop();
});

/** The outcome with the id-dependent redirects filled in. */
function expected(rc: RouteCase, who: Who, outcome: Outcome): Outcome {
  if (!('redirect' in outcome) || outcome.redirect !== '') return outcome;
  const path = rc.path(ids);
  if (rc.route === '/shared/{token}') return { redirect: `/my-product/${ids.product}/phenotypes` };
  if (who === 'visitor') return toLogin(path);
  if (who === 'other') return { redirect: path }; // stays, shown as not found (checked below)
  return outcome;
}

async function navEntries(page: Page, layout: Layout): Promise<string[]> {
  const nav =
    layout === 'default' ? page.getByRole('banner').locator('a, button').filter({ hasNotText: /^$/ }) : page.locator('aside nav[aria-label="Main"] a');
  const texts = await nav.evaluateAll((els) =>
    els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => ((e as HTMLElement).innerText.split('\n')[0] ?? '').trim()),
  );
  return texts.filter((t) => t !== '' && t !== 'RareLens');
}

async function checkOutcome(page: Page, path: string, outcome: Outcome, label: string): Promise<void> {
  // The page's own checks below wait for what they need; the load event can lag far behind on a busy machine.
  await page.goto(path, { waitUntil: 'domcontentloaded', timeout: 30_000 });
  if ('redirect' in outcome) {
    await page.waitForURL((url) => url.pathname + url.search === outcome.redirect, { timeout: 30_000, waitUntil: 'commit' }).catch(() => {
      throw new Error(`${label}: expected a redirect to ${outcome.redirect}, at ${page.url()}`);
    });
    return;
  }
  const frame = page.locator(`[data-layout="${outcome.layout}"]`);
  await frame.waitFor({ timeout: 30_000 }).catch(async () => {
    const found = await page.locator('[data-layout]').getAttribute('data-layout').catch(() => 'none');
    throw new Error(`${label}: expected layout ${outcome.layout}, found ${found} at ${page.url()}`);
  });
  const heading = page.locator('main h1').first();
  await expect.poll(() => heading.innerText().then((t) => t.replace(/\s+/g, ' ').trim()), { message: `${label}: heading` }).toMatch(
    typeof outcome.heading === 'string' ? new RegExp(`^${outcome.heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : outcome.heading,
  );
  expect(await page.locator('[data-layout]').count(), `${label}: one layout`).toBe(1);
  expect(new URL(page.url()).pathname + new URL(page.url()).search, `${label}: no redirect`).toBe(path);
  await expect.poll(() => page.title(), { message: `${label}: title` }).toBe(outcome.title);
  if (outcome.nav) {
    if (outcome.layout === 'default' && outcome.nav.length === 0) {
      // Signed in on a public page: the user menu instead of the marketing links.
      await page.getByRole('banner').getByTestId('user-menu-name').filter({ hasText: 'Ada Hamosh' }).waitFor();
      expect(await page.getByRole('banner').getByRole('link', { name: 'Login' }).count(), `${label}: no Login`).toBe(0);
    } else {
      // The product's sharing state arrives with the case: poll.
      await expect.poll(() => navEntries(page, outcome.layout), { message: `${label}: navigation` }).toEqual([...(outcome.nav ?? [])]);
    }
  }
  for (const text of outcome.texts ?? []) {
    expect(await page.getByText(text).count(), `${label}: "${text}"`).toBeGreaterThan(0);
  }
  await outcome.check?.(page);
}

describe('every route of §2 in the browser', () => {
  for (const rc of routes) {
    it(`${rc.route}: guard, redirect, layout, navigation, texts`, async () => {
      for (const [who, raw] of Object.entries(rc.views) as Array<[Who, Outcome]>) {
        const outcome = expected(rc, who, raw);
        const path = rc.path(ids);
        await checkOutcome(pages[who], path, outcome, `${rc.route} as ${who}`);
        if (who === 'other' && 'redirect' in outcome) {
          // Another user's case: the not-found page in the signed-in frame, no product navigation.
          await checkOutcome(pages.other, path, notFound(path, 'my-account', myAccountNav), `${rc.route} as other`);
        }
      }
      if (rc.route === '/my-product/{id}/genes') await pages.shared.screenshot({ path: screenshotPath('routes-genes-shared') });
      expect(pageErrors).toEqual([]);
    });
  }

  it('/login?redirect=…: after sign-in the visitor reaches the page they asked for', async () => {
    const { page, errors } = await env.newPage();
    await page.goto(`/my-product/${ids.product}/report`);
    await page.waitForURL(`**/login?redirect=${encodeURIComponent(`/my-product/${ids.product}/report`)}`);
    await submitLogin(page, emails.owner, 'Genome2024');
    await page.waitForURL(`**/my-product/${ids.product}/report`);
    await page.locator('[data-layout="product"]').waitFor();
    // An off-site redirect value is ignored: /home.
    await page.goto('/logout');
    await page.waitForURL('**/login');
    await page.goto('/login?redirect=' + encodeURIComponent('https://evil.example/x'));
    await submitLogin(page, emails.owner, 'Genome2024');
    await page.waitForURL('**/home');
    expect(errors).toEqual([]);
  });

  it('/logout: the logout layout, then the login page with the session gone', async () => {
    const { context, page, errors } = await env.newPage();
    await logIn(page, emails.other);
    // Hold the sign-out call so the logout screen can be seen.
    await page.route('**/api/auth/logout', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.goto('/logout');
    await page.locator('[data-layout="logout"]').getByText('Signing you out…').waitFor();
    await expect(page.title()).resolves.toBe(titled('Signing out'));
    await page.waitForURL('**/login');
    const names = cookieNames('test');
    expect((await context.cookies()).filter((c) => c.name === names.access || c.name === names.refresh)).toEqual([]);
    await page.goto('/home');
    await page.waitForURL('**/login?redirect=%2Fhome');
    expect(errors).toEqual([]);
  });
});

describe('the Genes entry', () => {
  it('is shown only for a shared product', async () => {
    // A second case of the owner, never shared (waiting in the queue: the frame is what counts).
    const unshared = await insertQueuedCopy(env, ids.product, 'ROUTES-UNSHARED');
    for (const sub of ['phenotypes', 'diagnose', 'report']) {
      const path = `/my-product/${unshared}/${sub}`;
      await pages.owner.goto(path);
      await pages.owner.locator('[data-layout="product"]').waitFor();
      await pages.owner.locator('aside').getByText('ROUTES-UNSHARED').waitFor();
      expect(await navEntries(pages.owner, 'product'), path).toEqual([...unsharedProductNav]);
    }
    // The shared case: Genes, for its owner and for the user it is shared with.
    for (const who of ['owner', 'shared'] as const) {
      await pages[who].goto(`/my-product/${ids.product}/phenotypes`);
      await pages[who].locator('aside').getByText(CASE_ID).waitFor();
      await expect.poll(() => navEntries(pages[who], 'product')).toEqual([...sharedProductNav]);
    }
  });
});

describe('the signed-in header', () => {
  it('shows the user menu on a desktop and a 360 px side sheet with a welcome, the name and the navigation on a phone', async () => {
    const desktop = pages.owner;
    await desktop.goto('/home');
    await desktop.getByTestId('user-menu-name').filter({ hasText: 'Ada Hamosh' }).waitFor();
    await desktop.getByRole('button', { name: 'User menu' }).click();
    await desktop.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await desktop.getByRole('menuitem', { name: 'My account' }).click();
    await desktop.waitForURL('**/my-account/account-information');

    const { context, page, errors } = await env.newPage({ width: 390, height: 844 });
    await context.addCookies(await contexts.owner.cookies());
    await page.goto(`/my-product/${ids.product}/phenotypes`);
    await page.locator('[data-layout="product"]').waitFor();
    await expect(page.locator('aside nav').isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await sheet.getByText('Welcome,').waitFor();
    await expect(sheet.getByTestId('sheet-user-name').innerText()).resolves.toBe('Ada Hamosh');
    await page.waitForTimeout(400); // the slide-in
    const box = await sheet.boundingBox();
    expect(box?.width).toBe(Constants.sideSheetWidthPx);
    expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(390);
    const entries = await sheet.locator('nav a').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.split('\n')[0]));
    expect(entries).toEqual([...sharedProductNav]);
    await page.screenshot({ path: screenshotPath('routes-side-sheet-390') });
    await sheet.getByRole('link', { name: /^Reporting/ }).click();
    await page.waitForURL(`**/my-product/${ids.product}/report`);
    await sheet.waitFor({ state: 'hidden' });
    // The page is locked; the signed-in area scrolls in its own container.
    await expect(page.evaluate(() => document.documentElement.classList.contains('scroll-locked'))).resolves.toBe(true);
    await expect(page.locator('main[data-scroll-container]').evaluate((e) => getComputedStyle(e).overflowY)).resolves.toBe('auto');
    expect(errors).toEqual([]);
  });
});

describe('toasts', () => {
  async function showUpdatedToast(page: Page) {
    await page.goto('/my-account/account-information');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: Messages.updated });
    await toast.waitFor();
    return toast;
  }

  it('close after 5000 ms, stay while hovered, and close on Escape', async () => {
    const page = pages.owner;
    // Auto-close: still there after 4.5 s, gone a little after 5 s.
    let toast = await showUpdatedToast(page);
    const shownAt = Date.now();
    await page.waitForTimeout(4500 - (Date.now() - shownAt));
    await expect(toast.count()).resolves.toBe(1);
    await toast.waitFor({ state: 'detached', timeout: 3000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(Constants.toastDurationMs - 100);

    // Hover pauses the timer.
    toast = await showUpdatedToast(page);
    await toast.hover();
    await page.waitForTimeout(Constants.toastDurationMs + 1500);
    await expect(toast.count()).resolves.toBe(1);
    await page.mouse.move(10, 10);
    await toast.waitFor({ state: 'detached', timeout: Constants.toastDurationMs + 2000 });

    // Escape closes it, from the page and from the toasts (F8 takes focus there).
    toast = await showUpdatedToast(page);
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('Escape');
    await toast.waitFor({ state: 'detached', timeout: 1500 });
    toast = await showUpdatedToast(page);
    await page.keyboard.press(Constants.toastHotkey);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-sonner-toaster]') !== null)).toBe(true);
    await page.keyboard.press('Escape');
    await toast.waitFor({ state: 'detached', timeout: 1500 });
    expect(pageErrors).toEqual([]);
  });
});

describe('the session in the browser', () => {
  it('"Session Expired": Refresh renews the session when it can; otherwise Log Out is the only way on', async () => {
    const email = uniqueEmail('route-expiry');
    const { context, page, errors } = await signedInPage(env, email, { name: 'Sam', surname: 'Expired', birthDate: '1979-05-05' });
    await page.goto('/my-account/account-information');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('Sam');
    const names = cookieNames('test');
    const dialog = page.getByRole('dialog', { name: Messages.sessionExpiredTitle });

    // Reading 1: the access token is gone and the renewal fails once: Refresh and Log Out; Refresh renews.
    await context.clearCookies({ name: names.access });
    await page.route('**/api/auth/refresh', (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"code":"unauthorized","message":"jwt expired"}' }), { times: 1 });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText(Messages.sessionExpiredBody).waitFor();
    await expect(dialog.getByRole('button', { name: 'Refresh' }).isEnabled()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    const updated = page.locator('[data-sonner-toast]').filter({ hasText: Messages.updated });
    await updated.waitFor();
    await page.keyboard.press('Escape'); // the toast sits over the form's button
    await updated.waitFor({ state: 'detached' });

    // Reading 2: the session cannot be renewed: Refresh fails, Log Out closes the dialog and goes to /logout.
    await context.clearCookies({ name: names.access });
    await env.sql('DELETE FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email]);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText(Messages.sessionExpiredBody).waitFor();
    await dialog.getByRole('button', { name: 'Refresh' }).click();
    await dialog.getByText(Messages.sessionExpiredToast).waitFor();
    await expect(dialog.getByRole('button', { name: 'Refresh' }).isDisabled()).resolves.toBe(true);
    await page.screenshot({ path: screenshotPath('routes-session-expired-logout-only') });
    const toLogout = page.waitForURL('**/logout');
    await dialog.getByRole('button', { name: 'Log Out' }).click();
    await toLogout;
    await page.waitForURL('**/login');
    await expect(dialog.count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });

  it('reloads the other tabs on a login and on a logout', async () => {
    const { context, page: first, errors } = await env.newPage();
    const second = await context.newPage();
    await first.goto('/terms');
    await second.goto('/login');
    await first.getByRole('heading', { name: 'Terms of service' }).waitFor();
    const loads = () => first.evaluate(() => performance.getEntriesByType('navigation').length > 0 && (window as { marker?: number }).marker === undefined);
    await first.evaluate(() => ((window as { marker?: number }).marker = 1));

    let reloaded = first.waitForEvent('load');
    await submitLogin(second, emails.other, 'Genome2024');
    await second.waitForURL('**/home');
    await reloaded;
    await expect(loads()).resolves.toBe(true);
    // After the reload the first tab knows the session: the user menu instead of Login.
    await first.getByTestId('user-menu-name').filter({ hasText: 'Otto Other' }).waitFor();

    await first.evaluate(() => ((window as { marker?: number }).marker = 1));
    reloaded = first.waitForEvent('load');
    await second.goto('/logout');
    await second.waitForURL('**/login');
    await reloaded;
    await expect(loads()).resolves.toBe(true);
    await first.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('sends the locale header on every API call and keeps the locale cookie for 365 days', async () => {
    const page = pages.owner;
    const calls: Array<string | undefined> = [];
    const listener = (request: import('playwright-core').Request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) calls.push(request.headers()['x-locale']);
    };
    page.on('request', listener);
    await page.goto('/home');
    await page.locator(`[data-case-id="${CASE_ID}"]`).waitFor();
    await page.goto(`/my-product/${ids.product}/phenotypes`);
    await page.getByTestId('phenotype-row').first().waitFor();
    page.off('request', listener);
    expect(calls.length).toBeGreaterThan(2);
    expect(new Set(calls)).toEqual(new Set(['en-US']));
    const cookie = (await contexts.owner.cookies()).find((c) => c.name === 'rarelens_locale');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(Constants.localeCookieDays - 1);
    expect(days).toBeLessThanOrEqual(Constants.localeCookieDays);
  });
});

describe('new builds', () => {
  it('reloads on the next navigation once the poll finds a new build ID, not before', async () => {
    const page = pages.owner;
    await page.goto('/home');
    await page.locator(`[data-case-id="${CASE_ID}"]`).waitFor();
    await page.evaluate(() => ((window as { marker?: number }).marker = 1));
    const marker = () => page.evaluate(() => (window as { marker?: number }).marker);
    const poll = async () => {
      const polled = page.waitForRequest((r) => new URL(r.url()).pathname === '/version.json' && new URL(r.url()).searchParams.has('t'));
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await polled;
    };

    // Same build: in-app navigation stays in the page.
    await poll();
    await page.locator('aside').getByRole('link', { name: /^Share settings/ }).click();
    await page.waitForURL('**/my-product/share-settings');
    await page.getByRole('heading', { name: 'Share settings' }).waitFor();
    await expect(marker()).resolves.toBe(1);

    // A new build is deployed: the poll finds it, the next navigation is a full page load.
    await page.route('**/version.json*', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ buildId: 'a-newer-build' }) }));
    await poll();
    await page.waitForTimeout(200);
    await expect(marker()).resolves.toBe(1); // nothing happens before the user navigates
    const loaded = page.waitForEvent('load');
    await page.locator('aside').getByRole('link', { name: /^Upload patient data/ }).click();
    await loaded;
    await page.waitForURL('**/upload');
    await page.getByRole('heading', { name: 'Genome Upload' }).waitFor();
    await expect(marker()).resolves.toBeUndefined();
    await page.unroute('**/version.json*');
  });

  it('reloads once when a lazy page chunk fails to load, and not again within 10 s for the same path', async () => {
    const { page, errors } = await env.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    let documentLoads = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'document' && new URL(r.url()).pathname === '/terms') documentLoads += 1;
    });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const chunk = '**/assets/terms-page-*.js';
    await page.route(chunk, (route) => route.abort());

    // The chunk of /terms fails: one reload; it fails again at once: the error screen, no loop.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms', exact: true }).click();
    await page.getByRole('heading', { name: Messages.somethingWentWrong }).waitFor();
    await page.waitForTimeout(1000);
    expect(documentLoads).toBe(1);
    const stamp = await page.evaluate(() => sessionStorage.getItem('rarelens:chunk-reload:/terms'));
    expect(Date.now() - Number(stamp)).toBeLessThan(Constants.reloadGuardTtlMs);

    // Once the 10 s have passed (the stamp is made older), a failure reloads again, once.
    await page.evaluate((ttl) => sessionStorage.setItem('rarelens:chunk-reload:/terms', String(Date.now() - ttl - 1000)), Constants.reloadGuardTtlMs);
    await page.reload();
    await page.getByRole('heading', { name: Messages.somethingWentWrong }).waitFor();
    await page.waitForTimeout(1000);
    expect(documentLoads).toBe(3); // the manual reload and one automatic

    // The chunk is back (the new build is in place): the page loads.
    await page.unroute(chunk);
    await page.reload();
    await page.getByRole('heading', { name: 'Terms of service' }).waitFor();
    expect(errors).toEqual([]);
  });
});
