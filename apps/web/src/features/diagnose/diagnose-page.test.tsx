import '@testing-library/jest-dom/vitest';
import { Messages, type GeneRow, type PhenotypeRow, type ProductDetails } from '@rarelens/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { DiagnosePage } from './diagnose-page.tsx';

const productId = '0b6d3f7e-1f55-4a53-9c1e-3c1f4a9d2b10';
const symptoms = 'Craniosynostosis and proptosis. No seizures. Autosomal dominant.';

/** A small fake of the cases API: the re-ranking finishes on the second read of the case after the PUT. */
function fakeServer(initial: { isOwner?: boolean; hpoTerms?: ProductDetails['hpoTerms'] } = {}) {
  const state = {
    hpoTerms: initial.hpoTerms ?? [{ id: 'HP:0001363', label: 'Craniosynostosis' }],
    excludedTerms: [] as Array<{ id: string; label: string }>,
    rankedAt: '2026-11-21T08:00:00.000Z',
    version: 1,
    readsUntilRanked: -1,
    puts: [] as unknown[],
  };
  const product = (): ProductDetails => ({
    id: productId,
    caseId: 'DX-1',
    name: 'DX-1',
    status: 'Completed',
    isShared: false,
    isOwner: initial.isOwner ?? true,
    sharedBy: null,
    sharedByName: null,
    createdAt: '2026-11-21T07:00:00.000Z',
    progress: 100,
    progressStage: null,
    rawDataAnalysis: false,
    error: null,
    hpoTermCount: state.hpoTerms.length,
    hpoTermsSource: 'given',
    gender: 'female',
    symptoms,
    hpoTerms: state.hpoTerms,
    excludedTerms: state.excludedTerms,
    assemblyRequested: 'auto',
    assembly: 'GRCh37',
    genomeFormat: 'vcf',
    imageDescription: null,
    files: [],
    run: {
      id: 'run-1',
      softwareVersion: '1.0.0',
      assembly: 'GRCh38',
      inputAssembly: 'GRCh37',
      kbVersions: { hpo: '2025-05-06' },
      counts: {},
      startedAt: '2026-11-21T07:00:00.000Z',
      completedAt: '2026-11-21T08:00:00.000Z',
      rankedAt: state.rankedAt,
    },
    sharedWith: [],
  });
  const disease = (id: string, rank: number, name: string): PhenotypeRow => ({
    id,
    rank,
    name,
    score: 10 - rank,
    probability: 0.5 / rank,
    significance: null,
    inheritance: [],
    onset: [],
    genes: ['FGFR2'],
    matchedTerms: [],
    phenotypeSource: 'annotations',
  });
  const gene = (symbol: string, rank: number): GeneRow => ({
    symbol,
    rank,
    geneId: null,
    name: null,
    score: 5 - rank,
    probability: 0.1,
    phenotypeScore: 1,
    variantScore: 1,
    inheritance: [],
    significance: null,
    variantCount: 1,
    topDisease: null,
  });
  const page = <T,>(items: T[]) => ({
    items,
    page: 1,
    pageSize: 10,
    total: items.length,
    totalIsCapped: false,
  });
  const json = (body: unknown, status = 200) =>
    Promise.resolve(new Response(JSON.stringify(body), { status }));

  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const path = url.split('?')[0] ?? url;
    const method = init.method ?? 'GET';
    if (path === '/api/phenome/extract') {
      const at = (w: string) => symptoms.indexOf(w);
      return json({
        hpoVersion: '2025-05-06',
        llmUsed: false,
        terms: [
          {
            id: 'HP:0001363',
            label: 'Craniosynostosis',
            start: at('Craniosynostosis'),
            end: at('Craniosynostosis') + 16,
            text: 'Craniosynostosis',
            negated: false,
            subject: 'patient',
            confidence: 1,
          },
          {
            id: 'HP:0000520',
            label: 'Proptosis',
            start: at('proptosis'),
            end: at('proptosis') + 9,
            text: 'proptosis',
            negated: false,
            subject: 'patient',
            confidence: 1,
          },
          {
            id: 'HP:0001250',
            label: 'Seizure',
            start: at('seizures'),
            end: at('seizures') + 8,
            text: 'seizures',
            negated: true,
            subject: 'patient',
            confidence: 1,
          },
        ],
        modifiers: [
          {
            id: 'HP:0000006',
            label: 'Autosomal dominant inheritance',
            start: at('Autosomal dominant'),
            end: at('Autosomal dominant') + 18,
            text: 'Autosomal dominant',
            negated: false,
            subject: 'patient',
            confidence: 1,
            category: 'inheritance',
          },
        ],
      });
    }
    if (path === `/api/products/${productId}` && method === 'GET') {
      if (state.readsUntilRanked > 0 && --state.readsUntilRanked === 0) {
        state.rankedAt = '2026-11-21T09:00:00.000Z';
        state.version = 2;
      }
      return json(product());
    }
    if (path === `/api/products/${productId}/phenotype-terms` && method === 'PUT') {
      const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as {
        hpoTerms: string[];
        excludedTerms: string[];
      };
      state.puts.push(body);
      const labels: Record<string, string> = {
        'HP:0001363': 'Craniosynostosis',
        'HP:0000520': 'Proptosis',
        'HP:0001250': 'Seizure',
      };
      state.hpoTerms = body.hpoTerms.map((id) => ({ id, label: labels[id] ?? id }));
      state.excludedTerms = body.excludedTerms.map((id) => ({ id, label: labels[id] ?? id }));
      state.readsUntilRanked = 2;
      return json({ id: productId, status: 'Completed', rerankQueued: true });
    }
    if (path === `/api/products/${productId}/phenotypes`) {
      return json(
        page(
          state.version === 1
            ? [
                disease('OMIM:101600', 1, 'Pfeiffer syndrome'),
                disease('OMIM:101200', 2, 'Apert syndrome'),
              ]
            : [
                disease('OMIM:101200', 1, 'Apert syndrome'),
                disease('OMIM:101600', 2, 'Pfeiffer syndrome'),
                disease('OMIM:123500', 3, 'Crouzon syndrome'),
              ],
        ),
      );
    }
    if (path === `/api/products/${productId}/genes`) return json(page([gene('FGFR2', 1)]));
    return json({ code: 'not_found', message: `No fake for ${method} ${path}` }, 404);
  });
  return state;
}

