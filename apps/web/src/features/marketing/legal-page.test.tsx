import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { PrivacyPage } from './privacy-page.tsx';
import { TermsPage } from './terms-page.tsx';

afterEach(cleanup);

describe('legal pages', () => {
  it.each([
    ['privacy', PrivacyPage, 'For any privacy question or request, use the contact form.'],
    ['terms', TermsPage, 'Questions about these terms? Use the contact form.'],
  ])('the %s page ends with its Contact section linking to the contact form', (_name, Page, text) => {
    renderApp(<Page />);
    const heading = screen.getByRole('heading', { name: '8. Contact' });
    const section = heading.closest('section');
    expect(section).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: 'contact form' })).toHaveAttribute('href', '/#contact-us');
  });
});
