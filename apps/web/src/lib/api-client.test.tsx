import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, LocaleHeader, api } from './api-client.ts';
import { onSessionExpired } from './auth-events.ts';

type Reply = { status: number; body?: unknown };
type Seen = { url: string; method: string; headers: Headers; credentials: RequestCredentials | undefined };

/** A scripted server: each request takes the next reply for its path. */
function scriptServer(script: Record<string, Reply[]>) {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    seen.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers), credentials: init.credentials });
    const queue = script[url];
    const reply = queue?.shift();
    if (!reply) throw new Error(`unscripted request ${url}`);
    return Promise.resolve(
      new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return seen;
}

const expired = { status: 401, body: { code: 'token_expired', message: 'jwt expired' } };
const tokens = { status: 200, body: { token: 'a', refreshToken: 'r' } };

let expiredCount = 0;
let unsubscribe: () => void = () => undefined;
beforeEach(() => {
  expiredCount = 0;
  unsubscribe = onSessionExpired(() => expiredCount++);
});
afterEach(() => {
  unsubscribe();
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends cookies and the locale header, and returns the JSON body', async () => {
    const seen = scriptServer({ '/api/account': [{ status: 200, body: { ok: 1 } }] });
    await expect(api.get('/api/account')).resolves.toEqual({ ok: 1 });
    expect(seen[0]!.credentials).toBe('include');
    expect(seen[0]!.headers.get(LocaleHeader)).toBe('en-US');
  });

  it('turns an error body into an ApiError with status, code and message', async () => {
    scriptServer({ '/api/auth/login': [{ status: 401, body: { code: 'invalid_credentials', message: 'Incorrect email or password' } }] });
    const error = await api.post('/api/auth/login', {}, { auth: 'none' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials', message: 'Incorrect email or password' });
  });

  it('never refreshes for calls where 401 is an answer (login)', async () => {
    const seen = scriptServer({ '/api/auth/login': [{ status: 401, body: { code: 'invalid_credentials', message: 'x' } }] });
    await expect(api.post('/api/auth/login', {}, { auth: 'none' })).rejects.toBeInstanceOf(ApiError);
    expect(seen.map((s) => s.url)).toEqual(['/api/auth/login']);
  });

  it('on 401 refreshes once and repeats the call once', async () => {
    const seen = scriptServer({
      '/api/account': [expired, { status: 200, body: { user: 'ada' } }],
      '/api/auth/refresh': [tokens],
    });
    await expect(api.get('/api/account')).resolves.toEqual({ user: 'ada' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/account', 'POST /api/auth/refresh', 'GET /api/account']);
    expect(expiredCount).toBe(0);
  });

  it('does not loop: a second failure after the refresh is thrown', async () => {
    const seen = scriptServer({
      '/api/account': [{ status: 403, body: { code: 'forbidden', message: 'Forbidden' } }, { status: 403, body: { code: 'forbidden', message: 'Forbidden' } }],
      '/api/auth/refresh': [tokens],
    });
    await expect(api.get('/api/account')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(seen).toHaveLength(3);
    expect(expiredCount).toBe(0);
  });

  it('opens the Session Expired dialog when "jwt expired" cannot be refreshed', async () => {
    scriptServer({
      '/api/account': [expired],
      '/api/auth/refresh': [{ status: 401, body: { code: 'invalid_refresh_token', message: 'Authentication required' } }],
    });
    await expect(api.get('/api/account')).rejects.toMatchObject({
      code: 'token_expired',
      message: 'jwt expired',
      isSessionExpiryShown: true,
    });
    expect(expiredCount).toBe(1);
  });

  it('stays silent when the session probe finds no session', async () => {
    scriptServer({
      '/api/auth/session': [{ status: 401, body: { code: 'unauthorized', message: 'Authentication required' } }],
      '/api/auth/refresh': [{ status: 401, body: { code: 'unauthorized', message: 'Authentication required' } }],
    });
    await expect(api.get('/api/auth/session', { auth: 'session' })).rejects.toMatchObject({ status: 401 });
    expect(expiredCount).toBe(0);
  });

  it('shares one refresh between parallel calls (a refresh token works once)', async () => {
    const seen = scriptServer({
      '/api/a': [expired, { status: 200, body: 1 }],
      '/api/b': [expired, { status: 200, body: 2 }],
      '/api/auth/refresh': [tokens],
    });
    await expect(Promise.all([api.get('/api/a'), api.get('/api/b')])).resolves.toEqual([1, 2]);
    expect(seen.filter((s) => s.url === '/api/auth/refresh')).toHaveLength(1);
  });

  it('refuses a refresh response whose token is not a string', async () => {
    scriptServer({
      '/api/account': [expired],
      '/api/auth/refresh': [{ status: 200, body: { token: 42, refreshToken: 'r' } }],
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(api.get('/api/account')).rejects.toMatchObject({ code: 'token_expired' });
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('no string token'), '');
    logged.mockRestore();
  });

  it('maps a non-JSON failure to "Something went wrong"', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })));
    await expect(api.get('/api/x', { auth: 'none' })).rejects.toMatchObject({ status: 502, message: 'Something went wrong' });
  });
});
