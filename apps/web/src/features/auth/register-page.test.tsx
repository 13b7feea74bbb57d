import '@testing-library/jest-dom/vitest';
import { Messages } from '@rarelens/contract';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { RegisterPage } from './register-page.tsx';

type FetchCall = { url: string; init: RequestInit | undefined };
let calls: FetchCall[] = [];

// jsdom has no layout engine; Radix measures the checkbox with a ResizeObserver.
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  calls = [];
  vi.stubGlobal('ResizeObserver', NoopResizeObserver);
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(
      new Response(JSON.stringify({ code: 'email_taken', message: Messages.emailTaken }), {
        status: 409,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderApp(<RegisterPage />, { url: '/register' });
}

/** The validation message shown under the field labelled `label`. */
function errorUnder(label: string | RegExp): string | null {
  const input = screen.getByLabelText(label);
  const describedBy = input.getAttribute('aria-describedby');
  if (!describedBy) return null;
  const messages = describedBy
    .split(' ')
    .map((id) => document.getElementById(id))
    .filter((el): el is HTMLElement => el?.getAttribute('role') === 'alert');
  return messages[0]?.textContent ?? null;
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Create account' }));

describe('RegisterPage validation', () => {
  it('shows "This field is mandatory" under every empty field and "Please confirm to continue" under the terms', async () => {
    renderPage();
    await submit();
    for (const label of ['Name', 'Surname', 'Date of birth', 'Email', 'Password', 'Confirm password']) {
      expect(errorUnder(label), label).toBe(Messages.mandatory);
    }
    const terms = screen.getByRole('checkbox', { name: /accept the Terms/ }).closest('div');
    expect(within(terms!).getByRole('alert')).toHaveTextContent(Messages.confirmToContinue);
    expect(calls).toHaveLength(0);
  });

  it('rejects a malformed email with "Please write a valid email"', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('Email'), 'not-an-email');
    await submit();
    expect(errorUnder('Email')).toBe(Messages.invalidEmail);
  });

  it.each([
    ['Ab1', Messages.passwordMin],
    ['ABCDEFG1', Messages.passwordLower],
    ['abcdefg1', Messages.passwordUpper],
    ['Abcdefgh', Messages.passwordNumber],
  ])('explains why the password %s is refused', async (password, message) => {
    renderPage();
    await userEvent.type(screen.getByLabelText('Password'), password);
    await submit();
    expect(errorUnder('Password')).toBe(message);
  });

  it('says "The passwords did not match" when the confirmation differs', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('Password'), 'Chromatin1');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Chromatin2');
    await submit();
    expect(errorUnder('Password')).toBeNull();
    expect(errorUnder('Confirm password')).toBe(Messages.passwordsMismatch);
  });

  it('sends a valid form once and shows the server refusal under the email', async () => {
    renderPage();
    await userEvent.type(screen.getByLabelText('Name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Surname'), 'Lovelace');
    await userEvent.type(screen.getByLabelText('Date of birth'), '1990-12-10');
    await userEvent.type(screen.getByLabelText('Email'), 'Ada@Example.org');
    await userEvent.type(screen.getByLabelText('Password'), 'Chromatin1');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'Chromatin1');
    await userEvent.click(screen.getByRole('checkbox', { name: /accept the Terms/ }));
    await submit();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/auth/register');
    expect(JSON.parse(calls[0]!.init?.body as string)).toEqual({
      name: 'Ada',
      surname: 'Lovelace',
      birthDate: '1990-12-10',
      email: 'ada@example.org',
      password: 'Chromatin1',
      termsAccepted: true,
    });
    expect(await screen.findByText(Messages.emailTaken)).toBeInTheDocument();
  });
});
