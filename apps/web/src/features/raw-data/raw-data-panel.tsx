import type { ProductDetails, RawDataInfo } from '@rarelens/contract';
import { Alert, Card } from '../../components/card.tsx';
import { DemoReferenceLabel } from './demo-reference-label.tsx';
import { rawDataApi, useRawData } from './raw-data.api.ts';

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const LayoutLabels: Record<RawDataInfo['layout'], string> = {
  single: 'single-end reads',
  paired: 'paired reads (two files)',
  interleaved: 'interleaved paired reads',
};

function bytes(n: number | null): string {
  if (n === null) return '';
  if (n < 1024 * 1024) return ` · ${(n / 1024).toFixed(0)} KB`;
  return ` · ${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The raw data analysis of a FASTQ case: reference, read QC, tools and the output files. */
export function RawDataPanel({
  info,
  productId,
  isOwner,
}: {
  info: RawDataInfo;
  productId: string;
  isOwner: boolean;
}) {
  const q = info.qc;
  const figures: [string, string][] = [
    ['Reads', q.reads.toLocaleString('en-US')],
    ['Mapped', pct(q.mappedRate)],
    ['Duplicates', pct(q.duplicateRate)],
    ['Mean depth', `${q.meanDepth.toFixed(1)}×`],
    ['SNVs called', q.snvs.toLocaleString('en-US')],
    ['Ti/Tv', q.tiTv === null ? '–' : q.tiTv.toFixed(2)],
  ];
  return (
    <Card className="p-5" data-testid="raw-data-panel">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold text-ink-900">Raw data analysis</h2>
        {info.reference.demo ? <DemoReferenceLabel /> : null}
      </div>
      <p className="mt-0.5 text-sm text-ink-500" data-testid="raw-data-reference">
        {LayoutLabels[info.layout]} aligned to {info.reference.label} ({info.reference.assembly})
      </p>
      {info.reference.demo ? (
        <Alert className="mt-2">
          Demo reference: the reads were aligned to the small reference shipped with RareLens (hg19
          chrM and 5 kb of chr20), not to a genome. Variants elsewhere cannot be found.
        </Alert>
      ) : null}
      <dl
        className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
        data-testid="raw-data-qc"
      >
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-[11px] font-semibold tracking-wide text-ink-400 uppercase">
              {label}
            </dt>
            <dd className="font-mono text-sm text-ink-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-ink-500">
        Mean depth over the bases covered by at least one read; duplicates marked by samtools
        markdup. Tools: {Object.values(info.tools).join(', ')}.
      </p>
      {isOwner ? (
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {info.files.map((f) => (
            <li key={f.name}>
              <a
                className="font-medium text-accent-700 hover:underline"
                href={rawDataApi.fileUrl(productId, f.name)}
                download={f.name}
              >
                {f.name}
              </a>
              <span className="text-xs text-ink-500">{bytes(f.sizeBytes)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

/** The raw data panel of an analysed FASTQ case (nothing for a VCF case). */
export function CaseRawData({ product }: { product: ProductDetails }) {
  const isFastq = product.genomeFormat === 'fastq';
  const raw = useRawData(product.id, product.run?.id ?? null, isFastq);
  if (!isFastq || !raw.data) return null;
  return (
    <div className="mb-5">
      <RawDataPanel info={raw.data} productId={product.id} isOwner={product.isOwner} />
    </div>
  );
}
