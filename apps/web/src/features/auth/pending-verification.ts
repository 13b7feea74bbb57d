import { useCallback, useState } from 'react';

/** Where the address awaiting its e-mail code is kept, per page (this tab only; no password, no code). */
const storageKey = (page: VerificationPage) => `rarelens.pending-verification.${page}`;

/** The page whose code step is open: leaving /register for /login shows the login form. */
export type VerificationPage = 'register' | 'login';

function read(page: VerificationPage): string | undefined {
  try {
    return window.sessionStorage.getItem(storageKey(page)) ?? undefined;
  } catch {
    return undefined; // storage disabled: the step lasts as long as the page
  }
}

function write(page: VerificationPage, email: string | undefined): void {
  try {
    if (email === undefined) window.sessionStorage.removeItem(storageKey(page));
    else window.sessionStorage.setItem(storageKey(page), email);
  } catch {
    // storage disabled: nothing to keep
  }
}

/**
 * The e-mail address whose verification code step is open on `page`, kept in the tab's
 * sessionStorage so that reloading the page during the step comes back to the code, not to an
 * empty form. Another page does not show that step.
 */
export function usePendingVerification(page: VerificationPage): {
  email: string | undefined;
  start: (email: string) => void;
  finish: () => void;
} {
  const [email, setEmail] = useState<string | undefined>(() => read(page));
  const start = useCallback(
    (value: string) => {
      write(page, value);
      setEmail(value);
    },
    [page],
  );
  // Verified (or abandoned) here means no code step is left open for it anywhere.
  const finish = useCallback(() => {
    write('register', undefined);
    write('login', undefined);
    setEmail(undefined);
  }, []);
  return { email, start, finish };
}
