import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { Toaster } from '../components/toaster.tsx';
import { TooltipProvider } from '../components/tooltip.tsx';
import { SessionProvider } from '../lib/session.tsx';

/**
 * The one render set-up of the web tests: what AppProviders (app/providers.tsx) gives the pages
 * (a QueryClient, tooltips, optionally the session and the toasts) inside a memory router.
 */
export interface TestAppOptions {
  /** The URL the memory router starts at; default '/'. */
  url?: string;
  /**
   * Route patterns and their elements: the element rendered is mounted at the first pattern
   * (so useParams works), the others are there to navigate to. Without it the element is
   * rendered whatever the URL.
   */
  routes?: { path: string; element?: ReactNode }[];
  /** Mount the SessionProvider (it asks /api/auth/session on mount). */
  session?: boolean;
  /** Mount the Toaster beside the element (sonner needs window.matchMedia). */
  toaster?: boolean;
  /** The QueryClient; default a fresh one that does not retry. */
  queryClient?: QueryClient;
}

/** A QueryClient for one test: no retries, so an error answer shows at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** The providers of TestAppOptions around `children`, e.g. as renderHook's wrapper. */
export function testAppWrapper(options: TestAppOptions = {}): (props: { children: ReactNode }) => ReactElement {
  const { url = '/', routes, session = false, toaster = false, queryClient = testQueryClient() } = options;
  return function TestApp({ children }) {
    const [first, ...others] = routes ?? [];
    const routed = first ? (
      <Routes>
        <Route path={first.path} element={children} />
        {others.map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
      </Routes>
    ) : (
      children
    );
    const body = (
      <TooltipProvider>
        <MemoryRouter initialEntries={[url]}>{routed}</MemoryRouter>
        {toaster && <Toaster />}
      </TooltipProvider>
    );
    return <QueryClientProvider client={queryClient}>{session ? <SessionProvider>{body}</SessionProvider> : body}</QueryClientProvider>;
  };
}

/** Renders `ui` inside the app's providers and a memory router (see TestAppOptions). */
export function renderApp(ui: ReactElement, options: TestAppOptions = {}): RenderResult {
  return render(ui, { wrapper: testAppWrapper(options) });
}
