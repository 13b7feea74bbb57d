import { Link } from 'react-router';
import { cn } from '../lib/cn.ts';

/** The RareLens mark: a lens over a double helix. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#0b2a4a" />
      <circle cx="14" cy="14" r="7" fill="none" stroke="#2bbaa9" strokeWidth="2.5" />
      <path d="M19 19l6 6" stroke="#2bbaa9" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M11 11c2 1.5 4 4.5 6 6M17 11c-2 1.5-4 4.5-6 6" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** Mark + word, linking to `to`. */
export function Logo({ to = '/', className, tone = 'dark' }: { to?: string; className?: string; tone?: 'dark' | 'light' }) {
  return (
    <Link to={to} className={cn('inline-flex items-center gap-2.5', className)} aria-label="RareLens home">
      <LogoMark />
      <span className={cn('text-lg font-semibold tracking-tight', tone === 'dark' ? 'text-ink-900' : 'text-white')}>
        Rare<span className={tone === 'dark' ? 'text-accent-600' : 'text-accent-400'}>Lens</span>
      </span>
    </Link>
  );
}
