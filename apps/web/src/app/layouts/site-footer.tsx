import { Link } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { marketingLinks } from '../navigation.ts';

const legalLinks = [
  { label: 'Privacy', to: '/privacy' },
  { label: 'Terms', to: '/terms' },
] as const;

/** Footer of the public pages: Product, About us, Pricing, Contact, Privacy, Terms. */
export function SiteFooter() {
  return (
    <footer className="border-t border-ink-100 bg-ink-50/60">
      <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-12 sm:px-6 lg:flex-row lg:items-start lg:justify-between lg:px-8">
        <div className="max-w-sm">
          <Logo />
          <p className="mt-3 text-sm leading-6 text-ink-500">
            Phenotype-driven variant interpretation for rare disease. For research and clinical decision support by qualified professionals.
          </p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-x-12 gap-y-2 text-sm sm:grid-cols-3">
          {[...marketingLinks, ...legalLinks].map((link) => (
            <Link key={link.to} to={link.to} className="py-1 text-ink-600 hover:text-ink-900">
              {link.label}
            </Link>
          ))}
        </nav>
      </div>
      <div className="border-t border-ink-100">
        <p className="mx-auto max-w-7xl px-4 py-5 text-xs text-ink-400 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} RareLens. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
