/**
 * The in-app path to return to after sign-in, or undefined when the value is missing or could
 * leave the site (absolute URLs, protocol-relative "//host", backslash tricks).
 */
export function safeRedirectPath(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if (/^\/(login|register|logout|reset-password)(\/|\?|#|$)/.test(value)) return undefined;
  return value;
}

/** "/login?redirect=<path>" for a visitor stopped at `path`. */
export function loginPathFor(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}
