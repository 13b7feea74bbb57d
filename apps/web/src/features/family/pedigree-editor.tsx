import type { ReactNode } from 'react';
import { Button } from '../../components/button.tsx';
import { FieldError, Input, NativeSelect } from '../../components/form.tsx';
import { cn } from '../../lib/cn.ts';
import { RELATION_LABELS, type EditorMember, type EditorRelation, type EditorSex, type EditorStatus } from './pedigree.ts';

export type PedigreeMode = 'single' | 'editor' | 'file';

export interface PedigreeValue {
  mode: PedigreeMode;
  members: EditorMember[];
  pedFile: File | null;
  /** Proband sample for a PED file with several affected members. */
  probandSample: string;
  /** The relatives' own VCFs when each person was called separately (the genome file is the proband's). */
  relativeFiles: File[];
}

export const emptyPedigree: PedigreeValue = { mode: 'single', members: [], pedFile: null, probandSample: '', relativeFiles: [] };

/** Editor rows for samples of the relatives' VCFs not yet in the editor (filling empty rows first). */
export function addSampleRows(members: readonly EditorMember[], samples: readonly string[]): EditorMember[] {
  const out = [...members];
  for (const s of samples) {
    if (out.some((m) => m.sample.trim() === s)) continue;
    const empty = out.findIndex((m) => m.sample.trim() === '');
    if (empty >= 0) out[empty] = { ...out[empty]!, sample: s };
    else out.push({ sample: s, relation: 'sibling', sex: 'unknown', status: 'unknown' });
  }
  return out;
}

const RELATIONS = Object.keys(RELATION_LABELS) as EditorRelation[];
const SEXES: EditorSex[] = ['male', 'female', 'unknown'];
const STATUSES: EditorStatus[] = ['affected', 'unaffected', 'unknown'];

/** A select of one of `options` (shown as `text`, the value itself by default). */
/** The editor's columns: a header row from the sm breakpoint, a caption above each field below it. */
const COLUMNS = ['Sample (as in the VCF)', 'Relation to the proband', 'Sex', 'Status'] as const;

/** A field of a member's row, captioned where the column headers are hidden (phone width). */
function Cell({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <span aria-hidden="true" className="text-xs font-medium text-ink-500 sm:hidden">
        {caption}
      </span>
      {children}
    </div>
  );
}

function Choice<T extends string>({
  label,
  options,
  value,
  text = (option) => option,
  onChange,
}: {
  label: string;
  options: readonly T[];
  value: T;
  text?: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <NativeSelect aria-label={label} value={value} onChange={(e) => onChange(e.target.value as T)}>
      {options.map((option) => (
        <option key={option} value={option}>
          {text(option)}
        </option>
      ))}
    </NativeSelect>
  );
}

/** Starting rows: the VCF's samples when the header could be read (first = proband), else a trio to fill in. */
export function initialMembers(samples: readonly string[], probandSex: EditorSex): EditorMember[] {
  const names = samples.length ? samples : ['', '', ''];
  const guess: EditorRelation[] = ['proband', 'father', 'mother'];
  return names.map((sample, i) => {
    const relation = guess[i] ?? 'sibling';
    return { sample, relation, sex: relation === 'father' ? 'male' : relation === 'mother' ? 'female' : relation === 'proband' ? probandSex : 'unknown', status: relation === 'proband' ? 'affected' : 'unaffected' };
  });
}

/**
 * Family of a multi-sample VCF on the upload page: none (single sample), a PED file, or a small
 * editor (one row per sample: relation to the proband, sex, affected status).
 */
