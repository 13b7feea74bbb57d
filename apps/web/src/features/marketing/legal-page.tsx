import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** Frame of the static legal pages: title, last update and readable prose. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:py-24">
      <p className="text-sm font-semibold tracking-wide text-accent-600 uppercase">Legal</p>
      <h1 className="mt-3 text-4xl font-semibold tracking-tight text-ink-900">{title}</h1>
      <p className="mt-3 text-sm text-ink-500">Last updated {updated}</p>
      <div className="mt-10 space-y-8 text-[15px] leading-7 text-ink-700 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-ink-900 [&_li]:ml-5 [&_li]:list-disc [&_p+p]:mt-3 [&_section>*+*]:mt-3">
        {children}
      </div>
    </article>
  );
}

/** The closing section of a legal page: its number, `lead` ("… use the") and the contact form link. */
export function LegalContactSection({ number, lead }: { number: number; lead: string }) {
  return (
    <section>
      <h2>{number}. Contact</h2>
      <p>
        {lead}{' '}
        <Link to="/#contact-us" className="font-medium text-accent-600 hover:underline">
          contact form
        </Link>
        .
      </p>
    </section>
  );
}
