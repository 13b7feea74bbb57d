import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  extractCode,
  extractLink,
  fillRegistration as fillForm,
  screenshotPath,
  startTestEnv,
  submitLogin,
  uniqueEmail,
  type TestEnv,
  useTestEnv,
} from './harness.ts';
import { downloadOnClick } from './downloads.ts';

let env: TestEnv;

useTestEnv(() => startTestEnv(), (started) => void (env = started));

const password = 'Genome2024';

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

function fillRegistration(page: Page, email: string, pwd = password) {
  return fillForm(page, email, pwd);
}

/** Registers and verifies an account through the UI; leaves the page on /login. */
async function signUp(page: Page, email: string) {
  await page.goto('/register');
  await fillRegistration(page, email);
  const skip = env.mail.mailsFor(email).length;
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
  await page.screenshot({ path: screenshotPath('verify-email') });
  const mail = await env.mail.waitForMail(email, { skip });
  const code = extractCode(mail);
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type(code);
  await page.waitForURL('**/login');
}

function logIn(page: Page, email: string, pwd = password) {
  return submitLogin(page, email, pwd);
}

/** On the login page: the old password is refused, then the new one signs in. */
async function expectOnlyNewPassword(page: Page, email: string, newPassword: string) {
  await logIn(page, email);
  await page.getByText('Incorrect email or password').waitFor();
  await logIn(page, email, newPassword);
  await page.waitForURL('**/home');
}