export function PedigreeField({
  value,
  onChange,
  samples,
  probandSex,
  error,
}: {
  value: PedigreeValue;
  onChange: (v: PedigreeValue) => void;
  /** Sample names read from the VCF header ([] when unknown). */
  samples: readonly string[];
  probandSex: EditorSex;
  error?: string;
}) {
  const setMember = (i: number, patch: Partial<EditorMember>) => onChange({ ...value, members: value.members.map((m, j) => (j === i ? { ...m, ...patch } : m)) });
  const modes: { mode: PedigreeMode; label: string }[] = [
    { mode: 'single', label: 'Single sample' },
    { mode: 'editor', label: 'Describe the family' },
    { mode: 'file', label: 'PED file' },
  ];
  return (
    <fieldset className="flex flex-col gap-3" aria-label="Family">
      <legend className="mb-1 text-sm font-medium text-ink-800">Family (trio or pedigree)</legend>
      <p className="text-xs text-ink-500">
        For a joint-called family VCF, describe who is who: RareLens then finds de novo, compound heterozygous and
        segregating variants and checks the trio’s Mendelian consistency.
        {samples.length > 1 ? ` This VCF has ${samples.length} samples: ${samples.join(', ')}.` : ''}
      </p>
      <div role="radiogroup" aria-label="Family input" className="flex flex-wrap gap-2">
        {modes.map(({ mode, label }) => (
          <label
            key={mode}
            className={cn(
              'flex h-9 cursor-pointer items-center gap-2 rounded-lg border px-3 text-sm font-medium',
              value.mode === mode ? 'border-accent-500 bg-accent-50 text-accent-700' : 'border-ink-200 text-ink-700 hover:border-ink-300',
            )}
          >
            <input
              type="radio"
              name="pedigreeMode"
              value={mode}
              checked={value.mode === mode}
              className="accent-accent-600"
              onChange={() => onChange({ ...value, mode, members: mode === 'editor' && value.members.length === 0 ? initialMembers(samples, probandSex) : value.members })}
            />
            {label}
          </label>
        ))}
      </div>
      {value.mode === 'editor' ? (
        <div className="flex flex-col gap-2" data-testid="pedigree-editor">
          <datalist id="vcf-samples">
            {samples.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <div className="hidden grid-cols-[1.3fr_1.3fr_1fr_1fr_auto] gap-2 text-xs font-medium text-ink-500 sm:grid">
            {COLUMNS.map((c) => (
              <span key={c}>{c}</span>
            ))}
            <span className="w-16" />
          </div>
          {value.members.map((m, i) => (
            <div
              key={i}
              className="grid grid-cols-2 gap-2 border-b border-ink-100 pb-3 sm:grid-cols-[1.3fr_1.3fr_1fr_1fr_auto] sm:border-0 sm:pb-0"
              data-testid="pedigree-row"
            >
              <Cell caption={COLUMNS[0]}>
                <Input aria-label={`Sample ${i + 1}`} list="vcf-samples" value={m.sample} placeholder="Sample name" onChange={(e) => setMember(i, { sample: e.target.value })} />
              </Cell>
              <Cell caption={COLUMNS[1]}>
                <Choice label={`Relation of sample ${i + 1}`} options={RELATIONS} value={m.relation} text={(r) => RELATION_LABELS[r]} onChange={(relation) => setMember(i, { relation })} />
              </Cell>
              <Cell caption={COLUMNS[2]}>
                <Choice label={`Sex of sample ${i + 1}`} options={SEXES} value={m.sex} onChange={(sex) => setMember(i, { sex })} />
              </Cell>
              <Cell caption={COLUMNS[3]}>
                <Choice label={`Status of sample ${i + 1}`} options={STATUSES} value={m.status} onChange={(status) => setMember(i, { status })} />
              </Cell>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="w-16 self-end sm:self-center"
                aria-label={`Remove sample ${i + 1}${m.sample.trim() ? ` (${m.sample.trim()})` : ''}`}
                onClick={() => onChange({ ...value, members: value.members.filter((_, j) => j !== i) })}
              >
                Remove
              </Button>
            </div>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => onChange({ ...value, members: [...value.members, { sample: '', relation: 'sibling', sex: 'unknown', status: 'unknown' }] })}>
              Add a family member
            </Button>
          </div>
        </div>
      ) : null}
      {/* The native file inputs get a visible button: the preflight strips ::file-selector-button to bare text ("Choose File No file chosen"). */}
      {value.mode !== 'single' ? (
        <label className="flex flex-col gap-1.5 text-sm font-medium text-ink-800">
          Relatives’ VCFs, if each person was called separately (optional)
          <input
            type="file"
            multiple
            accept=".vcf,.vcf.gz,.gz"
            aria-label="Relatives’ VCFs"
            className="text-sm font-normal file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-ink-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink-800 hover:file:bg-ink-50"
            onChange={(e) => onChange({ ...value, relativeFiles: [...(e.target.files ?? [])] })}
          />
          <span className="text-xs font-normal text-ink-500">
            One person per file; the genome file above is then the proband’s. They are merged by position and allele. A
            site a person’s VCF does not list counts as not called (never as reference), and the case notes how many
            such sites each person has: de novo and segregation cannot be judged there.
            {value.relativeFiles.length ? ` ${value.relativeFiles.length} file${value.relativeFiles.length > 1 ? 's' : ''}: ${value.relativeFiles.map((f) => f.name).join(', ')}.` : ''}
          </span>
        </label>
      ) : null}
      {value.mode === 'file' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="flex flex-col gap-1.5 text-sm font-medium text-ink-800">
            PED file
            <input
              type="file"
              accept=".ped,.fam,.txt"
              aria-label="PED file"
              className="text-sm font-normal file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-ink-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink-800 hover:file:bg-ink-50"
              onChange={(e) => onChange({ ...value, pedFile: e.target.files?.[0] ?? null })}
            />
          </label>
          <label className="flex flex-col gap-1.5 text-sm font-medium text-ink-800">
            Proband sample (optional)
            <Input list="vcf-samples" value={value.probandSample} placeholder="Default: the affected member" onChange={(e) => onChange({ ...value, probandSample: e.target.value })} />
          </label>
        </div>
      ) : null}
      <FieldError>{error}</FieldError>
    </fieldset>
  );
}
