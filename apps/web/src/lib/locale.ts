import { Constants } from '@rarelens/contract';

/** The interface ships in English only (§1); other detected locales fall back to en-US. */
export const SupportedLocales = ['en-US'] as const;
export type Locale = (typeof SupportedLocales)[number];

export const LocaleCookieName = 'rarelens_locale';

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(prefix)) return decodeURIComponent(trimmed.slice(prefix.length));
  }
  return undefined;
}

/** Maps any locale tag to a supported one: exact match, then same language, then the default. */
export function resolveLocale(candidate: string | undefined): Locale {
  if (!candidate) return Constants.defaultLocale;
  const exact = SupportedLocales.find((l) => l.toLowerCase() === candidate.toLowerCase());
  if (exact) return exact;
  const language = candidate.split('-')[0]?.toLowerCase();
  const sameLanguage = SupportedLocales.find((l) => l.split('-')[0]?.toLowerCase() === language);
  return sameLanguage ?? Constants.defaultLocale;
}

/** Writes the locale cookie (365 days, §9). */
export function writeLocaleCookie(locale: Locale): void {
  const maxAge = Constants.localeCookieDays * 24 * 60 * 60;
  document.cookie = `${LocaleCookieName}=${encodeURIComponent(locale)}; Max-Age=${maxAge}; Path=/; SameSite=Lax`;
}

let current: Locale | undefined;

/** The active locale: from the cookie, else the browser, else en-US; persisted in the cookie. */
export function getLocale(): Locale {
  if (current) return current;
  const fromCookie = readCookie(LocaleCookieName);
  const locale = resolveLocale(fromCookie ?? navigator.language);
  if (fromCookie !== locale) writeLocaleCookie(locale);
  current = locale;
  return locale;
}
