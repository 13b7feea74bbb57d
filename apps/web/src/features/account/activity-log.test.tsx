import '@testing-library/jest-dom/vitest';
import type { ActivityResponse } from '@rarelens/contract';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format.ts';
import { renderApp } from '../../testing/render.tsx';
import { ActivityLog } from './activity-log.tsx';

const page: ActivityResponse = {
  events: [
    { id: 'e1', kind: 'sign_in', detail: {}, ip: '203.0.113.7', userAgent: 'Chromium', createdAt: '2026-11-27T09:05:00.000Z' },
    { id: 'e2', kind: 'share_created', detail: { caseId: 'CASE-1', email: 'b@example.org' }, ip: null, userAgent: null, createdAt: '2026-03-04T23:40:00.000Z' },
  ],
  nextCursor: null,
};

beforeEach(() => {
  vi.stubGlobal('fetch', (url: string) =>
    Promise.resolve(
      url === '/api/account/activity'
        ? new Response(JSON.stringify(page), { status: 200 })
        : new Response(JSON.stringify({ code: 'not_found', message: 'Not found' }), { status: 404 }),
    ),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ActivityLog', () => {
  it('writes each date as the rest of the app does ("27 Nov 2026, 09:05"), not in the browser’s US format', async () => {
    renderApp(<ActivityLog />, { url: '/my-account/account-information', session: true });
    const table = await screen.findByRole('table', { name: 'Account activity' });
    const times = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('time'));
    expect(times.map((t) => t?.getAttribute('dateTime'))).toEqual(page.events.map((e) => e.createdAt));
    for (const [i, t] of times.entries()) {
      const text = t?.textContent ?? '';
      expect(text).toBe(formatDateTime(page.events[i]!.createdAt));
      expect(text).toMatch(/^\d{2} (Nov|Mar|Dec|Feb) 2026, \d{2}:\d{2}$/);
      expect(text).not.toContain('/');
    }
    expect(within(table).getByText(/CASE-1 · b@example.org/)).toBeInTheDocument();
  });

  it('lets a keyboard scroll the table sideways: its scroller is a named, focusable region', async () => {
    renderApp(<ActivityLog />, { url: '/my-account/account-information', session: true });
    const table = await screen.findByRole('table', { name: 'Account activity' });
    const region = screen.getByRole('region', { name: 'Account activity, scrollable' });
    expect(region).toContainElement(table);
    expect(region).toHaveAttribute('tabindex', '0');
  });
});
