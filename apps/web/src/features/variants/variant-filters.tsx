import { INHERITANCE_FILTER_LABELS, InheritanceFilter, Messages, type VariantListQuery } from '@rarelens/contract';
import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { Checkbox, Input, Label } from '../../components/form.tsx';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/menu.tsx';
import { toast } from '../../components/toaster.tsx';
import { cn } from '../../lib/cn.ts';
import { formatSoTerm } from '../../lib/format.ts';
import { emptyVariantFilters, type VariantFilters } from './variants.api.ts';

type AcmgValue = NonNullable<VariantListQuery['acmg']>[number];
type ZygosityValue = NonNullable<VariantListQuery['zygosity']>[number];

/** Sequence Ontology terms the annotation engine assigns, most to least severe. */
export const ConsequenceOptions = [
  'stop_gained',
  'frameshift_variant',
  'splice_acceptor_variant',
  'splice_donor_variant',
  'start_lost',
  'stop_lost',
  'inframe_insertion',
  'inframe_deletion',
  'missense_variant',
  'splice_region_variant',
  'coding_sequence_variant',
  'synonymous_variant',
  'stop_retained_variant',
  '5_prime_UTR_variant',
  '3_prime_UTR_variant',
  'non_coding_transcript_exon_variant',
  'intron_variant',
  'non_coding_transcript_variant',
  'upstream_gene_variant',
  'downstream_gene_variant',
  'intergenic_variant',
] as const;

/**
 * ClinVar filter choices. ClinVar writes combined values ("Pathogenic/Likely_pathogenic"),
 * so each choice stands for every raw value that belongs to it.
 */
export const ClinvarOptions: ReadonlyArray<{ key: string; label: string; values: string[] }> = [
  {
    key: 'pathogenic',
    label: 'Pathogenic',
    values: ['Pathogenic', 'Pathogenic/Likely_pathogenic'],
  },
  {
    key: 'likely-pathogenic',
    label: 'Likely pathogenic',
    values: ['Likely_pathogenic', 'Pathogenic/Likely_pathogenic'],
  },
  { key: 'uncertain', label: 'Uncertain significance', values: ['Uncertain_significance'] },
  {
    key: 'conflicting',
    label: 'Conflicting classifications',
    values: [
      'Conflicting_classifications_of_pathogenicity',
      'Conflicting_interpretations_of_pathogenicity',
    ],
  },
  {
    key: 'likely-benign',
    label: 'Likely benign',
    values: ['Likely_benign', 'Benign/Likely_benign'],
  },
  { key: 'benign', label: 'Benign', values: ['Benign', 'Benign/Likely_benign'] },
  { key: 'none', label: 'No ClinVar record', values: ['none'] },
];

/** The raw ClinVar values of the chosen options (deduplicated). */
export function clinvarValues(keys: string[]): string[] {
  return [...new Set(ClinvarOptions.filter((o) => keys.includes(o.key)).flatMap((o) => o.values))];
}

export const AcmgOptions: ReadonlyArray<{ value: AcmgValue; label: string }> = [
  { value: 'Pathogenic', label: 'Pathogenic' },
  { value: 'Likely pathogenic', label: 'Likely pathogenic' },
  { value: 'Uncertain significance', label: 'VUS' },
  { value: 'Likely benign', label: 'Likely benign' },
  { value: 'Benign', label: 'Benign' },
];

export const ZygosityOptions: ReadonlyArray<{ value: ZygosityValue; label: string }> = [
  { value: 'heterozygous', label: 'Heterozygous' },
  { value: 'homozygous', label: 'Homozygous' },
  { value: 'hemizygous', label: 'Hemizygous' },
  { value: 'homoplasmic', label: 'Homoplasmic (mitochondrial)' },
  { value: 'heteroplasmic', label: 'Heteroplasmic (mitochondrial)' },
  { value: 'mitochondrial', label: 'Mitochondrial, level unknown' },
];

/** Inheritance patterns in the family (family cases only). */
export const InheritanceOptions: ReadonlyArray<{ value: InheritanceFilter; label: string }> = InheritanceFilter.options.map((value) => ({
  value,
  label: INHERITANCE_FILTER_LABELS[value],
}));

