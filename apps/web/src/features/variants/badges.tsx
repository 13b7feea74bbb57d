import type { ClinvarAssertion, ReviewerClassification } from '@rarelens/contract';
import { Tooltip } from '../../components/tooltip.tsx';
import { cn } from '../../lib/cn.ts';
import { formatClinvar, formatDateTime, formatSoTerm } from '../../lib/format.ts';
import { AcmgPointScale } from './acmg.ts';

const acmgTones: Record<string, string> = {
  Pathogenic: 'bg-red-600 text-white ring-red-700',
  'Likely pathogenic': 'bg-orange-100 text-orange-800 ring-orange-300',
  'Uncertain significance': 'bg-amber-50 text-amber-800 ring-amber-300',
  'Likely benign': 'bg-emerald-50 text-emerald-800 ring-emerald-300',
  Benign: 'bg-emerald-600 text-white ring-emerald-700',
};

const acmgShort: Record<string, string> = {
  Pathogenic: 'P',
  'Likely pathogenic': 'LP',
  'Uncertain significance': 'VUS',
  'Likely benign': 'LB',
  Benign: 'B',
};

/** The ACMG class as a coloured pill, with the points when known. */
export function AcmgBadge({
  value,
  points,
  size = 'sm',
}: {
  value: string | null;
  points?: number;
  size?: 'sm' | 'lg';
}) {
  if (!value) return <span className="text-xs text-ink-400">—</span>;
  const badge = (
    <span
      data-testid="acmg-badge"
      tabIndex={0}
      className={cn(
        'inline-flex items-center gap-1 rounded-md font-semibold whitespace-nowrap ring-1 ring-inset',
        size === 'lg' ? 'px-2.5 py-1 text-sm' : 'px-1.5 py-0.5 text-[11px]',
        acmgTones[value] ?? 'bg-ink-50 text-ink-700 ring-ink-200',
      )}
    >
      {size === 'lg' ? value : (acmgShort[value] ?? value)}
      {points !== undefined ? (
        <span className="font-normal tabular-nums">
          {points > 0 ? `+${points}` : points}
        </span>
      ) : null}
    </span>
  );
  return (
    <Tooltip
      content={
        <span>
          ACMG/AMP class: <strong>{value}</strong>
          {points !== undefined ? ` (${points} points)` : ''}.{' '}
          <span className="opacity-80">{AcmgPointScale}</span>
        </span>
      }
    >
      {badge}
    </Tooltip>
  );
}

function clinvarTone(value: string): string {
  const v = value.toLowerCase();
  if (v.includes('conflicting')) return 'bg-amber-50 text-amber-800 ring-amber-300';
  if (v.includes('pathogenic') && !v.includes('benign'))
    return 'bg-red-50 text-red-700 ring-red-300';
  if (v.includes('benign') && !v.includes('pathogenic'))
    return 'bg-emerald-50 text-emerald-700 ring-emerald-300';
  if (v.includes('uncertain')) return 'bg-amber-50 text-amber-800 ring-amber-200';
  return 'bg-ink-50 text-ink-700 ring-ink-200';
}

