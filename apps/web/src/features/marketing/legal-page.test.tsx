import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PrivacyPage } from './privacy-page.tsx';
import { TermsPage } from './terms-page.tsx';

afterEach(cleanup);

describe('legal pages', () => {
  it.each([
    ['privacy', PrivacyPage, 'For any privacy question or request, use the contact form.'],
    ['terms', TermsPage, 'Questions about these terms? Use the contact form.'],
  ])('the %s page ends with its Contact section linking to the contact form', (_name, Page, text) => {
    render(
      <MemoryRouter>
        <Page />
      </MemoryRouter>,
    );
    const heading = screen.getByRole('heading', { name: '8. Contact' });
    const section = heading.closest('section');
    expect(section).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: 'contact form' })).toHaveAttribute('href', '/#contact-us');
  });
});
