import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/spinner.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { useSession } from '../../lib/session.tsx';

/** /logout: revokes the session on the server, clears local state, then shows the login page. */
export function LogoutPage() {
  useDocumentTitle('Signing out');
  const { signOut } = useSession();
  const navigate = useNavigate();
  const hasStarted = useRef(false);

  useEffect(() => {
    // Strict mode mounts effects twice in development; sign out once.
    if (hasStarted.current) return;
    hasStarted.current = true;
    void (async () => {
      await signOut();
      await navigate('/login', { replace: true });
    })();
  }, [signOut, navigate]);

  return (
    <div className="flex items-center gap-3 text-sm text-ink-600" role="status">
      <Spinner className="size-5 text-accent-600" label="Signing out" />
      Signing you out…
    </div>
  );
}
