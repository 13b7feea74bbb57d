import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../components/spinner.tsx';
import { casesApi } from '../cases/cases.api.ts';

/**
 * GRCh38 primary contig lengths (UCSC names). igv.js needs a reference to draw coordinates;
 * a chrom-sizes reference gives it one without fetching any sequence from outside.
 */
const Grch38ChromSizes: ReadonlyArray<readonly [string, number]> = [
  ['chr1', 248956422], ['chr2', 242193529], ['chr3', 198295559], ['chr4', 190214555], ['chr5', 181538259],
  ['chr6', 170805979], ['chr7', 159345973], ['chr8', 145138636], ['chr9', 138394717], ['chr10', 133797422],
  ['chr11', 135086622], ['chr12', 133275309], ['chr13', 114364328], ['chr14', 107043718], ['chr15', 101991189],
  ['chr16', 90338345], ['chr17', 83257441], ['chr18', 80373285], ['chr19', 58617616], ['chr20', 64444167],
  ['chr21', 46709983], ['chr22', 50818468], ['chrX', 156040895], ['chrY', 57227415], ['chrM', 16569],
];

/** Half-width (bp) of the region whose tracks are loaded around the variant. */
const TrackFlankBp = 250_000;
/** Half-width (bp) of the initial view. */
const ViewFlankBp = 60;

function ucscName(chrom: string): string {
  if (chrom === 'MT' || chrom === 'M') return 'chrM';
  return chrom.startsWith('chr') ? chrom : `chr${chrom}`;
}

/** The 1-based inclusive window of `flank` bp either side of `pos`, clipped to the contig. */
export function windowAround(chrom: string, pos: number, flank: number): { chr: string; start: number; end: number } {
  const chr = ucscName(chrom);
  const length = Grch38ChromSizes.find(([name]) => name === chr)?.[1] ?? pos + flank;
  return { chr, start: Math.max(1, pos - flank), end: Math.min(length, pos + flank) };
}

type IgvBrowser = { on: (event: string, handler: (...args: unknown[]) => unknown) => void };
type IgvModule = {
  createBrowser: (div: HTMLElement, options: Record<string, unknown>) => Promise<IgvBrowser>;
  removeBrowser: (browser: IgvBrowser) => void;
};

/**
 * igv.js at a variant, with the case's variants, transcripts and ClinVar as tracks, all served
 * by our API (GET /api/products/:id/igv/...). igv is loaded on demand (a large chunk).
 * Nothing is fetched from outside: no default genome list, no web search, no sequence.
 */
export function IgvView({ productId, chrom, pos, sampleName }: { productId: string; chrom: string; pos: number; sampleName: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let isCancelled = false;
    let browser: IgvBrowser | undefined;
    let igv: IgvModule | undefined;
    const sizesUrl = URL.createObjectURL(new Blob([Grch38ChromSizes.map(([n, l]) => `${n}\t${l}`).join('\n')], { type: 'text/plain' }));
    const tracks = windowAround(chrom, pos, TrackFlankBp);
    const view = windowAround(chrom, pos, ViewFlankBp);
    const region = `${tracks.chr}:${tracks.start}-${tracks.end}`;
    const base = `${casesApi.path(productId)}/igv`;
    const q = `region=${encodeURIComponent(region)}`;

    void (async () => {
      try {
        igv = (await import('igv')).default as unknown as IgvModule;
        if (isCancelled) return;
        browser = await igv.createBrowser(container, {
          // A custom reference: chromosome sizes only (no FASTA, no cytobands, no genome list).
          reference: { id: 'GRCh38', name: 'GRCh38', format: 'chromsizes', fastaURL: sizesUrl, wholeGenomeView: false },
          loadDefaultGenomes: false,
          genomeList: [],
          search: false,
          showCircularViewButton: false,
          showSVGButton: false,
          showIdeogram: false,
          showCenterGuide: true,
          locus: `${view.chr}:${view.start}-${view.end}`,
          tracks: [
            {
              name: `${sampleName} variants`,
              type: 'variant',
              format: 'vcf',
              url: `${base}/variants.vcf?${q}`,
              indexed: false,
              displayMode: 'EXPANDED',
              order: 1,
            },
            {
              name: 'Transcripts (RefSeq / MANE)',
              type: 'annotation',
              format: 'bed',
              url: `${base}/genes.bed?${q}`,
              indexed: false,
              displayMode: 'EXPANDED',
              order: 2,
            },
            {
              name: 'ClinVar',
              type: 'annotation',
              format: 'bed',
              url: `${base}/clinvar.bed?${q}`,
              indexed: false,
              displayMode: 'EXPANDED',
              order: 3,
            },
          ],
        });
        if (isCancelled) {
          igv.removeBrowser(browser);
          return;
        }
        setState('ready');
      } catch (e) {
        if (isCancelled) return;
        setError(e instanceof Error ? e.message : String(e));
        setState('error');
      }
    })();

    return () => {
      isCancelled = true;
      if (browser && igv) igv.removeBrowser(browser);
      URL.revokeObjectURL(sizesUrl);
    };
  }, [productId, chrom, pos, sampleName]);

  return (
    <div className="relative min-h-64 overflow-hidden rounded-xl border border-ink-100 bg-white" data-testid="igv-view" data-state={state}>
      {state === 'loading' ? (
        <div className="absolute inset-0 flex items-center justify-center gap-2 text-sm text-ink-500">
          <Spinner className="size-4" /> Loading the genome browser…
        </div>
      ) : null}
      {state === 'error' ? (
        <p role="alert" className="p-4 text-sm text-danger-700">
          The genome browser could not be opened: {error}
        </p>
      ) : null}
      <div ref={containerRef} className="igv-host" />
      <p className="border-t border-ink-100 px-3 py-2 text-[11px] text-ink-500">
        GRCh38 · tracks cover {windowAround(chrom, pos, TrackFlankBp).chr}:{Math.max(1, pos - TrackFlankBp).toLocaleString('en-US')}–
        {(pos + TrackFlankBp).toLocaleString('en-US')} · no reference sequence is shown.
      </p>
    </div>
  );
}
