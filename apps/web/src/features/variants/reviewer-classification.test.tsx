import '@testing-library/jest-dom/vitest';
import type { ReviewerClassification } from '@rarelens/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, notFoundResponse } from '../../testing/fetch.ts';
import { renderApp } from '../../testing/render.tsx';
import { ReviewerClassificationPanel } from './reviewer-classification.tsx';

const review: ReviewerClassification = {
  classification: 'Likely pathogenic',
  reason: 'Recurrent Pfeiffer allele',
  reviewer: { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.org' },
  updatedAt: '2026-11-25T09:30:00.000Z',
  automaticClass: 'Uncertain significance',
};

let calls: { url: string; method: string; body: unknown }[];

beforeEach(() => {
  calls = [];
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: typeof init?.body === 'string' ? JSON.parse(init.body) : null });
    if (url === '/api/products/p1/variants/7/classification' && method === 'PUT') {
      return Promise.resolve(jsonResponse(review));
    }
    return Promise.resolve(notFoundResponse());
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(canEdit: boolean, current: ReviewerClassification | null) {
  renderApp(<ReviewerClassificationPanel productId="p1" variant={{ id: 7, acmg: 'Uncertain significance', reviewerClassification: current }} canEdit={canEdit} />);
}

describe('ReviewerClassificationPanel', () => {
  it('lets the owner set a class only with a reason, and sends class and reason', async () => {
    renderPanel(true, null);
    expect(screen.getByTestId('reviewer-panel')).toHaveTextContent('Automatic class: Uncertain significance');
    fireEvent.click(screen.getByRole('button', { name: 'Set reviewer class' }));
    fireEvent.change(screen.getByLabelText('Reviewer class'), { target: { value: 'Likely pathogenic' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save reviewer class' }));
    expect(await screen.findByText('Give the reason for this classification.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: '  Recurrent Pfeiffer allele ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save reviewer class' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/products/p1/variants/7/classification',
      body: { classification: 'Likely pathogenic', reason: 'Recurrent Pfeiffer allele' },
    });
  });

  it('shows a shared reader the reviewer class with reason, who and when, and no controls', () => {
    renderPanel(false, review);
    expect(screen.getByTestId('reviewer-classification')).toHaveTextContent(/Reviewer: Likely pathogenic\s*\(Recurrent Pfeiffer allele, Ada Lovelace <ada@example.org>, /);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
