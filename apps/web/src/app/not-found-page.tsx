import { Messages } from '@rarelens/contract';
import { Link, useLocation } from 'react-router';
import { Button } from '../components/button.tsx';
import { useDocumentTitle } from '../lib/document-title.ts';

/** A lens over a broken helix: nothing to find here. */
function NotFoundIllustration() {
  return (
    <svg viewBox="0 0 320 200" className="h-auto w-72 sm:w-80" role="img" aria-label="A magnifying lens over a broken DNA strand">
      <rect x="20" y="150" width="280" height="10" rx="5" fill="#e5ebf3" />
      <g stroke="#9fb3cb" strokeWidth="4" strokeLinecap="round" fill="none">
        <path d="M40 60c25 0 35 70 60 70s35-70 60-70" />
        <path d="M40 130c25 0 35-70 60-70s35 70 60 70" />
        <path d="M52 75h22M54 115h20M126 75h22M126 115h22" />
      </g>
      <g stroke="#c9d5e4" strokeWidth="4" strokeLinecap="round" fill="none" strokeDasharray="2 10">
        <path d="M160 60c10 0 16 8 20 18" />
        <path d="M160 130c10 0 16-8 20-18" />
      </g>
      <circle cx="224" cy="86" r="44" fill="#effcf9" stroke="#0b2a4a" strokeWidth="8" />
      <path d="M256 118l34 34" stroke="#0b2a4a" strokeWidth="12" strokeLinecap="round" />
      <text x="224" y="100" textAnchor="middle" fontFamily="Inter Variable, sans-serif" fontSize="40" fontWeight="700" fill="#149e8f">
        ?
      </text>
    </svg>
  );
}

/** Any route that does not match (§2, §8): title "Page Not Found: {path}". */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle(`Page Not Found: ${pathname}`, { isExact: true });
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">
      <NotFoundIllustration />
      <p className="mt-8 text-sm font-semibold tracking-widest text-accent-600 uppercase">Error 404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-ink-900 sm:text-4xl">{Messages.pageNotFound}</h1>
      <p className="mt-3 text-base text-ink-500">{Messages.sorryPageNotFound}</p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">{Messages.takeMeHome}</Link>
      </Button>
    </section>
  );
}
