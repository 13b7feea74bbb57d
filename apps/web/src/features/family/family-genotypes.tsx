import { INHERITANCE_FILTER_LABELS, type InheritanceFilter, type MemberGenotype } from '@rarelens/contract';
import { cn } from '../../lib/cn.ts';

/** Each sequenced family member's genotype at a variant, proband first: "HG002 0/1 · HG003 0/0 …". */
export function FamilyGenotypes({ genotypes, order }: { genotypes: Record<string, MemberGenotype>; order?: readonly string[] }) {
  const names = order?.filter((s) => s in genotypes) ?? Object.keys(genotypes);
  return (
    <ul className="mt-1 flex flex-col gap-0.5" aria-label="Genotypes in the family" data-testid="family-genotypes">
      {names.map((sample) => {
        const g = genotypes[sample]!;
        const quality = [g.depth != null ? `DP ${g.depth}` : null, g.genotypeQuality != null ? `GQ ${g.genotypeQuality}` : null, g.alleleDepths ? `AD ${g.alleleDepths.join(',')}` : null].filter(Boolean).join(', ');
        const carries = /[1-9]/.test(g.gt);
        return (
          <li key={sample} className="flex items-baseline gap-1.5 font-mono text-[11px] whitespace-nowrap" title={quality || undefined}>
            <span className="max-w-20 truncate text-ink-500">{sample}</span>
            <span className={cn(carries ? 'font-semibold text-ink-900' : 'text-ink-400')}>{g.gt || '.'}</span>
          </li>
        );
      })}
    </ul>
  );
}

const TONE: Record<InheritanceFilter, string> = {
  de_novo: 'bg-rose-50 text-rose-700 ring-rose-200',
  compound_het: 'bg-violet-50 text-violet-700 ring-violet-200',
  hom_recessive: 'bg-amber-50 text-amber-800 ring-amber-200',
  x_linked: 'bg-sky-50 text-sky-700 ring-sky-200',
  segregates: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
};

/** The inheritance patterns a variant fits in the family. */
export function InheritanceBadges({ tags }: { tags: readonly InheritanceFilter[] }) {
  if (!tags.length) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1" data-testid="inheritance-badges">
      {tags.map((t) => (
        <span key={t} className={cn('rounded px-1.5 py-0.5 text-[10px] font-medium ring-1 ring-inset', TONE[t])}>
          {INHERITANCE_FILTER_LABELS[t]}
        </span>
      ))}
    </span>
  );
}
