import { useEffect, useRef, useState } from 'react';
import { Messages, type RawDataInfo } from '@rarelens/contract';
import { Spinner } from '../../components/spinner.tsx';
import { sendRefreshing, toApiError } from '../../lib/api-client.ts';
import { casesApi } from '../cases/index.ts';
import { DemoReferenceLabel, rawDataApi } from '../raw-data/index.ts';

/**
 * GRCh38 primary contig lengths (UCSC names). igv.js needs a reference to draw coordinates;
 * a chrom-sizes reference gives it one without fetching any sequence from outside.
 */
const Grch38ChromSizes: ReadonlyArray<readonly [string, number]> = [
  ['chr1', 248956422],
  ['chr2', 242193529],
  ['chr3', 198295559],
  ['chr4', 190214555],
  ['chr5', 181538259],
  ['chr6', 170805979],
  ['chr7', 159345973],
  ['chr8', 145138636],
  ['chr9', 138394717],
  ['chr10', 133797422],
  ['chr11', 135086622],
  ['chr12', 133275309],
  ['chr13', 114364328],
  ['chr14', 107043718],
  ['chr15', 101991189],
  ['chr16', 90338345],
  ['chr17', 83257441],
  ['chr18', 80373285],
  ['chr19', 58617616],
  ['chr20', 64444167],
  ['chr21', 46709983],
  ['chr22', 50818468],
  ['chrX', 156040895],
  ['chrY', 57227415],
  ['chrM', 16569],
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
export function windowAround(
  chrom: string,
  pos: number,
  flank: number,
): { chr: string; start: number; end: number } {
  const chr = ucscName(chrom);
  const length = Grch38ChromSizes.find(([name]) => name === chr)?.[1] ?? pos + flank;
  return { chr, start: Math.max(1, pos - flank), end: Math.min(length, pos + flank) };
}

/**
 * Reads a track served by our API as text (the shared client only reads JSON). An expired
 * access token is refreshed once. The text is handed to igv as a data URI, so igv itself
 * never requests anything: on a failed request igv would otherwise consult a URL-mapping
 * table on igv.org.
 */
async function fetchTrackText(url: string, signal: AbortSignal): Promise<string> {
  const get = () =>
    fetch(url, { credentials: 'include', headers: { Accept: 'text/plain' }, signal });
  const response = await sendRefreshing(get);
  if (response.ok) return response.text();
  throw new Error((await toApiError(response)).message);
}

/** Base64 data URI of UTF-8 text. */
function toDataUri(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:text/plain;base64,${btoa(binary)}`;
}

type TrackSpec = {
  key: string;
  name: string;
  type: 'variant' | 'annotation';
  format: 'vcf' | 'bed';
  path: string;
};

type IgvBrowser = { on: (event: string, handler: (...args: unknown[]) => unknown) => void };
type IgvModule = {
  createBrowser: (div: HTMLElement, options: Record<string, unknown>) => Promise<IgvBrowser>;
  removeBrowser: (browser: IgvBrowser) => void;
};

/** igv options of every view: nothing from outside (no genome list, no search), no extra buttons. */
const BrowserChrome = {
  loadDefaultGenomes: false,
  genomeList: [],
  search: false,
  showCircularViewButton: false,
  showSVGButton: false,
  showIdeogram: false,
  showCenterGuide: true,
};

/**
 * igv draws its chromosome list without a label (in its shadow root): names it, so that a screen
 * reader announces what the list chooses (WCAG 4.1.2).
 */
function labelIgvControls(container: HTMLElement) {
  const root = container.shadowRoot ?? container;
  for (const select of root.querySelectorAll('select[name="chromosome-select-widget"]')) {
    if (!select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Chromosome');
  }
}

/** The reads of a FASTQ case at a variant: coordinates as called (the reference of the BAM). */
export type IgvReads = { info: RawDataInfo; chrom: string; pos: number };

/**
 * igv's options for the aligned reads of a FASTQ case: the reference the reads were aligned to
 * (its sequence when the server holds it, else the contig sizes only) and the BAM served by the
 * app with ranged reads. Coordinates are those of the called VCF, not the lifted GRCh38 ones.
 */
export function readsBrowserOptions(productId: string, reads: IgvReads, sizesUrl: string) {
  const { info } = reads;
  const url = (relative: string) => rawDataApi.trackUrl(productId, relative);
  const reference =
    info.track.fasta && info.track.fai
      ? {
          id: 'case-reference',
          name: info.reference.label,
          fastaURL: url(info.track.fasta),
          indexURL: url(info.track.fai),
          wholeGenomeView: false,
        }
      : {
          id: 'case-reference',
          name: info.reference.label,
          format: 'chromsizes',
          fastaURL: sizesUrl,
          wholeGenomeView: false,
        };
  return {
    reference,
    locus: `${reads.chrom}:${Math.max(1, reads.pos - ViewFlankBp)}-${reads.pos + ViewFlankBp}`,
    tracks: [
      {
        name: 'Aligned reads',
        type: 'alignment',
        format: 'bam',
        url: url(info.track.bam),
        indexURL: url(info.track.bai),
        order: 1,
      },
    ],
  };
}

/**
 * igv.js at a variant, with the case's variants, transcripts and ClinVar as tracks, all served
 * by our API (GET /api/products/:id/igv/...). igv is loaded on demand (a large chunk).
 * Nothing is fetched from outside: no default genome list, no web search, no sequence.
 */
export function IgvView({
  productId,
  chrom,
  pos,
  sampleName,
  reads,
}: {
  productId: string;
  chrom: string;
  pos: number;
  sampleName: string;
  /** A FASTQ case: show its aligned reads on its own reference instead of the GRCh38 tracks. */
  reads?: IgvReads;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [trackFailures, setTrackFailures] = useState<string[]>([]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let isCancelled = false;
    let browser: IgvBrowser | undefined;
    let igv: IgvModule | undefined;
    const sizes: ReadonlyArray<readonly [string, number]> = reads
      ? reads.info.reference.contigs.map((c) => [c.name, c.length] as const)
      : Grch38ChromSizes;
    const sizesUrl = URL.createObjectURL(
      new Blob([sizes.map(([n, l]) => `${n}\t${l}`).join('\n')], { type: 'text/plain' }),
    );
    const tracks = windowAround(chrom, pos, TrackFlankBp);
    const view = windowAround(chrom, pos, ViewFlankBp);
    const region = `${tracks.chr}:${tracks.start}-${tracks.end}`;
    const base = `${casesApi.path(productId)}/igv`;
    const q = `region=${encodeURIComponent(region)}`;

    const abort = new AbortController();
    const specs: TrackSpec[] = [
      {
        key: 'variants',
        name: `${sampleName} variants`,
        type: 'variant',
        format: 'vcf',
        path: 'variants.vcf',
      },
      {
        key: 'genes',
        name: 'Transcripts (RefSeq / MANE)',
        type: 'annotation',
        format: 'bed',
        path: 'genes.bed',
      },
      { key: 'clinvar', name: 'ClinVar', type: 'annotation', format: 'bed', path: 'clinvar.bed' },
    ];

    const openReads = async (r: IgvReads) => {
      const module = await import('igv');
      if (isCancelled) return;
      igv = module.default as unknown as IgvModule;
      browser = await igv.createBrowser(container, {
        ...readsBrowserOptions(productId, r, sizesUrl),
        ...BrowserChrome,
      });
      if (isCancelled) {
        igv.removeBrowser(browser);
        return;
      }
      labelIgvControls(container);
      setState('ready');
    };

    void (async () => {
      try {
        if (reads) {
          await openReads(reads);
          return;
        }
        const [module, ...texts] = await Promise.all([
          import('igv'),
          ...specs.map((spec) =>
            fetchTrackText(`${base}/${spec.path}?${q}`, abort.signal).then(
              (text) => ({ text }),
              (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
            ),
          ),
        ]);
        if (isCancelled) return;
        igv = module.default as unknown as IgvModule;
        const failures: string[] = [];
        const trackConfigs = specs.flatMap((spec, index) => {
          const result = texts[index];
          if (!result || 'error' in result) {
            failures.push(`${spec.name}: ${result?.error ?? Messages.somethingWentWrong}`);
            return [];
          }
          return [
            {
              name: spec.name,
              type: spec.type,
              format: spec.format,
              url: toDataUri(result.text),
              indexed: false,
              displayMode: 'EXPANDED',
              order: index + 1,
            },
          ];
        });
        browser = await igv.createBrowser(container, {
          // A custom reference: chromosome sizes only (no FASTA, no cytobands, no genome list).
          reference: {
            id: 'GRCh38',
            name: 'GRCh38',
            format: 'chromsizes',
            fastaURL: sizesUrl,
            wholeGenomeView: false,
          },
          ...BrowserChrome,
          locus: `${view.chr}:${view.start}-${view.end}`,
          tracks: trackConfigs,
        });
        if (isCancelled) {
          igv.removeBrowser(browser);
          return;
        }
        labelIgvControls(container);
        setTrackFailures(failures);
        setState('ready');
      } catch (e) {
        if (isCancelled) return;
        setError(e instanceof Error ? e.message : String(e));
        setState('error');
      }
    })();

    return () => {
      isCancelled = true;
      abort.abort();
      if (browser && igv) igv.removeBrowser(browser);
      URL.revokeObjectURL(sizesUrl);
    };
  }, [productId, chrom, pos, sampleName, reads]);

  return (
    <div
      className="relative min-h-64 overflow-x-auto rounded-xl border border-ink-100 bg-white"
      data-testid="igv-view"
      data-state={state}
    >
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
      {trackFailures.length > 0 ? (
        <p
          role="status"
          className="border-b border-ink-100 bg-amber-50 px-3 py-2 text-xs text-amber-800"
        >
          Some tracks are missing — {trackFailures.join('; ')}
        </p>
      ) : null}
      <div ref={containerRef} className="igv-host" />
      {reads ? (
        <p
          className="flex flex-wrap items-center gap-2 border-t border-ink-100 px-3 py-2 text-[11px] text-ink-500"
          data-testid="igv-reads-note"
        >
          {reads.info.reference.demo ? <DemoReferenceLabel /> : null}
          Aligned reads at {reads.chrom}:{reads.pos.toLocaleString('en-US')} on{' '}
          {reads.info.reference.label} ({reads.info.reference.assembly}), the coordinates of the
          called variants
          {reads.info.track.fasta ? '' : ' · no reference sequence on this server'}.
        </p>
      ) : (
        <p className="border-t border-ink-100 px-3 py-2 text-[11px] text-ink-500">
          GRCh38 · tracks cover {windowAround(chrom, pos, TrackFlankBp).chr}:
          {Math.max(1, pos - TrackFlankBp).toLocaleString('en-US')}–
          {(pos + TrackFlankBp).toLocaleString('en-US')} · no reference sequence is shown.
        </p>
      )}
    </div>
  );
}
