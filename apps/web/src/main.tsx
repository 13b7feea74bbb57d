import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { installPreloadErrorHandler } from './app/chunk-reload.ts';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.tsx';
import { getLocale } from './lib/locale.ts';
import { createQueryClient } from './lib/query-client.ts';
import './index.css';

installPreloadErrorHandler();
getLocale(); // resolves the locale and writes the locale cookie (365 days) on first visit

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
const router = createAppRouter();

createRoot(container).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
