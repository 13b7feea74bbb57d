import { Link, NavLink } from 'react-router';
import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { Sheet } from '../../components/dialog.tsx';
import { ChevronDownIcon, IdCardIcon, LogOutIcon, MenuIcon } from '../../components/icons.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/menu.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatUserName, useSession } from '../../lib/session.tsx';
import type { NavItem } from '../navigation.ts';

function initialsOf(name: string, surname: string): string {
  return `${name.charAt(0)}${surname.charAt(0)}`.toUpperCase();
}

/** Large screens: the user's name (a spinner until loaded) opening My account and Logout. */
export function UserMenu() {
  const { user } = useSession();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex items-center gap-2.5 rounded-full border border-ink-100 bg-white py-1 pr-3 pl-1 text-sm font-medium text-ink-800 hover:border-ink-200 hover:bg-ink-50"
          aria-label={user ? `User menu: ${formatUserName(user)}` : 'User menu'}
        >
          {/* The avatar is decoration: its initials are drawn by CSS, so that the button's visible
              text is the name alone, which its accessible name contains (WCAG 2.5.3 label in name). */}
          <span
            aria-hidden="true"
            data-initials={user ? initialsOf(user.name, user.surname) : undefined}
            className="flex size-8 items-center justify-center rounded-full bg-ink-900 text-xs font-semibold text-white before:content-[attr(data-initials)]"
          >
            {user ? null : <Spinner className="size-4" label="Loading user" />}
          </span>
          <span data-testid="user-menu-name" className="max-w-40 truncate">
            {user ? formatUserName(user) : <Spinner className="size-4 text-ink-400" label="Loading user" />}
          </span>
          <ChevronDownIcon className="size-4 text-ink-400" />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {user ? (
          <div className="px-3 pt-2 pb-2.5">
            <p className="truncate text-sm font-semibold text-ink-900">{formatUserName(user)}</p>
            <p className="truncate text-xs text-ink-500">{user.email}</p>
          </div>
        ) : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/my-account/account-information">
            <IdCardIcon className="size-4" /> My account
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/logout">
            <LogOutIcon className="size-4" /> Logout
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A vertical navigation list, used by the side navigation and the mobile sheet. */
export function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return (
    <ul className="flex flex-col gap-0.5">
      {items.map((item) => (
        <li key={item.to + item.label}>
          <NavLink
            to={item.to}
            end={item.end}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'group flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
                isActive ? 'bg-accent-50 text-accent-700' : 'text-ink-600 hover:bg-ink-50 hover:text-ink-900',
              )
            }
          >
            <item.icon className="size-[18px] shrink-0" />
            <span className="flex flex-col leading-tight">
              {item.label}
              {item.hint ? <span className="text-[11px] font-normal text-ink-400">{item.hint}</span> : null}
            </span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Small screens: a menu button opening the 360 px side sheet with a welcome, the name and the navigation. */
export function MobileNavSheet({ items }: { items: NavItem[] }) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="icon" onClick={() => setOpen(true)} aria-label="Open menu">
        <MenuIcon className="size-6" />
      </Button>
      <Sheet open={open} onOpenChange={setOpen} title="Navigation">
        <div className="border-b border-ink-100 bg-ink-50/60 px-6 pt-8 pb-6">
          <p className="text-sm text-ink-500">Welcome,</p>
          <p className="mt-0.5 text-lg font-semibold text-ink-900" data-testid="sheet-user-name">
            {user ? formatUserName(user) : <Spinner className="size-4" label="Loading user" />}
          </p>
          {user ? <p className="truncate text-sm text-ink-500">{user.email}</p> : null}
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-4 py-4">
          <NavList items={items} onNavigate={() => setOpen(false)} />
        </nav>
      </Sheet>
    </>
  );
}

/** The signed-in user's menus in a header: the dropdown on large screens, the side sheet of `items` on small ones. */
export function AccountMenus({ items }: { items: NavItem[] }) {
  return (
    <>
      <div className="hidden lg:block">
        <UserMenu />
      </div>
      <div className="lg:hidden">
        <MobileNavSheet items={items} />
      </div>
    </>
  );
}
