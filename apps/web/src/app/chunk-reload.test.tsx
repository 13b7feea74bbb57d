import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reloadOnceForPath, trackPendingNavigation, withChunkReload } from './chunk-reload.ts';
import { safeRedirectPath } from '../lib/redirect.ts';

const reload = vi.fn();
const assign = vi.fn();
beforeEach(() => {
  sessionStorage.clear();
  reload.mockReset();
  assign.mockReset();
  vi.stubGlobal('location', { ...window.location, reload, assign, pathname: '/home', search: '', hash: '' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  trackPendingNavigation(() => undefined);
});

describe('chunk reload guard', () => {
  it('reloads at most once per 10 s for the same path', () => {
    expect(reloadOnceForPath('/home', 1_000)).toBe(true);
    expect(reloadOnceForPath('/home', 10_999)).toBe(false);
    expect(reloadOnceForPath('/upload', 10_999)).toBe(true);
    expect(reloadOnceForPath('/home', 11_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });

  it('rethrows errors that are not chunk load failures', async () => {
    const load = withChunkReload(() => Promise.reject(new TypeError('x is not a function')));
    await expect(load()).rejects.toThrow('x is not a function');
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads instead of failing when a lazy chunk is gone', async () => {
    const load = withChunkReload(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')));
    void load();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    // Within 10 s the same failure surfaces instead of reloading again.
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
  });
});

describe('chunk reload during an in-app navigation', () => {
  it('opens the page being navigated to, guarded for that path, not the page being left', async () => {
    trackPendingNavigation(() => ({ pathname: '/terms', search: '?a=1', hash: '' }));
    const load = withChunkReload(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/terms.js')));
    void load();
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/terms?a=1'));
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.getItem('rarelens:chunk-reload:/terms')).not.toBeNull();
    expect(sessionStorage.getItem('rarelens:chunk-reload:/home')).toBeNull();
    // The same page fails again within 10 s: the error surfaces.
    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(assign).toHaveBeenCalledTimes(1);
  });
});

describe('safeRedirectPath', () => {
  it('keeps in-app paths and drops anything that could leave the site', () => {
    expect(safeRedirectPath('/my-account/passwords?x=1#y')).toBe('/my-account/passwords?x=1#y');
    expect(safeRedirectPath('https://evil.example')).toBeUndefined();
    expect(safeRedirectPath('//evil.example')).toBeUndefined();
    expect(safeRedirectPath('/\\evil.example')).toBeUndefined();
    expect(safeRedirectPath('/login?redirect=/home')).toBeUndefined();
    expect(safeRedirectPath(null)).toBeUndefined();
  });
});
