import { cn } from '../../lib/cn.ts';

type Row = { gene: string; variant: string; acmg: 'Pathogenic' | 'Likely pathogenic' | 'Uncertain significance'; score: number; inheritance: string };

const rows: Row[] = [
  { gene: 'SCN1A', variant: 'Missense · heterozygous', acmg: 'Pathogenic', score: 0.97, inheritance: 'AD' },
  { gene: 'STXBP1', variant: 'Frameshift · heterozygous', acmg: 'Likely pathogenic', score: 0.88, inheritance: 'AD' },
  { gene: 'KCNQ2', variant: 'Missense · heterozygous', acmg: 'Uncertain significance', score: 0.61, inheritance: 'AD' },
  { gene: 'CDKL5', variant: 'Splice region · hemizygous', acmg: 'Uncertain significance', score: 0.42, inheritance: 'XLD' },
];

const phenotypes = ['Seizure', 'Global developmental delay', 'Hypotonia', 'Febrile seizures'];

const acmgTone: Record<Row['acmg'], string> = {
  Pathogenic: 'bg-danger-50 text-danger-700 ring-danger-600/20',
  'Likely pathogenic': 'bg-orange-50 text-orange-700 ring-orange-600/20',
  'Uncertain significance': 'bg-ink-50 text-ink-600 ring-ink-400/30',
};

/** A static, illustrative rendering of a case's ranked results for the landing page hero. */
export function ProductPreview() {
  return (
    <figure className="relative">
      <div aria-hidden="true" className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-br from-accent-200/50 via-white to-ink-200/60 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-ink-100 bg-white shadow-2xl shadow-ink-900/10">
        <div className="flex items-center justify-between border-b border-ink-100 bg-ink-50/70 px-5 py-3">
          <div className="flex items-center gap-2">
            <span className="size-2.5 rounded-full bg-ink-200" />
            <span className="size-2.5 rounded-full bg-ink-200" />
            <span className="size-2.5 rounded-full bg-ink-200" />
          </div>
          <span className="rounded-full bg-accent-50 px-2.5 py-0.5 text-[11px] font-semibold text-accent-700 ring-1 ring-accent-500/20">
            Completed
          </span>
        </div>
        <div className="px-5 pt-4 pb-5">
          <div className="flex items-baseline justify-between">
            <p className="text-sm font-semibold text-ink-900">Case 0142 · Proband, 4 y</p>
            <p className="text-[11px] text-ink-400">GRCh38 · exome</p>
          </div>
          <div className="mt-3 flex flex-wrap gap-1.5">
            {phenotypes.map((p) => (
              <span key={p} className="rounded-md bg-ink-50 px-2 py-1 text-[11px] font-medium text-ink-600 ring-1 ring-ink-100">
                {p}
              </span>
            ))}
          </div>
          <table className="mt-4 w-full text-left text-xs">
            <thead>
              <tr className="text-[10px] tracking-wide text-ink-400 uppercase">
                <th className="pb-2 font-medium">Gene</th>
                <th className="hidden pb-2 font-medium sm:table-cell">Variant</th>
                <th className="pb-2 font-medium">ACMG</th>
                <th className="pb-2 text-right font-medium">Score</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-100">
              {rows.map((row, i) => (
                <tr key={row.gene} className={cn(i === 0 && 'bg-accent-50/40')}>
                  <td className="py-2.5 pr-2">
                    <span className="font-semibold text-ink-900 italic">{row.gene}</span>
                    <span className="ml-1.5 text-[10px] text-ink-400">{row.inheritance}</span>
                  </td>
                  <td className="hidden py-2.5 pr-2 text-ink-500 sm:table-cell">{row.variant}</td>
                  <td className="py-2.5 pr-2">
                    <span className={cn('rounded-full px-2 py-0.5 text-[10px] font-semibold whitespace-nowrap ring-1', acmgTone[row.acmg])}>
                      {row.acmg === 'Uncertain significance' ? 'VUS' : row.acmg}
                    </span>
                  </td>
                  <td className="py-2.5">
                    <div className="flex items-center justify-end gap-2">
                      <span className="hidden h-1.5 w-14 overflow-hidden rounded-full bg-ink-100 sm:block">
                        <span className="block h-full rounded-full bg-accent-500" style={{ width: `${row.score * 100}%` }} />
                      </span>
                      <span className="font-semibold text-ink-800 tabular-nums">{row.score.toFixed(2)}</span>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <figcaption className="mt-3 text-center text-[11px] text-ink-400">Illustrative example, not patient data.</figcaption>
    </figure>
  );
}
