import { Outlet } from 'react-router';
import { LogoMark } from '../../components/logo.tsx';

/** The sign-out screen: nothing but a brief status. */
export function LogoutLayout() {
  return (
    <main id="main" data-layout="logout" className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-ink-50 px-4">
      <LogoMark className="size-10" />
      <Outlet />
    </main>
  );
}
