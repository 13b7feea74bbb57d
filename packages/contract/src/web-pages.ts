/**
 * The web app's page paths (§2), shared with the server so that a path no page matches is
 * answered with status 404 (§8, "Page Not Found: {path}") while the client shows its error page.
 * apps/web/src/app/routes.test.tsx checks this list against the client's route table.
 * `:name` stands for one path segment.
 */
export const webPagePatterns = [
  '/',
  '/terms',
  '/privacy',
  '/book-demo',
  '/shared',
  '/shared/:token',
  '/login',
  '/register',
  '/reset-password',
  '/reset-password/:token',
  '/logout',
  '/home',
  '/upload',
  '/my-account',
  '/my-account/account-information',
  '/my-account/passwords',
  '/orders',
  '/my-product/share-settings',
  '/my-product',
  '/my-product/:productId',
  '/my-product/:productId/phenotypes',
  '/my-product/:productId/genes',
  '/my-product/:productId/diagnose',
  '/my-product/:productId/report',
  '/my-product/:productId/chat',
  '/my-product/:productId/genes/:geneId',
  '/my-product/:productId/phenotypes/:phenotypeId',
] as const;

function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((s) => s !== '');
}

/** Whether a page of the web app answers `pathname` (a trailing slash is ignored, as the client router does). */
export function isWebPagePath(pathname: string): boolean {
  const segments = segmentsOf(pathname);
  return webPagePatterns.some((pattern) => {
    const parts = segmentsOf(pattern);
    return parts.length === segments.length && parts.every((part, i) => part.startsWith(':') || part === segments[i]);
  });
}
