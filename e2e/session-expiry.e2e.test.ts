import { describe, expect, it } from 'vitest';
import { signedInPage } from './case-fixtures.ts';
import { screenshotPath, startTestEnv, uniqueEmail, type TestEnv, useTestEnv } from './harness.ts';

let env: TestEnv;
const accessTokenTtlSeconds = 3;

useTestEnv(() => startTestEnv({ env: { ACCESS_TOKEN_TTL_SECONDS: String(accessTokenTtlSeconds) } }), (started) => void (env = started));

const marie = { name: 'Marie', surname: 'Curie', birthDate: '1980-11-07' };

/** Creates a verified account over the API (the browser flow is covered in accounts.e2e) and signs in in a new page. */
async function newAccountPage(label: string, password: string) {
  const email = uniqueEmail(label);
  const { page } = await signedInPage(env, email, marie, undefined, password);
  return { email, page };
}

describe('an expired session in the browser', () => {
  it('renews a short-lived access token silently while the refresh token is valid', async () => {
    const { page } = await newAccountPage('renew', 'Radium1898');
    await page.waitForTimeout((accessTokenTtlSeconds + 1) * 1000);
    await page.goto('/my-account/account-information');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Marie');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  });

  it('opens "Session Expired" when the session cannot be renewed, and Log Out leads to /logout', async () => {
    const { email, page } = await newAccountPage('expired', 'Polonium1898');
    await page.getByRole('link', { name: 'Account information' }).click();
    const name = page.getByLabel('Name', { exact: true });
    await expect(name.inputValue()).resolves.toBe('Marie');

    // The refresh token stops working (as after expiry) and the access token runs out.
    await env.sql('DELETE FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email]);
    await page.waitForTimeout((accessTokenTtlSeconds + 1) * 1000);

    await name.fill('Maria');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Session Expired' });
    await dialog.getByText('Your session is expired').waitFor();
    await expect(dialog.getByRole('button', { name: 'Refresh' }).isVisible()).resolves.toBe(true);
    await page.screenshot({ path: screenshotPath('session-expired-dialog') });
    // The dialog is the only message: no error toast on top of it.
    await expect(page.locator('[data-sonner-toast]').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/login');
    const rows = await env.sql<{ name: string }>('SELECT name FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([{ name: 'Marie' }]);
  });
});
