import { Link } from 'react-router';
import { Button } from '../../components/button.tsx';
import { MenuIcon } from '../../components/icons.tsx';
import { Logo } from '../../components/logo.tsx';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '../../components/menu.tsx';
import { useSession } from '../../lib/session.tsx';
import { marketingLinks, myAccountNavigation } from '../navigation.ts';
import { AccountMenus } from './user-menu.tsx';

/** Header of the public pages: marketing links for visitors, the user menu once signed in. */
export function MarketingHeader() {
  const { status } = useSession();
  const isSignedIn = status === 'authenticated';
  return (
    <header className="sticky top-0 z-40 border-b border-ink-100/80 bg-white/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-6 px-4 sm:px-6 lg:px-8">
        <Logo to={isSignedIn ? '/home' : '/'} />
        {isSignedIn ? (
          <AccountMenus items={myAccountNavigation} />
        ) : (
          <>
            <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
              {marketingLinks.map((link) => (
                <Link
                  key={link.to}
                  to={link.to}
                  className="rounded-md px-3 py-2 text-sm font-medium text-ink-600 transition-colors hover:text-ink-900"
                >
                  {link.label}
                </Link>
              ))}
            </nav>
            <div className="hidden items-center gap-2 lg:flex">
              <Button asChild variant="outline">
                <Link to="/book-demo">Request a demo</Link>
              </Button>
              <Button asChild>
                <Link to="/login">Login</Link>
              </Button>
            </div>
            <div className="lg:hidden">
              <Popover>
                <PopoverTrigger asChild>
                  <Button variant="ghost" size="icon" aria-label="Open menu">
                    <MenuIcon className="size-6" />
                  </Button>
                </PopoverTrigger>
                <PopoverContent className="w-[min(20rem,calc(100vw-2rem))]">
                  <nav aria-label="Main" className="flex flex-col">
                    {marketingLinks.map((link) => (
                      <PopoverClose asChild key={link.to}>
                        <Link to={link.to} className="rounded-lg px-3 py-2.5 text-sm font-medium text-ink-700 hover:bg-ink-50">
                          {link.label}
                        </Link>
                      </PopoverClose>
                    ))}
                  </nav>
                  <div className="mt-2 grid gap-2 border-t border-ink-100 pt-3">
                    <PopoverClose asChild>
                      <Button asChild variant="outline">
                        <Link to="/book-demo">Request a demo</Link>
                      </Button>
                    </PopoverClose>
                    <PopoverClose asChild>
                      <Button asChild>
                        <Link to="/login">Login</Link>
                      </Button>
                    </PopoverClose>
                  </div>
                </PopoverContent>
              </Popover>
            </div>
          </>
        )}
      </div>
    </header>
  );
}
