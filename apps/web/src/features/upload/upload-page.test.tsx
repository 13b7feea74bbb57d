import '@testing-library/jest-dom/vitest';
import { Messages } from '@rarelens/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../testing/render.tsx';
import { buildUploadForm } from './upload.api.ts';
import { UploadPage } from './upload-page.tsx';

type FetchCall = { url: string };
let calls: FetchCall[] = [];
const demoReference = {
  label: 'Demo reference (hg19 chrM + 5 kb of chr20), not a genome',
  assembly: 'GRCh37',
  demo: true,
  error: null,
};
let reference: object = demoReference;

beforeEach(() => {
  calls = [];
  reference = demoReference;
  vi.stubGlobal('fetch', (url: string) => {
    calls.push({ url });
    if (url === '/api/raw-data/reference')
      return Promise.resolve(new Response(JSON.stringify(reference), { status: 200 }));
    const body = url.startsWith('/api/hpo/terms')
      ? {
          version: '2025-05-06',
          items: [{ id: 'HP:0011304', label: 'Broad thumb', matchedSynonym: null }],
        }
      : { code: 'not_found', message: 'Not found' };
    return Promise.resolve(
      new Response(JSON.stringify(body), { status: url.startsWith('/api/hpo/terms') ? 200 : 404 }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  renderApp(<UploadPage />, { url: '/upload' });
}

const file = (name: string, content = 'x') => new File([content], name, { type: 'text/plain' });

describe('Genome Upload form', () => {
  it('marks every missing required field with "This field is mandatory" and sends nothing', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));
    // Case ID, gender, clinical symptoms and the genome file.
    await waitFor(() => expect(screen.getAllByText(Messages.mandatory)).toHaveLength(4));
    expect(screen.getByLabelText('Case ID')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.url === '/api/products')).toHaveLength(0);
  });

  it('keeps at most five additional files and says so', async () => {
    const user = userEvent.setup();
    renderPage();
    const input = screen.getByLabelText('Additional files');
    await user.upload(input, [file('a.txt'), file('b.txt'), file('c.txt')]);
    expect(screen.getAllByTestId('attachment')).toHaveLength(3);
    expect(screen.queryByText(Messages.maxFiles)).not.toBeInTheDocument();
    await user.upload(input, [file('d.txt'), file('e.txt'), file('f.txt')]);
    expect(screen.getAllByTestId('attachment')).toHaveLength(5);
    expect(screen.getByText(Messages.maxFiles)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove a.txt' }));
    expect(screen.getAllByTestId('attachment')).toHaveLength(4);
    expect(screen.queryByText(Messages.maxFiles)).not.toBeInTheDocument();
  });

  it('moves the keyboard from field to "Browse files" without stopping on the invisible file inputs', async () => {
    const user = userEvent.setup();
    renderPage();
    const genomeInput = screen.getByLabelText('Genome file (VCF or FASTQ)');
    screen.getByRole('button', { name: /Exclude phenotypes/ }).focus();
    await user.tab();
    const browse = screen.getAllByRole('button', { name: 'Browse files' });
    expect(document.activeElement).toBe(browse[0]);
    expect(document.activeElement).not.toBe(genomeInput);
    for (const input of document.querySelectorAll('input[type=file]')) expect(input).toHaveAttribute('tabindex', '-1');
  });

  it('rejects a genome file that is neither VCF nor FASTQ by name', async () => {
    // As when the file is dropped, or chosen with the picker's "All files" option.
    const user = userEvent.setup({ applyAccept: false });
    renderPage();
    await user.upload(screen.getByLabelText('Genome file (VCF or FASTQ)'), file('notes.docx'));
    expect(screen.getByTestId('genome-file')).toHaveTextContent('Unrecognised file type');
    await user.click(screen.getByRole('button', { name: 'Upload and analyse' }));
    expect(await screen.findByText(/Choose a VCF/)).toBeInTheDocument();
  });

  it('says a FASTQ will be aligned to the demo reference, not a genome, when the server has no other', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(screen.queryByTestId('upload-demo-reference')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/raw-data/reference')).toHaveLength(0);
    await user.upload(screen.getByLabelText('Genome file (VCF or FASTQ)'), file('reads.fastq.gz'));
    const notice = await screen.findByTestId('upload-demo-reference');
    expect(notice).toHaveTextContent('Demo reference');
    expect(notice).toHaveTextContent(/not to a genome/);
    expect(calls.filter((c) => c.url === '/api/raw-data/reference')).toHaveLength(1);
  });

  it('offers no assembly choice for FASTQ reads (they are called on the reference\'s assembly, which the notice names)', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(screen.getByLabelText('Genome assembly')).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Genome file (VCF or FASTQ)'), file('reads.fastq.gz'));
    await screen.findByTestId('upload-demo-reference');
    expect(screen.queryByLabelText('Genome assembly')).not.toBeInTheDocument();
    expect(screen.queryByText(/Detected from the VCF header/)).not.toBeInTheDocument();
  });

  it('names a configured reference, and a misconfigured one as an error', async () => {
    reference = { label: 'GRCh38.fa (GRCh38)', assembly: 'GRCh38', demo: false, error: null };
    const user = userEvent.setup();
    renderPage();
    await user.upload(screen.getByLabelText('Genome file (VCF or FASTQ)'), file('reads.fq'));
    expect(await screen.findByTestId('upload-reference')).toHaveTextContent(
      'The reads will be aligned to GRCh38.fa (GRCh38).',
    );
    expect(screen.queryByTestId('upload-demo-reference')).not.toBeInTheDocument();
    cleanup();
    reference = {
      label: 'No usable reference',
      assembly: null,
      demo: false,
      error:
        'RARELENS_REFERENCE is set but RARELENS_REFERENCE_ASSEMBLY is not: set it to GRCh37 or GRCh38',
    };
    renderPage();
    await user.upload(screen.getByLabelText('Genome file (VCF or FASTQ)'), file('reads.fq'));
    expect(await screen.findByTestId('upload-reference-error')).toHaveTextContent(
      /RARELENS_REFERENCE_ASSEMBLY is not/,
    );
  });

  it('adds an HPO term chosen in the autocomplete as a removable chip', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.type(screen.getByRole('combobox', { name: 'HPO terms' }), 'broad th');
    await user.click(await screen.findByRole('option', { name: /Broad thumb/ }));
    expect(calls.some((c) => c.url.startsWith('/api/hpo/terms?q=broad+th'))).toBe(true);
    const chip = screen.getByTestId('hpo-chip');
    expect(chip).toHaveTextContent('HP:0011304');
    expect(chip).toHaveTextContent('Broad thumb');
    await user.click(screen.getByRole('button', { name: 'Remove Broad thumb (HP:0011304)' }));
    expect(screen.queryByTestId('hpo-chip')).not.toBeInTheDocument();
  });
});

describe('buildUploadForm', () => {
  it('writes the text fields before the genome file and the HPO ids as a JSON array', () => {
    const genome = file('case.vcf', '##fileformat=VCFv4.2\n');
    const form = buildUploadForm({
      caseId: 'C-1',
      gender: 'female',
      symptoms: 'Broad thumbs',
      hpoTerms: ['HP:0011304', 'HP:0010055'],
      excludedTerms: [],
      assembly: 'auto',
      imageDescription: '  ',
      genomeFile: genome,
      additionalFiles: [file('photo.txt')],
    });
    const names = [...form.keys()];
    expect(names).toEqual([
      'caseId',
      'gender',
      'symptoms',
      'hpoTerms',
      'assembly',
      'additionalFiles',
      'genomeFile',
    ]);
    expect(form.get('hpoTerms')).toBe('["HP:0011304","HP:0010055"]');
    expect(form.has('excludedTerms')).toBe(false);
    expect(form.has('imageDescription')).toBe(false);
    expect((form.get('genomeFile') as File).name).toBe('case.vcf');
  });
});
