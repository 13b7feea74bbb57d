import '@testing-library/jest-dom/vitest';
import { REFRESHED_AT_COOKIE_SUFFIX } from '@rarelens/contract';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetchByUrl } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { UserMenu } from './user-menu.tsx';

afterEach(() => {
  document.cookie = `test.${REFRESHED_AT_COOKIE_SUFFIX}=; Max-Age=0; Path=/`;
  cleanup();
  vi.unstubAllGlobals();
});

// WCAG 2.5.3 (label in name): the button shows "AL Ada Lovelace" but was named "User menu" only,
// so "click Ada Lovelace" (voice control) found nothing and a screen reader did not say whose menu.
describe('UserMenu', () => {
  it('is named with the user it shows', async () => {
    // A signed-in browser holds the refreshed-at cookie; only then is the session asked for.
    document.cookie = `test.${REFRESHED_AT_COOKIE_SUFFIX}=1; Path=/`;
    stubFetchByUrl({
      '/api/auth/session': {
        user: { id: 'u1', name: 'Ada', surname: 'Lovelace', email: 'ada@example.org', birthDate: '1980-12-10', address: null, country: null, state: null, phoneNumber: null, language: 'en', emailVerified: true, createdAt: '2026-11-27T15:00:00.000Z' },
      },
    });
    renderApp(<UserMenu />, { session: true });
    const button = await screen.findByRole('button', { name: 'User menu: Ada Lovelace' });
    // The visible text is the name alone (the avatar's initials are drawn by CSS), so the name
    // contains it: axe's label-content-name-mismatch in Chromium.
    expect(button.textContent).toBe('Ada Lovelace');
    expect(button.querySelector('[data-initials]')).toHaveAttribute('data-initials', 'AL');
  });
});
