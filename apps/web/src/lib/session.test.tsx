import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../testing/render.tsx';
import { useSession } from './session.tsx';

const user = {
  id: 'u1',
  name: 'Ada',
  surname: 'Lovelace',
  email: 'ada@example.org',
  birthDate: '1990-12-10',
  address: null,
  country: null,
  state: null,
  phoneNumber: null,
  language: 'en',
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

let requests: string[] = [];
let isSignedIn = true;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  requests = [];
  isSignedIn = true;
  // The readable last-refreshed cookie the server sets with the session cookies.
  document.cookie = 'test.refreshed-at=1700000000000; path=/';
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    requests.push(`${init.method ?? 'GET'} ${url}`);
    const json = (status: number, body: unknown) =>
      Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    if (url === '/api/auth/session') return isSignedIn ? json(200, { user }) : json(401, { code: 'unauthorized', message: 'x' });
    if (url === '/api/auth/refresh') return json(200, { token: 't', refreshToken: 'r' });
    return json(404, { code: 'not_found', message: 'x' });
  });
});
afterEach(() => {
  document.cookie = 'test.refreshed-at=; path=/; max-age=0';
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function Probe() {
  const { status, user: current } = useSession();
  return <p data-testid="session">{`${status}:${current?.name ?? '-'}`}</p>;
}

function renderSession() {
  renderApp(<Probe />, { session: true });
}

describe('SessionProvider', () => {
  it('goes from loading to authenticated with the user of /api/auth/session', async () => {
    renderSession();
    expect(screen.getByTestId('session')).toHaveTextContent('loading:-');
    expect(await screen.findByText('authenticated:Ada')).toBeInTheDocument();
  });

  it('is unauthenticated when there is no session', async () => {
    isSignedIn = false;
    renderSession();
    expect(await screen.findByText('unauthenticated:-')).toBeInTheDocument();
  });

  it('rotates the tokens every 1,440,000 ms while signed in, and not before', async () => {
    renderSession();
    await screen.findByText('authenticated:Ada');
    const refreshes = () => requests.filter((r) => r === 'POST /api/auth/refresh').length;
    await act(() => vi.advanceTimersByTimeAsync(1_439_000));
    expect(refreshes()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(refreshes()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1_440_000));
    expect(refreshes()).toBe(2);
  });

  it('asks the server nothing without the last-refreshed cookie (a visitor logs no 401)', async () => {
    document.cookie = 'test.refreshed-at=; path=/; max-age=0';
    renderSession();
    expect(await screen.findByText('unauthenticated:-')).toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it('never refreshes for a visitor', async () => {
    isSignedIn = false;
    renderSession();
    await screen.findByText('unauthenticated:-');
    const before = requests.length;
    await act(() => vi.advanceTimersByTimeAsync(3 * 1_440_000));
    expect(requests.slice(before)).toEqual([]);
  });
});
