import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MarketingHeader } from './marketing-header.tsx';
import { SiteFooter } from './site-footer.tsx';

/** Scrolls to the element named by the URL hash, waiting briefly for lazy pages to render it. */
function useHashScroll() {
  const { hash, pathname } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo({ top: 0 });
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let attempts = 0;
    const tryScroll = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ behavior: 'smooth', block: 'start' });
        return;
      }
      if (attempts++ < 120) frame = requestAnimationFrame(tryScroll);
    };
    tryScroll();
    return () => cancelAnimationFrame(frame);
  }, [hash, pathname]);
}

/** Public pages: marketing header, content, footer. */
export function DefaultLayout() {
  useHashScroll();
  return (
    <div data-layout="default" className="flex min-h-dvh flex-col">
      <MarketingHeader />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