describe('accounts in the browser', () => {
  it('signs up, verifies with the e-mailed code, logs in, updates the account and logs out', async () => {
    const email = uniqueEmail('rosalind');
    const { page, errors } = await env.newPage();

    await page.goto('/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByText('This field is mandatory').count()).toBeGreaterThanOrEqual(6);
    await page.getByText('Please confirm to continue').waitFor();

    await signUp(page, email);
    const mail = env.mail.mailsFor(email).at(-1)!;
    expect(mail.subject).toMatch(/verification code/i);
    await page.getByText('Your email is verified').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);

    await logIn(page, email, 'Wrong-password1');
    await page.getByText('Incorrect email or password').waitFor();

    await logIn(page, email);
    await page.waitForURL('**/home');
    await page.getByTestId('user-menu-name').filter({ hasText: 'Rosalind Franklin' }).waitFor();
    await page.screenshot({ path: screenshotPath('home-desktop') });

    // A signed-in user is sent away from signed-out-only pages.
    await page.goto('/login');
    await page.waitForURL('**/home');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    await page.waitForURL('**/my-account/account-information');
    const nameField = page.getByLabel('Name', { exact: true });
    await expect(nameField.inputValue()).resolves.toBe('Rosalind');
    await nameField.fill('Rosalind Elsie');
    await page.getByLabel('Country').fill('United Kingdom');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Updated', { exact: true }).waitFor();
    await page.getByTestId('user-menu-name').filter({ hasText: 'Rosalind Elsie Franklin' }).waitFor();
    await page.screenshot({ path: screenshotPath('account-information-desktop') });

    const rows = await env.sql<{ name: string; country: string | null }>('SELECT name, country FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([{ name: 'Rosalind Elsie', country: 'United Kingdom' }]);

    await page.reload();
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Rosalind Elsie');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    // The signed-out state is in effect without a reload: the login form stays.
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/login');
    const session = await page.request.get('/api/auth/session');
    expect(session.status()).toBe(401);

    await page.goto('/my-account/account-information');
    await page.waitForURL('**/login?redirect=%2Fmy-account%2Faccount-information');
    expect(errors).toEqual([]);
  });

  it('sends a visitor to login and, after login, back to the page they wanted', async () => {
    const email = uniqueEmail('guard');
    const { page } = await env.newPage();
    await signUp(page, email);

    await page.goto('/my-account/passwords');
    await page.waitForURL(/\/login\?redirect=%2Fmy-account%2Fpasswords$/);
    await logIn(page, email);
    await page.waitForURL('**/my-account/passwords');
    await page.getByRole('heading', { name: 'Passwords' }).waitFor();

    // Change the password there: a wrong current password is refused, then it works.
    const newPassword = 'Chromatin77';
    await page.getByLabel('Current password').fill('Not-my-password1');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is incorrect').waitFor();
    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Updated', { exact: true }).waitFor();
    await expect(page.getByLabel('Current password').inputValue()).resolves.toBe('');
    // Still there: the guard and the login page agree on where a fresh sign-in goes.
    expect(new URL(page.url()).pathname).toBe('/my-account/passwords');

    await page.goto('/logout');
    await page.waitForURL('**/login');
    await expectOnlyNewPassword(page, email, newPassword);
  });

  it('resets a forgotten password; an expired link offers a new one', async () => {
    const email = uniqueEmail('reset');
    const { page } = await env.newPage();
    await signUp(page, email);

    await page.goto('/reset-password');
    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('This email does not correspond to a user').waitFor();

    // First link: expire it in the database, then open it.
    let skip = env.mail.mailsFor(email).length;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('New password reset link has been sent. Please check your inbox.').first().waitFor();
    const firstLink = extractLink(await env.mail.waitForMail(email, { skip, match: (m) => /reset/i.test(m.subject) }), '/reset-password/');
    const expired = await env.sql(
      `UPDATE password_reset_tokens SET expires_at = now() - interval '1 minute'
        WHERE user_id = (SELECT id FROM users WHERE email = $1) RETURNING id`,
      [email],
    );
    expect(expired.length).toBeGreaterThanOrEqual(1);
    await page.goto(firstLink);
    await page.getByRole('heading', { name: 'Reset link expired' }).waitFor();
    await page.screenshot({ path: screenshotPath('reset-link-expired') });

    // "Send me a new link" leads back to the request form; the new link works.
    await page.getByRole('link', { name: 'Send me a new link' }).click();
    await page.waitForURL('**/reset-password');
    skip = env.mail.mailsFor(email).length;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const secondMail = await env.mail.waitForMail(email, { skip, match: (m) => /reset/i.test(m.subject) });
    const secondLink = extractLink(secondMail, '/reset-password/');
    expect(secondLink).not.toBe(firstLink);

    await page.goto(secondLink);
    const newPassword = 'Helix-1953';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill('Helix-1954');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('The passwords did not match').waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Your password has been reset' }).waitFor();
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login');

    // The link works once.
    await page.goto(secondLink);
    await page.getByRole('heading', { name: 'Reset link expired' }).waitFor();

    await page.goto('/login');
    await expectOnlyNewPassword(page, email, newPassword);
  });

  it('refuses to log in an unverified address, then verifies it in place and signs in', async () => {
    const email = uniqueEmail('unverified');
    const { page } = await env.newPage();
    await page.goto('/register');
    await fillRegistration(page, email);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    await env.mail.waitForMail(email);

    // Leave without entering the code; logging in now asks for it and sends a fresh one.
    await page.goto('/login');
    const skip = env.mail.mailsFor(email).length;
    await logIn(page, email);
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    const code = extractCode(await env.mail.waitForMail(email, { skip }));
    await page.getByLabel('Digit 1 of 6').click();
    await page.keyboard.type(code);
    await page.waitForURL('**/home');
    const rows = await env.sql<{ verified: boolean }>('SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1', [
      email,
    ]);
    expect(rows).toEqual([{ verified: true }]);
  });

  it('downloads all my data and deletes the account after the password is typed again', async () => {
    const email = uniqueEmail('leaving');
    const { page } = await env.newPage();
    await signUp(page, email);
    await logIn(page, email);
    await page.waitForURL('**/home');
    await page.goto('/my-account/passwords');
    const card = page.getByTestId('account-data');
    await card.waitFor();
    const download = await downloadOnClick(page, card.getByTestId('export-account'));
    expect(download.suggestedFilename()).toMatch(/^rarelens-account-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await streamText(await download.createReadStream())) as { format: string; account: { email: string } };
    expect(exported).toMatchObject({ format: 'rarelens-account-export', account: { email } });

    await card.getByTestId('delete-account').click();
    await page.getByTestId('delete-account-password').fill('Wrong-password1');
    await page.getByTestId('confirm-delete-account').click();
    await page.getByText('The current password is incorrect').waitFor();
    await page.getByTestId('delete-account-password').fill(password);
    await page.getByTestId('confirm-delete-account').click();
    await page.getByText('Your account and all its data were deleted.').waitFor();
    await page.waitForURL('**/login');
    expect(await env.sql('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    await logIn(page, email);
    await page.getByText(/incorrect|invalid|does not correspond/i).first().waitFor();
  });

  it('a login in one tab reloads the other tabs into the signed-in area', async () => {
    const email = uniqueEmail('tabs');
    const { context, page } = await env.newPage();
    await signUp(page, email);
    const other = await context.newPage();
    await other.goto('/terms');
    await other.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
    await logIn(page, email);
    await page.waitForURL('**/home');
    // The other tab reloads and now shows the signed-in header.
    await other.getByRole('button', { name: 'User menu' }).waitFor();
    await other.goto('/logout');
    await other.waitForURL('**/login');
    await page.waitForURL(/\/login\?redirect=%2Fhome$/);
  });

  it('shows the signed-in navigation in a 360 px side sheet on a phone', async () => {
    const email = uniqueEmail('phone');
    const { page } = await env.newPage({ width: 390, height: 844 });
    await signUp(page, email);
    await logIn(page, email);
    await page.waitForURL('**/home');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByText('Welcome,').waitFor();
    await expect(sheet.getByTestId('sheet-user-name').textContent()).resolves.toBe('Rosalind Franklin');
    await page.waitForTimeout(400); // the sheet slides in for 220 ms
    const box = await sheet.boundingBox();
    expect(box?.width).toBeCloseTo(360, 0);
    for (const label of ['Home', 'Upload patient data', 'Account information', 'Passwords', 'Share settings', 'Logout']) {
      await expect(sheet.getByRole('link', { name: new RegExp(`^${label}`) }).isVisible(), label).resolves.toBe(true);
    }
    await page.screenshot({ path: screenshotPath('side-sheet-390') });
    await sheet.getByRole('link', { name: 'Passwords' }).click();
    await page.waitForURL('**/my-account/passwords');
  });
});
