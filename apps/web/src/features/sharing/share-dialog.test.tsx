import '@testing-library/jest-dom/vitest';
import { Messages } from '@rarelens/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { ShareCaseButton } from './share-dialog.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  cleanup();
});

describe('ShareCaseButton', () => {
  it('says "An email has been sent" (spec §8) naming who the phenotypes were shared with', async () => {
    const calls: { url: string; method: string | undefined; body: unknown }[] = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
      return Promise.resolve(jsonResponse({ emails: ['colleague@example.org'] }));
    });
    renderApp(<ShareCaseButton productId="p1" caseName="LAB-PFS-1" />, { toaster: true });
    fireEvent.click(screen.getByRole('button', { name: 'Share LAB-PFS-1' }));
    fireEvent.change(await screen.findByLabelText(/e-?mail/i), { target: { value: 'colleague@example.org' } });
    fireEvent.submit(screen.getByLabelText(/e-?mail/i).closest('form')!);
    expect(await screen.findByText(Messages.emailSent)).toBeInTheDocument();
    expect(screen.getByText('Shared with colleague@example.org: the e-mail holds a link to read the ranked phenotypes.')).toBeInTheDocument();
    expect(calls).toContainEqual({ url: '/api/products/p1/shares', method: 'POST', body: { email: 'colleague@example.org' } });
  });
});
