import '@testing-library/jest-dom/vitest';
import { Messages } from '@rarelens/contract';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { buildVariantRow } from '../variants/testing/variant-row.ts';
import { AddToReportButton } from './add-to-report-button.tsx';
import { fileNameOf } from './reporting.api.ts';

const productId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const variant = buildVariantRow();

type Reply = { status: number; body: unknown };

/** A scripted server keyed by "METHOD path"; records the requests it saw. */
function scriptServer(script: Record<string, Reply[]>) {
  const seen: string[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${url}`;
    seen.push(typeof init.body === 'string' ? `${key} ${init.body}` : key);
    const reply = script[key]?.shift();
    if (!reply) return Promise.reject(new Error(`unscripted request ${key}`));
    return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } }));
  });
  return seen;
}

const itemsPath = `/api/products/${productId}/report-items`;
const emptyList = { status: 200, body: { items: [], draftInterpretation: '' } };
const listed = {
  status: 200,
  body: {
    items: [
      {
        id: '0b8f5c2e-1d3a-4e5f-8a9b-0c1d2e3f4a5b',
        addedAt: '2026-11-21T08:00:00.000Z',
        addedBy: 'a@example.org',
        variant,
        locus: { chrom: '10', pos: 121496701, ref: 'T', alt: 'G', gene: 'FGFR2' },
      },
    ],
    draftInterpretation: 'draft',
  },
};

function renderButton() {
  renderApp(<AddToReportButton productId={productId} variant={variant} placement="evidence" />, { toaster: true });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AddToReportButton', () => {
  it('posts the variant id, toasts "Item added" and then shows the variant as listed', async () => {
    const seen = scriptServer({
      [`GET ${itemsPath}`]: [emptyList, listed],
      [`POST ${itemsPath}`]: [{ status: 201, body: { item: listed.body.items[0], message: Messages.itemAdded } }],
    });
    renderButton();
    const button = await screen.findByRole('button', { name: 'Add to reporting list: FGFR2 c.1694A>C' });
    await userEvent.click(button);
    expect(await screen.findByText(Messages.itemAdded)).toBeInTheDocument();
    expect(seen).toContain(`POST ${itemsPath} {"variantId":7}`);
    expect(await screen.findByRole('button', { name: 'In reporting list: FGFR2 c.1694A>C' })).toHaveAttribute('data-listed', 'true');
  });

  it('disables the button of a variant already listed and asks the server nothing', async () => {
    const seen = scriptServer({ [`GET ${itemsPath}`]: [listed, listed] });
    renderButton();
    const button = await screen.findByRole('button', { name: /^In reporting list/ });
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(seen.filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('shows the refusal when a stale list lets the variant be added twice (409)', async () => {
    const seen = scriptServer({
      [`GET ${itemsPath}`]: [emptyList, listed],
      [`POST ${itemsPath}`]: [{ status: 409, body: { code: 'variant_already_in_report', message: Messages.variantAlreadyInList } }],
    });
    renderButton();
    const button = await screen.findByRole('button', { name: /^Add to reporting list/ });
    await userEvent.click(button);
    expect(await screen.findByText(Messages.variantAlreadyInList)).toBeInTheDocument();
    expect(seen).toContain(`POST ${itemsPath} {"variantId":7}`);
  });
});

describe('fileNameOf', () => {
  it('prefers the RFC 6266 UTF-8 name, then the quoted one, then the fallback', () => {
    expect(fileNameOf(`attachment; filename="Report_.pdf"; filename*=UTF-8''Report%C3%A9.pdf`, 'x')).toBe('Reporté.pdf');
    expect(fileNameOf('attachment; filename="RPT-1.variants.tsv"', 'x')).toBe('RPT-1.variants.tsv');
    expect(fileNameOf(null, 'fallback.pdf')).toBe('fallback.pdf');
  });
});
