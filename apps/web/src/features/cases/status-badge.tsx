import { Messages, type ProductError, type ProductStatus, type ProductSummary } from '@rarelens/contract';
import { Spinner } from '../../components/spinner.tsx';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';

const tones: Record<ProductStatus, string> = {
  'In queue': 'bg-ink-50 text-ink-600 ring-ink-200',
  Processing: 'bg-sky-50 text-sky-700 ring-sky-200',
  Completed: 'bg-accent-50 text-accent-700 ring-accent-200',
  Error: 'bg-danger-50 text-danger-700 ring-danger-600/25',
};

/** A case's analysis state as a pill: "In queue", "Processing...", "Completed", "An error occurred". */
export function StatusBadge({ status, progress }: { status: ProductStatus; progress?: number }) {
  const label =
    status === 'Processing'
      ? Messages.processing
      : status === 'Error'
        ? Messages.productError
        : status;
  return (
    <span
      data-testid="case-status"
      data-status={status}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
        tones[status],
      )}
    >
      {status === 'Processing' ? <Spinner className="size-3" label="Processing" /> : null}
      {status === 'In queue' ? (
        <span className="size-1.5 rounded-full bg-ink-400" aria-hidden="true" />
      ) : null}
      {status === 'Completed' ? (
        <span className="size-1.5 rounded-full bg-accent-500" aria-hidden="true" />
      ) : null}
      {status === 'Error' ? (
        <span className="size-1.5 rounded-full bg-danger-600" aria-hidden="true" />
      ) : null}
      {label}
      {status === 'Processing' && progress !== undefined ? (
        <span className="tabular-nums">{Math.round(progress)}%</span>
      ) : null}
    </span>
  );
}

/** A thin progress bar for a case being processed; `label` names it for assistive technology. */
export function ProgressBar({ value, label, className }: { value: number; label: string; className?: string }) {
  const clamped = Math.min(100, Math.max(0, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cn('h-1.5 w-full overflow-hidden rounded-full bg-ink-100', className)}
    >
      <div
        className="h-full rounded-full bg-accent-500 transition-[width] duration-500"
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}

/** The reason of a failed analysis, under the "An error occurred" badge. */
export function ErrorReason({ error }: { error: ProductError | null }) {
  if (!error) return null;
  return (
    <Tooltip content={error.reason}>
      <p
        data-testid="case-error-reason"
        className="mt-1 line-clamp-2 max-w-md text-xs text-danger-700"
        tabIndex={0}
      >
        {error.reason}
      </p>
    </Tooltip>
  );
}

/** What each analysis stage is called in the UI. */
export const StageLabels: Record<string, string> = {
  reference: 'Preparing the reference',
  alignment: 'Aligning reads',
  duplicates: 'Marking duplicates',
  calling: 'Calling variants',
  annotation: 'Annotating variants',
  ranking: 'Ranking',
};

/** The stage running and its overall percent, under the progress bar ("Aligning reads · 37%"). */
export function StageLine({
  stage,
  progress,
  className,
}: {
  stage: string | null;
  progress: number;
  className?: string;
}) {
  if (!stage) return null;
  return (
    <p
      data-testid="case-stage"
      data-stage={stage}
      className={cn('mt-1 text-xs text-sky-800 tabular-nums', className)}
    >
      {StageLabels[stage] ?? stage} · {Math.round(progress)}%
    </p>
  );
}

/** A running analysis's progress bar and stage line (nothing unless the case is Processing). */
export function CaseProgress({
  product,
  barClassName,
  stageClassName,
}: {
  product: Pick<ProductSummary, 'status' | 'progress' | 'progressStage'>;
  barClassName?: string;
  stageClassName?: string;
}) {
  if (product.status !== 'Processing') return null;
  return (
    <>
      <ProgressBar value={product.progress} label="Analysis progress" className={barClassName} />
      <StageLine stage={product.progressStage} progress={product.progress} className={stageClassName} />
    </>
  );
}

/** The "Raw data analysis" add-on marker of a case analysed from FASTQ reads. */
export function RawDataBadge({ className }: { className?: string }) {
  return (
    <span
      data-testid="raw-data-badge"
      className={cn(
        'inline-flex items-center rounded-full bg-violet-50 px-2 py-0.5 text-[11px] font-medium text-violet-700 ring-1 ring-violet-200 ring-inset',
        className,
      )}
    >
      Raw data analysis
    </span>
  );
}