export const MaxAfOptions: ReadonlyArray<{ value: number; label: string }> = [
  { value: 0.05, label: '≤ 5%' },
  { value: 0.01, label: '≤ 1%' },
  { value: 0.005, label: '≤ 0.5%' },
  { value: 0.001, label: '≤ 0.1%' },
  { value: 0.0001, label: '≤ 0.01%' },
];

/** The screen's filter state: ClinVar as option keys (see {@link ClinvarOptions}). */
export type FilterDraft = Omit<VariantFilters, 'clinvar'> & { clinvar: string[] };

function MultiSelect<T extends string>({
  label,
  options,
  value,
  onChange,
  renderLabel,
  className,
}: {
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T[];
  onChange: (value: T[]) => void;
  renderLabel?: (count: number) => string;
  className?: string;
}) {
  const summary =
    value.length === 0
      ? 'Any'
      : value.length === 1
        ? (options.find((o) => o.value === value[0])?.label ?? value[0])
        : (renderLabel?.(value.length) ?? `${value.length} selected`);
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <span className="text-xs font-medium text-ink-600">{label}</span>
      <Popover>
        <PopoverTrigger asChild>
          <button
            type="button"
            aria-label={`${label}: ${summary}`}
            className={cn(
              'flex h-10 w-full items-center justify-between gap-2 rounded-lg border bg-white px-3 text-left text-sm',
              value.length > 0
                ? 'border-accent-500 text-ink-900'
                : 'border-ink-200 text-ink-600 hover:border-ink-300',
            )}
          >
            <span className="truncate">{summary}</span>
            <ChevronDownIcon className="size-4 shrink-0 text-ink-400" />
          </button>
        </PopoverTrigger>
        <PopoverContent
          align="start"
          className="max-h-80 w-72 overflow-y-auto rounded-xl border border-ink-100 bg-white p-2 shadow-card"
        >
          <ul className="flex flex-col">
            {options.map((option) => {
              const isChecked = value.includes(option.value);
              return (
                <li key={option.value}>
                  <label className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm text-ink-800 hover:bg-ink-50">
                    <Checkbox
                      checked={isChecked}
                      onCheckedChange={(checked) =>
                        onChange(
                          checked
                            ? [...value, option.value]
                            : value.filter((v) => v !== option.value),
                        )
                      }
                      aria-label={option.label}
                    />
                    {option.label}
                  </label>
                </li>
              );
            })}
          </ul>
          {value.length > 0 ? (
            <button
              type="button"
              className="mt-1 w-full rounded-md px-2 py-1.5 text-left text-xs font-medium text-accent-700 hover:bg-ink-50"
              onClick={() => onChange([])}
            >
              Clear
            </button>
          ) : null}
        </PopoverContent>
      </Popover>
    </div>
  );
}

const chevron =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%236f89a9' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E\")";

const consequenceChoices = ConsequenceOptions.map((c) => ({ value: c, label: formatSoTerm(c) }));
const clinvarChoices = ClinvarOptions.map((o) => ({ value: o.key, label: o.label }));

