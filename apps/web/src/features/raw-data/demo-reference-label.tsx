import { cn } from '../../lib/cn.ts';

/**
 * Says loudly that a case was aligned to the shipped demo reference (hg19 chrM + 5 kb of chr20),
 * so nobody mistakes its results for a genome's.
 */
export function DemoReferenceLabel({ className }: { className?: string }) {
  return (
    <span
      data-testid="demo-reference"
      title="The reads were aligned to the small demo reference shipped with RareLens (hg19 chrM and a 5 kb excerpt of chr20), not to a genome: variants elsewhere cannot be found. Set RARELENS_REFERENCE for a real genome."
      className={cn(
        'inline-flex items-center rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-semibold text-amber-800 ring-1 ring-amber-300 ring-inset',
        className,
      )}
    >
      Demo reference
    </span>
  );
}
