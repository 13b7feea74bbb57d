import { Outlet } from 'react-router';
import { myAccountNavigation } from '../navigation.ts';
import { SignedInShell } from './signed-in-shell.tsx';

/** Signed-in pages without a product open: home, upload, account, passwords, share settings. */
export function MyAccountLayout() {
  return (
    <SignedInShell layout="my-account" navigation={myAccountNavigation}>
      <Outlet />
    </SignedInShell>
  );
}
