import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageSpinner } from '../components/spinner.tsx';
import { withChunkReload } from './chunk-reload.ts';
import { RouteErrorPage } from './error-page.tsx';
import { guardNamed, RequireAuth, SignedOutOnly } from './guards.tsx';
import { AuthLayout } from './layouts/auth-layout.tsx';
import { DefaultLayout } from './layouts/default-layout.tsx';
import { DetailsLayout } from './layouts/details-layout.tsx';
import { LogoutLayout } from './layouts/logout-layout.tsx';
import { MyAccountLayout } from './layouts/my-account-layout.tsx';
import { ProductLayout } from './layouts/product-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { AppRoot } from './root.tsx';

/** A lazily loaded page: `page(() => import('./x.tsx'), (m) => m.XPage)`. */
function page<M>(importer: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return withChunkReload(async () => ({ Component: pick(await importer()) }));
}

/*
 * The route table. Each layout groups its pages; to add a feature page, add one entry to the
 * right group pointing at the feature's page component. Placeholders (features/cases,
 * features/upload, features/sharing) are meant to be replaced by their features.
 */

/** Public pages with the marketing header and footer. Signed-in users can read them too. */
const publicPages: RouteObject[] = [
  { path: 'terms', lazy: page(() => import('../features/marketing/terms-page.tsx'), (m) => m.TermsPage) },
  { path: 'privacy', lazy: page(() => import('../features/marketing/privacy-page.tsx'), (m) => m.PrivacyPage) },
  { path: 'book-demo', lazy: page(() => import('../features/marketing/book-demo-page.tsx'), (m) => m.BookDemoPage) },
];

/** Signed-out-only pages in the auth layout. */
const authPages: RouteObject[] = [
  { path: 'login', lazy: page(() => import('../features/auth/login-page.tsx'), (m) => m.LoginPage) },
  { path: 'register', lazy: page(() => import('../features/auth/register-page.tsx'), (m) => m.RegisterPage) },
  {
    path: 'reset-password',
    lazy: page(() => import('../features/auth/reset-password-request-page.tsx'), (m) => m.ResetPasswordRequestPage),
  },
  {
    path: 'reset-password/:token',
    lazy: page(() => import('../features/auth/reset-password-page.tsx'), (m) => m.ResetPasswordPage),
  },
];

/** Signed-in pages without a product open (layout my-account). */
const myAccountPages: RouteObject[] = [
  { path: 'home', lazy: page(() => import('../features/cases/home-page.tsx'), (m) => m.HomePage) },
  { path: 'upload', lazy: page(() => import('../features/upload/upload-page.tsx'), (m) => m.UploadPage) },
  {
    path: 'my-account',
    children: [
      { index: true, lazy: page(() => import('./redirects.tsx'), (m) => m.ToAccountInformation) },
      {
        path: 'account-information',
        lazy: page(() => import('../features/account/account-information-page.tsx'), (m) => m.AccountInformationPage),
      },
      { path: 'passwords', lazy: page(() => import('../features/account/passwords-page.tsx'), (m) => m.PasswordsPage) },
    ],
  },
  { path: 'orders', lazy: page(() => import('../features/orders/orders-page.tsx'), (m) => m.OrdersPage) },
  {
    path: 'my-product/share-settings',
    lazy: page(() => import('../features/sharing/share-settings-page.tsx'), (m) => m.ShareSettingsPage),
  },
];

const productIndex = () => import('../features/cases/product-index-redirect.tsx');
const sharedPages = () => import('../features/sharing/shared-product-page.tsx');

/** Pages of an open product (layout product), under /my-product/:productId. */
const productPages: RouteObject[] = [
  { index: true, lazy: page(productIndex, (m) => m.ProductIndexRedirect) },
  { path: 'phenotypes', lazy: page(() => import('../features/phenotypes/phenotypes-page.tsx'), (m) => m.PhenotypesPage) },
  { path: 'genes', lazy: page(() => import('../features/genes/genes-page.tsx'), (m) => m.GenesPage) },
  { path: 'diagnose', lazy: page(() => import('../features/diagnose/diagnose-page.tsx'), (m) => m.DiagnosePage) },
  { path: 'report', lazy: page(() => import('../features/reporting/reporting-page.tsx'), (m) => m.ReportingPage) },
  {
    path: 'chat',
    Component: guardNamed('chat'),
    children: [{ index: true, lazy: page(() => import('../features/chat/chat-page.tsx'), (m) => m.ChatPage) }],
  },
];

/** Detail pages inside a product (layout details). */
const productDetailPages: RouteObject[] = [
  { path: 'genes/:geneId', lazy: page(() => import('../features/genes/gene-details-page.tsx'), (m) => m.GeneDetailsPage) },
  {
    path: 'phenotypes/:phenotypeId',
    lazy: page(() => import('../features/phenotypes/phenotype-details-page.tsx'), (m) => m.PhenotypeDetailsPage),
  },
];

export const routes: RouteObject[] = [
  {
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    // Shown while the first page's lazy chunk loads.
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        element: <DefaultLayout />,
        children: [
          {
            element: <SignedOutOnly />,
            children: [{ index: true, lazy: page(() => import('../features/marketing/landing-page.tsx'), (m) => m.LandingPage) }],
          },
          ...publicPages,
          // /shared is signed-out only; /shared/{token} needs no login (a signed-in recipient goes to the case).
          { element: <SignedOutOnly />, children: [{ path: 'shared', lazy: page(sharedPages, (m) => m.SharedIndexPage) }] },
          { path: 'shared/:token', lazy: page(sharedPages, (m) => m.SharedProductPage) },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      { element: <SignedOutOnly />, children: [{ element: <AuthLayout />, children: authPages }] },
      {
        element: <LogoutLayout />,
        children: [{ path: 'logout', lazy: page(() => import('../features/auth/logout-page.tsx'), (m) => m.LogoutPage) }],
      },
      {
        element: <RequireAuth />,
        children: [
          { element: <MyAccountLayout />, children: myAccountPages },
          // /my-product (the product check, §2): no product named, so home — as /my-product/{id} does.
          { path: 'my-product', lazy: page(productIndex, (m) => m.ProductIndexRedirect) },
          { path: 'my-product/:productId', element: <ProductLayout />, children: productPages },
          { path: 'my-product/:productId', element: <DetailsLayout />, children: productDetailPages },
        ],
      },
    ],
  },
];
