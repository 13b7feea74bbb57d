import { Link, Outlet } from 'react-router';
import { CheckIcon } from '../../components/icons.tsx';
import { Logo } from '../../components/logo.tsx';
import { useSideColumnToasts } from '../../components/toaster.tsx';

const highlights = [
  'Upload a VCF or FASTQ with the patient’s symptoms',
  'Review ranked genes, phenotypes and variants',
  'Generate a report from the variants you select',
];

/** Sign-in, sign-up and password pages: a brand panel beside a focused form. */
export function AuthLayout() {
  useSideColumnToasts();
  return (
    <div data-layout="auth" className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <aside className="relative hidden overflow-hidden bg-ink-900 px-12 py-10 text-white lg:flex lg:flex-col">
        <div aria-hidden="true" className="absolute -top-32 -right-32 size-[28rem] rounded-full bg-accent-500/15 blur-2xl" />
        <div aria-hidden="true" className="absolute -bottom-40 -left-24 size-[24rem] rounded-full bg-ink-600/40 blur-2xl" />
        <Logo tone="light" className="relative" />
        <div className="relative mt-auto mb-auto max-w-md pt-16">
          <p className="text-sm font-semibold tracking-wide text-accent-300 uppercase">Rare disease genomics</p>
          <h2 className="mt-3 text-3xl leading-tight font-semibold">Effortless variant interpretation with AI</h2>
          <ul className="mt-8 space-y-4">
            {highlights.map((text) => (
              <li key={text} className="flex items-start gap-3 text-ink-100">
                <span className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-accent-500/20 text-accent-300">
                  <CheckIcon className="size-3.5" strokeWidth={2.5} />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-ink-300">
          <Link to="/privacy" className="hover:text-white">
            Privacy
          </Link>
          <span className="mx-2">·</span>
          <Link to="/terms" className="hover:text-white">
            Terms
          </Link>
        </p>
      </aside>
      <main id="main" className="flex flex-col px-4 py-8 sm:px-8">
        <div className="lg:hidden">
          <Logo />
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
