import { Constants, Messages } from '@rarelens/contract';
import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Button } from '../../components/button.tsx';
import { FieldError } from '../../components/form.tsx';
import { CloseIcon, DnaIcon, ReportIcon, UploadIcon } from '../../components/icons.tsx';
import { cn } from '../../lib/cn.ts';
import { formatBytes } from '../../lib/format.ts';

/** Names the genome file may have; the server checks the real type by content. */
export const GenomeFileAccept = '.vcf,.vcf.gz,.vcf.bgz,.fastq,.fq,.fastq.gz,.fq.gz';
const genomeNamePattern = /\.(vcf|vcf\.gz|vcf\.bgz|fastq|fq|fastq\.gz|fq\.gz)$/i;

/** What the genome file looks like from its name: used only for the label, never trusted. */
export function describeGenomeFile(name: string): string {
  if (/\.(fastq|fq)(\.gz)?$/i.test(name)) return 'FASTQ reads';
  if (/\.vcf(\.b?gz)?$/i.test(name)) return 'VCF variants';
  return 'Unrecognised file type';
}

export function isGenomeFileName(name: string): boolean {
  return genomeNamePattern.test(name);
}

export const FastqFileAccept = '.fastq,.fq,.fastq.gz,.fq.gz';

export function isFastqFileName(name: string): boolean {
  return /\.(fastq|fq)(\.gz)?$/i.test(name);
}

/** The texts of the genome field and of the mate FASTQ field (paired reads). */
const FileFieldTexts = {
  genome: {
    testId: 'genome-dropzone',
    label: 'Genome file (VCF or FASTQ)',
    prompt: 'Drop the patient’s VCF or FASTQ file here',
    formats: '.vcf, .vcf.gz, .fastq, .fq, .fastq.gz — plain, gzip or bgzip',
    accept: GenomeFileAccept,
  },
  mate: {
    testId: 'mate-dropzone',
    label: 'Mate FASTQ file (read 2 of paired reads, optional)',
    prompt: 'Paired reads? Drop the mate FASTQ (read 2) here',
    formats: '.fastq, .fq, .fastq.gz — the reads in the same order as the first file',
    accept: FastqFileAccept,
  },
} as const;

function DropArea({
  onFiles,
  isMultiple,
  accept,
  invalid,
  describedBy,
  children,
  label,
  testId,
}: {
  onFiles: (files: File[]) => void;
  isMultiple: boolean;
  accept?: string;
  invalid?: boolean;
  describedBy?: string;
  children: ReactNode;
  label: string;
  testId: string;
}) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setIsOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(isMultiple ? files : files.slice(0, 1));
  }

  return (
    <div
      data-testid={testId}
      onDragOver={(e) => {
        e.preventDefault();
        setIsOver(true);
      }}
      onDragLeave={() => setIsOver(false)}
      onDrop={handleDrop}
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors',
        isOver
          ? 'border-accent-500 bg-accent-50'
          : invalid
            ? 'border-danger-600/60 bg-danger-50/40'
            : 'border-ink-200 bg-ink-50/40 hover:border-ink-300',
      )}
    >
      {children}
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        className="sr-only"
        // Not a tab stop of its own: it is invisible, so a keyboard user would land on nothing
        // visible; "Browse files" opens it (and screen readers still find it by its label).
        tabIndex={-1}
        multiple={isMultiple}
        accept={accept}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          if (files.length > 0) onFiles(files);
          e.target.value = '';
        }}
      />
      <Button type="button" variant="outline" size="sm" aria-describedby={describedBy} onClick={() => inputRef.current?.click()}>
        Browse files
      </Button>
    </div>
  );
}

/** The main VCF or FASTQ file: drag and drop or browse; shows name and size. */
export function GenomeFileField({
  file,
  onChange,
  error,
  kind = 'genome',
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  error?: string | undefined;
  /** 'mate': the second FASTQ of paired reads. */
  kind?: 'genome' | 'mate';
}) {
  const errorId = useId();
  const texts = FileFieldTexts[kind];
  return (
    <div className="flex flex-col gap-2">
      {file ? (
        <div
          data-testid={kind === 'genome' ? 'genome-file' : 'mate-file'}
          className="flex items-center gap-3 rounded-xl border border-ink-200 bg-white px-4 py-3"
        >
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent-50 text-xl text-accent-600">
            <DnaIcon />
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-ink-900">{file.name}</p>
            <p className="text-xs text-ink-500">
              {describeGenomeFile(file.name)} · {formatBytes(file.size)}
            </p>
          </div>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => onChange(null)}
            aria-label={`Remove ${file.name}`}
          >
            <CloseIcon className="size-4" /> Remove
          </Button>
        </div>
      ) : (
        <DropArea
          testId={texts.testId}
          label={texts.label}
          onFiles={(files) => onChange(files[0] ?? null)}
          isMultiple={false}
          accept={texts.accept}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
        >
          <UploadIcon className="size-7 text-ink-400" />
          <p className="text-sm font-medium text-ink-800">{texts.prompt}</p>
          <p className="text-xs text-ink-500">{texts.formats}</p>
        </DropArea>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** Up to five additional files (images, reports, documents). */
export function AttachmentsField({
  files,
  onChange,
  error,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  error?: string | undefined;
}) {
  const errorId = useId();
  const [limitError, setLimitError] = useState<string | null>(null);

  function handleAdd(added: File[]) {
    const next = [...files, ...added];
    if (next.length > Constants.maxAdditionalFiles) {
      setLimitError(Messages.maxFiles);
      onChange(next.slice(0, Constants.maxAdditionalFiles));
      return;
    }
    setLimitError(null);
    onChange(next);
  }

  const message = limitError ?? error;
  return (
    <div className="flex flex-col gap-2">
      <DropArea
        testId="attachments-dropzone"
        label="Additional files"
        onFiles={handleAdd}
        isMultiple
        accept="image/*,.pdf,.doc,.docx,.txt,.csv"
        invalid={Boolean(message)}
        describedBy={message ? errorId : undefined}
      >
        <ReportIcon className="size-6 text-ink-400" />
        <p className="text-sm text-ink-700">Photos, clinical reports or documents</p>
        <p className="text-xs text-ink-500">
          {files.length} of {Constants.maxAdditionalFiles} files
        </p>
      </DropArea>
      {files.length > 0 ? (
        <ul
          className="divide-y divide-ink-100 rounded-xl border border-ink-100 bg-white"
          aria-label="Additional files"
        >
          {files.map((file, index) => (
            <li
              key={`${file.name}-${index}`}
              data-testid="attachment"
              className="flex items-center gap-3 px-3 py-2"
            >
              <span className="min-w-0 flex-1 truncate text-sm text-ink-800">{file.name}</span>
              <span className="text-xs text-ink-500 tabular-nums">{formatBytes(file.size)}</span>
              <button
                type="button"
                className="rounded-md p-1 text-ink-400 hover:bg-ink-50 hover:text-ink-800"
                aria-label={`Remove ${file.name}`}
                onClick={() => {
                  setLimitError(null);
                  onChange(files.filter((_, i) => i !== index));
                }}
              >
                <CloseIcon className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <FieldError id={errorId}>{message}</FieldError>
    </div>
  );
}
