import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { useSideColumnToasts } from '../../components/toaster.tsx';
import type { NavItem } from '../navigation.ts';
import { AccountMenus, NavList } from './user-menu.tsx';

/**
 * The signed-in frame: header, side navigation on large screens, and a content area that is
 * the only scroll container (the page itself is locked, §2).
 */
export function SignedInShell({
  layout,
  navigation,
  sidebarTop,
  children,
}: {
  /** The spec's layout name (§2), on the frame as data-layout. */
  layout: 'my-account' | 'product' | 'details';
  navigation: NavItem[];
  sidebarTop?: ReactNode;
  children: ReactNode;
}) {
  useSideColumnToasts();
  useEffect(() => {
    document.documentElement.classList.add('scroll-locked');
    return () => document.documentElement.classList.remove('scroll-locked');
  }, []);

  // The window never scrolls here, so the router's scroll restoration cannot help: a new page
  // starts at the top of the content container.
  const { pathname } = useLocation();
  const content = useRef<HTMLElement>(null);
  useEffect(() => {
    content.current?.scrollTo({ top: 0 });
  }, [pathname]);

  return (
    <div data-layout={layout} className="flex h-dvh flex-col bg-ink-50/50">
      <header className="z-30 flex h-16 shrink-0 items-center justify-between border-b border-ink-100 bg-white px-4 sm:px-6">
        <Logo to="/home" />
        <AccountMenus items={navigation} />
      </header>
      <div className="flex min-h-0 flex-1">
        <aside className="hidden w-64 shrink-0 flex-col border-r border-ink-100 bg-white lg:flex">
          {sidebarTop}
          <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
            <NavList items={navigation} />
          </nav>
        </aside>
        <main ref={content} id="main" data-scroll-container className="min-w-0 flex-1 overflow-y-auto">
          <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-10">{children}</div>
        </main>
      </div>
    </div>
  );
}