/** ClinVar review stars (0-4). */
export function ReviewStars({ stars }: { stars: number }) {
  return (
    <span
      role="img"
      className="inline-flex text-[11px] leading-none"
      aria-label={`${stars} of 4 review stars`}
    >
      {[0, 1, 2, 3].map((i) => (
        <span key={i} className={i < stars ? 'text-amber-500' : 'text-ink-200'} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  );
}

/** ClinVar germline significance as ClinVar states it, or a dash when the variant has no record. */
export function ClinvarBadge({ value, stars }: { value: string | null; stars?: number }) {
  if (!value) return <span className="text-xs text-ink-400">—</span>;
  return (
    <span className="inline-flex max-w-full items-center gap-1.5">
      <span
        data-testid="clinvar-badge"
        title={formatClinvar(value)}
        className={cn(
          'inline-block max-w-full truncate rounded-md px-1.5 py-0.5 text-[11px] font-medium whitespace-nowrap ring-1 ring-inset',
          clinvarTone(value),
        )}
      >
        {formatClinvar(value)}
      </span>
      {stars !== undefined ? <ReviewStars stars={stars} /> : null}
    </span>
  );
}

/** Whose assertion a ClinVar entry is, in words. */
export function clinvarMatchLabel(match: ClinvarAssertion['match']): string {
  switch (match) {
    case 'exact':
      return 'this allele';
    case 'same_amino_acid':
      return 'same amino-acid change, other nucleotide';
    case 'same_codon':
      return 'other missense at this codon';
  }
}

/**
 * ClinVar's assertion beside the ACMG class: significance, review stars and the release of the
 * record; a change at the same codon is labelled as such (it is PS1/PM5 evidence, not this
 * allele's classification).
 */
export function ClinvarAssertionBadge({
  assertion,
  fallback,
  detailed = false,
}: {
  assertion: ClinvarAssertion | null;
  fallback?: string | null;
  detailed?: boolean;
}) {
  if (!assertion) return <ClinvarBadge value={fallback ?? null} />;
  const isOwn = assertion.match === 'exact';
  const title = [
    `ClinVar: ${formatClinvar(assertion.significance)}`,
    isOwn ? `${assertion.stars} of 4 stars${assertion.reviewStatus ? ` (${assertion.reviewStatus})` : ''}` : clinvarMatchLabel(assertion.match),
    assertion.release ? `release ${assertion.release}` : null,
    assertion.id ? `${assertion.idType === 'allele' ? 'AlleleID' : 'VCV'} ${assertion.id}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span data-testid="clinvar-assertion" className="inline-flex max-w-full flex-wrap items-center gap-x-1.5 gap-y-0.5" title={title}>
      <ClinvarBadge value={isOwn ? assertion.significance : `${assertion.significance} (codon)`} />
      {isOwn ? <ReviewStars stars={assertion.stars} /> : null}
      {detailed || assertion.release ? (
        <span className="text-[11px] whitespace-nowrap text-ink-500">
          {assertion.release ? `ClinVar ${assertion.release}` : 'ClinVar'}
        </span>
      ) : null}
    </span>
  );
}

/** "Reviewer: Likely pathogenic (reason, who, when)" beside the automatic class. */
export function ReviewerBadge({ review, compact = false }: { review: ReviewerClassification | null; compact?: boolean }) {
  if (!review) return null;
  const who = review.reviewer.name ? `${review.reviewer.name} <${review.reviewer.email}>` : review.reviewer.email;
  const text = `Reviewer: ${review.classification} (${review.reason}, ${who}, ${formatDateTime(review.updatedAt)})`;
  return (
    <span data-testid="reviewer-classification" className="inline-flex max-w-full items-center gap-1" title={text}>
      <span
        className={cn(
          'inline-flex rounded-md px-1.5 py-0.5 text-[11px] font-semibold whitespace-nowrap ring-1 ring-inset',
          acmgTones[review.classification] ?? 'bg-ink-50 text-ink-700 ring-ink-200',
        )}
      >
        {compact ? `Reviewer: ${acmgShort[review.classification] ?? review.classification}` : `Reviewer: ${review.classification}`}
      </span>
      {compact ? null : (
        <span className="text-xs text-ink-600">
          ({review.reason}, {who}, {formatDateTime(review.updatedAt)})
        </span>
      )}
    </span>
  );
}

const impactTones: Record<string, string> = {
  HIGH: 'bg-red-500',
  MODERATE: 'bg-orange-400',
  LOW: 'bg-sky-400',
  MODIFIER: 'bg-ink-300',
};

/** The consequence with a dot coloured by its impact class. */
export function ConsequenceLabel({
  consequence,
  impact,
}: {
  consequence: string | null;
  impact: string;
}) {
  if (!consequence) return <span className="text-xs text-ink-400">—</span>;
  return (
    <Tooltip content={`Impact: ${impact.toLowerCase()}`}>
      <span className="inline-flex items-center gap-1.5 text-xs text-ink-700" tabIndex={0}>
        <span
          className={cn(
            'size-2 shrink-0 rounded-full',
            impactTones[impact.toUpperCase()] ?? 'bg-ink-300',
          )}
          aria-hidden="true"
        />
        {formatSoTerm(consequence)}
      </span>
    </Tooltip>
  );
}

const zygosityShort: Record<string, string> = {
  heterozygous: 'Het',
  homozygous: 'Hom',
  hemizygous: 'Hemi',
  homoplasmic: 'Homoplasmic',
  heteroplasmic: 'Heteroplasmic',
  mitochondrial: 'Mito, level unknown',
  reference: 'Ref',
  no_call: 'No call',
  unknown: 'Unknown',
};

/** Mitochondrial levels in words (the API's zygosity values 'homoplasmic', 'heteroplasmic', 'mitochondrial'). */
const zygosityLong: Record<string, string> = {
  mitochondrial: 'mitochondrial, heteroplasmy level unknown (the file gives no AF or AD)',
};

export function ZygosityLabel({ value }: { value: string }) {
  return (
    <span className="text-xs text-ink-700" title={zygosityLong[value] ?? value}>
      {zygosityShort[value] ?? value}
    </span>
  );
}

/**
 * A call's zygosity in words for the evidence drawer: a mitochondrial call with its level and read
 * fraction ("Heteroplasmic, 34.1 % of reads"), or that its level is unknown.
 */
export function zygosityInWords(zygosity: string, heteroplasmy: number | null): string {
  if (zygosity === 'mitochondrial') return 'Mitochondrial, heteroplasmy level unknown (the file gives no AF or AD)';
  const word = zygosity.charAt(0).toUpperCase() + zygosity.slice(1).replace(/_/g, ' ');
  if ((zygosity === 'homoplasmic' || zygosity === 'heteroplasmic') && heteroplasmy !== null) return `${word}, ${Number((heteroplasmy * 100).toFixed(1))} % of reads`;
  return word;
}

/** Significance of a disease or gene: an ACMG class name, shown as a full-width pill. */
export function SignificanceBadge({ value }: { value: string | null }) {
  if (!value) return <span className="text-xs text-ink-400">No reportable variant</span>;
  return (
    <span
      className={cn(
        'inline-flex rounded-md px-1.5 py-0.5 text-[11px] font-semibold whitespace-nowrap ring-1 ring-inset',
        acmgTones[value] ?? 'bg-ink-50 text-ink-700 ring-ink-200',
      )}
    >
      {value}
    </span>
  );
}