/** The filter bar: edits a draft, applied with "Apply filters" (toast "Filter applied"). */
export function VariantFilterBar({
  applied,
  onApply,
  isFamily = false,
}: {
  applied: FilterDraft;
  onApply: (filters: FilterDraft) => void;
  /** A family case: offers the inheritance filter. */
  isFamily?: boolean;
}) {
  const [draft, setDraft] = useState<FilterDraft>(applied);
  const [geneText, setGeneText] = useState(applied.gene.join(', '));
  const [appliedKey, setAppliedKey] = useState(JSON.stringify(applied));
  const [isOpen, setIsOpen] = useState(false);
  // Follow the URL when it changes underneath (back/forward, tab switch).
  if (JSON.stringify(applied) !== appliedKey) {
    setAppliedKey(JSON.stringify(applied));
    setDraft(applied);
    setGeneText(applied.gene.join(', '));
  }

  function apply(next: FilterDraft) {
    onApply(next);
    setIsOpen(false);
    toast.success(Messages.filterApplied);
  }

  function handleApply() {
    const genes = geneText
      .split(/[\s,;]+/)
      .map((g) => g.trim().toUpperCase())
      .filter((g) => g !== '');
    apply({ ...draft, gene: [...new Set(genes)] });
  }

  const activeCount =
    applied.consequence.length +
    applied.clinvar.length +
    applied.acmg.length +
    applied.zygosity.length +
    applied.gene.length +
    applied.inheritance.length +
    (applied.maxAf === undefined ? 0 : 1);
  return (
    <>
      <button
        type="button"
        className="mb-3 inline-flex h-9 items-center gap-2 rounded-lg border border-ink-200 bg-white px-3 text-sm font-medium text-ink-800 md:hidden"
        aria-expanded={isOpen}
        onClick={() => setIsOpen((v) => !v)}
      >
        Filters
        {activeCount > 0 ? (
          <span className="rounded-full bg-accent-600 px-1.5 text-xs text-white">
            {activeCount}
          </span>
        ) : null}
        <ChevronDownIcon
          className={cn('size-4 text-ink-400 transition-transform', isOpen && 'rotate-180')}
        />
      </button>
      <form
        aria-label="Variant filters"
        className={cn(
          'mb-4 rounded-xl border border-ink-100 bg-white p-3 shadow-card sm:p-4 md:block',
          isOpen ? 'block' : 'hidden',
        )}
        onSubmit={(e) => {
          e.preventDefault();
          handleApply();
        }}
      >
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
          <MultiSelect
            label="Consequence"
            options={consequenceChoices}
            value={draft.consequence}
            onChange={(consequence) => setDraft({ ...draft, consequence })}
          />
          <div className="flex flex-col gap-1">
            <Label className="text-xs font-medium text-ink-600" htmlFor="filter-max-af">
              Max population AF
            </Label>
            <select
              id="filter-max-af"
              className={cn(
                'h-10 w-full appearance-none rounded-lg border bg-white bg-[length:1rem] bg-[right_0.75rem_center] bg-no-repeat pr-9 pl-3 text-sm focus:border-accent-500 focus:ring-3 focus:ring-accent-100 focus:outline-none',
                draft.maxAf !== undefined
                  ? 'border-accent-500 text-ink-900'
                  : 'border-ink-200 text-ink-600 hover:border-ink-300',
              )}
              style={{ backgroundImage: chevron }}
              value={draft.maxAf === undefined ? '' : String(draft.maxAf)}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  maxAf: e.target.value === '' ? undefined : Number(e.target.value),
                })
              }
            >
              <option value="">Any</option>
              {MaxAfOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <MultiSelect
            label="ClinVar"
            options={clinvarChoices}
            value={draft.clinvar}
            onChange={(clinvar) => setDraft({ ...draft, clinvar })}
          />
          <MultiSelect
            label="ACMG class"
            options={AcmgOptions}
            value={draft.acmg}
            onChange={(acmg) => setDraft({ ...draft, acmg })}
          />
          <MultiSelect
            label="Zygosity"
            options={ZygosityOptions}
            value={draft.zygosity}
            onChange={(zygosity) => setDraft({ ...draft, zygosity })}
          />
          {isFamily ? (
            <MultiSelect
              label="Inheritance"
              options={InheritanceOptions}
              value={draft.inheritance}
              onChange={(inheritance) => setDraft({ ...draft, inheritance })}
            />
          ) : null}
          <div className="flex flex-col gap-1">
            <Label className="text-xs font-medium text-ink-600" htmlFor="filter-gene">
              Gene
            </Label>
            <Input
              id="filter-gene"
              placeholder="e.g. FGFR2, FGFR1"
              value={geneText}
              onChange={(e) => setGeneText(e.target.value)}
              autoComplete="off"
            />
          </div>
        </div>
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-ink-500">
            Variants of unknown population frequency pass the frequency filter.
          </p>
          <div className="flex gap-2">
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setDraft({ ...emptyVariantFilters, clinvar: [] });
                setGeneText('');
                apply({ ...emptyVariantFilters, clinvar: [] });
              }}
            >
              Reset
            </Button>
            <Button type="submit" size="sm">
              Apply filters
            </Button>
          </div>
        </div>
      </form>
    </>
  );
}