function renderPage() {
  renderApp(<DiagnosePage />, {
    url: `/my-product/${productId}/diagnose`,
    routes: [{ path: '/my-product/:productId/diagnose' }],
    toaster: true,
  });
}

beforeEach(() => {
  // jsdom has no matchMedia (sonner reads it).
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DiagnosePage', () => {
  it('saves the edited terms, shows Processing... until the case is re-ranked, then the new ranking with movements', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    renderPage();
    const diseases = await screen.findByTestId('diagnose-top-diseases');
    expect(
      within(diseases)
        .getAllByTestId('diagnose-disease')
        .map((d) => d.dataset.diseaseId),
    ).toEqual(['OMIM:101600', 'OMIM:101200']);
    // Genes with their post-test probability, as the genes screen shows them (not the score).
    const geneProbabilities = await screen.findAllByTestId('diagnose-gene-probability');
    expect(geneProbabilities.length).toBeGreaterThan(0);
    for (const p of geneProbabilities) expect(p).toHaveTextContent('10%');

    await user.click(await screen.findByRole('button', { name: 'Accept: Proptosis (HP:0000520)' }));
    await user.click(
      screen.getByRole('button', { name: 'Accept as excluded: Seizure (HP:0001250)' }),
    );
    expect(screen.getByTestId('diagnose-changes')).toHaveTextContent(
      'Unsaved changes: 2 added, 0 removed.',
    );
    await user.click(screen.getByTestId('diagnose-rerank'));

    expect(await screen.findByTestId('diagnose-ranking-status')).toHaveTextContent(
      Messages.processing,
    );
    expect(server.puts).toEqual([
      { hpoTerms: ['HP:0001363', 'HP:0000520'], excludedTerms: ['HP:0001250'] },
    ]);

    expect(await screen.findByText('Ranking updated', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(
      screen.getByText('Re-ranked with 2 HPO terms. Top disease: Apert syndrome.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('diagnose-ranking-status')).toBeNull();
    await waitFor(() =>
      expect(screen.getAllByTestId('diagnose-disease').map((d) => d.dataset.diseaseId)).toEqual([
        'OMIM:101200',
        'OMIM:101600',
        'OMIM:123500',
      ]),
    );
    const rows = screen.getAllByTestId('diagnose-disease');
    expect(within(rows[0] as HTMLElement).getByLabelText('up 1')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByLabelText('down 1')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('new')).toBeInTheDocument();
    expect(screen.getByTestId('diagnose-changes')).toHaveTextContent(
      'The ranking uses these terms.',
    );
  }, 15_000);

  it('notes the inheritance mode read in the description under the suggestions, not as a patient term', async () => {
    fakeServer();
    renderPage();
    expect(await screen.findByTestId('phenome-also-noted')).toHaveTextContent(
      'Also noted (not symptoms, not added as terms): Autosomal dominant inheritance',
    );
    expect(screen.getByTestId('diagnose-extraction-status')).toHaveTextContent(
      '3 phenotypes recognised',
    );
    expect(screen.queryByRole('button', { name: /Autosomal dominant/ })).toBeNull();
    expect(screen.getByTestId('diagnose-terms')).not.toHaveTextContent('Autosomal dominant');
    expect(screen.getAllByTestId('phenome-mark').map((m) => m.textContent)).not.toContain(
      'Autosomal dominant',
    );
  });

  it("shows the case's age-of-onset term among its terms, marked as onset, and keeps it when saving", async () => {
    const server = fakeServer({
      hpoTerms: [
        { id: 'HP:0001363', label: 'Craniosynostosis' },
        { id: 'HP:0003593', label: 'Infantile onset', onset: true },
      ],
    });
    const user = userEvent.setup();
    renderPage();
    const terms = await screen.findByTestId('diagnose-terms');
    const onset = (await within(terms).findAllByTestId('diagnose-term')).find((t) => t.dataset.termId === 'HP:0003593');
    expect(onset).toHaveTextContent('Infantile onset');
    expect(within(onset as HTMLElement).getByText('onset')).toBeInTheDocument();
    const finding = within(terms).getAllByTestId('diagnose-term').find((t) => t.dataset.termId === 'HP:0001363');
    expect(within(finding as HTMLElement).queryByText('onset')).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Accept: Proptosis (HP:0000520)' }));
    await user.click(screen.getByTestId('diagnose-rerank'));
    await waitFor(() => expect(server.puts).toEqual([{ hpoTerms: ['HP:0001363', 'HP:0003593', 'HP:0000520'], excludedTerms: [] }]));
  });

  it('lets a user the case is shared with read the terms but not change them', async () => {
    fakeServer({ isOwner: false });
    renderPage();
    await screen.findByTestId('diagnose-top-diseases');
    await screen.findAllByTestId('phenome-suggestion');
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save and re-rank' })).toBeNull();
    expect(
      screen.getByText('This case is shared with you: only its owner can change the terms.'),
    ).toBeInTheDocument();
  });
});
