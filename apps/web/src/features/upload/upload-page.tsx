import { zodResolver } from '@hookform/resolvers/zod';
import type { CaseTerm } from '@rarelens/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../components/button.tsx';
import { Alert, Card, PageHeader } from '../../components/card.tsx';
import { FieldError, FormField, Input, NativeSelect, Textarea } from '../../components/form.tsx';
import { toast } from '../../components/toaster.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { cn } from '../../lib/cn.ts';
import { useDocumentTitle } from '../../lib/document-title.ts';
import { productKeys, ProgressBar } from '../cases/index.ts';
import { PlanRequiredNotice } from '../orders/index.ts';
import { UploadReferenceNotice } from '../raw-data/index.ts';
import { formatBytes } from '../../lib/format.ts';
import { addSampleRows, emptyPedigree, PedigreeField, type PedigreeValue, checkEditorMembers, editorToPed, readVcfSampleNames } from '../family/index.ts';
import { HpoTermPicker, TermChips } from './hpo-term-picker.tsx';
import { AttachmentsField, GenomeFileField, isFastqFileName } from './file-fields.tsx';
import { SymptomSuggestions } from './symptom-suggestions.tsx';
import { SymptomsField, type SymptomSuggestionsProps } from './symptoms-field.tsx';
import {
  emptyUploadForm,
  UploadFormSchema,
  type UploadFormInput,
  type UploadFormOutput,
} from './upload-form.schema.ts';
import { uploadBytes, uploadProduct, type UploadProgress } from './upload.api.ts';

/** Server field names that map onto this form's fields. */
const serverFields = [
  'caseId',
  'gender',
  'symptoms',
  'hpoTerms',
  'excludedTerms',
  'assembly',
  'imageDescription',
  'genomeFile',
  'genomeMateFile',
  'additionalFiles',
] as const;
type ServerField = (typeof serverFields)[number];

function Section({
  step,
  title,
  description,
  children,
}: {
  step: number;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card className="p-5 sm:p-7">
      <div className="mb-5 flex items-start gap-3">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-ink-900 text-xs font-semibold text-white">
          {step}
        </span>
        <div>
          <h2 className="text-base font-semibold text-ink-900">{title}</h2>
          <p className="mt-0.5 text-sm text-ink-500">{description}</p>
        </div>
      </div>
      {children}
    </Card>
  );
}

function addTerm(list: CaseTerm[], term: CaseTerm): CaseTerm[] {
  return list.some((t) => t.id === term.id) ? list : [...list, term];
}

type UploadPageProps = {
  /** PhenomeAI suggestions inside the symptoms box (see SymptomsField's slot); defaults to SymptomSuggestions. */
  renderSuggestions?: (props: SymptomSuggestionsProps) => ReactNode;
};

const defaultSuggestions = (props: SymptomSuggestionsProps) => <SymptomSuggestions {...props} />;

/** /upload (Genome Upload): the patient's genome file, symptoms, HPO terms and additional files. */
export function UploadPage({ renderSuggestions = defaultSuggestions }: UploadPageProps = {}) {
  useDocumentTitle('Genome Upload');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [uploadController, setUploadController] = useState<AbortController | null>(null);
  const [isExcludedOpen, setIsExcludedOpen] = useState(false);
  const [pedigree, setPedigree] = useState<PedigreeValue>(emptyPedigree);
  const [pedigreeError, setPedigreeError] = useState<string | undefined>(undefined);
  const [samplesRead, setSamplesRead] = useState<{ file: File; names: string[] } | null>(null);

  const form = useForm<UploadFormInput, unknown, UploadFormOutput>({
    resolver: zodResolver(UploadFormSchema),
    defaultValues: emptyUploadForm,
  });
  const { errors, isSubmitting } = form.formState;
  const excludedTerms = useWatch({ control: form.control, name: 'excludedTerms' });
  const hpoTerms = useWatch({ control: form.control, name: 'hpoTerms' });
  const genomeFile = useWatch({ control: form.control, name: 'genomeFile' });
  const gender = useWatch({ control: form.control, name: 'gender' });

  // The VCF's sample names (from its #CHROM line) fill the pedigree editor's choices.
  useEffect(() => {
    let isCurrent = true;
    if (!genomeFile) return;
    void readVcfSampleNames(genomeFile).then((names) => {
      if (isCurrent) setSamplesRead({ file: genomeFile, names });
    });
    return () => {
      isCurrent = false;
    };
  }, [genomeFile]);
  const genomeSamples = genomeFile && samplesRead?.file === genomeFile ? samplesRead.names : [];
  // The relatives' separately called VCFs add their samples (one person each) to the editor.
  const [relativeSamples, setRelativeSamples] = useState<{ files: File[]; names: string[] } | null>(null);
  useEffect(() => {
    let isCurrent = true;
    const files = pedigree.relativeFiles;
    if (!files.length) return;
    void Promise.all(files.map((f) => readVcfSampleNames(f))).then((lists) => {
      if (!isCurrent) return;
      const names = lists.flat();
      setRelativeSamples({ files, names });
      setPedigree((p) => (p.mode === 'editor' && p.relativeFiles === files ? { ...p, members: addSampleRows(p.members, names) } : p));
    });
    return () => {
      isCurrent = false;
    };
  }, [pedigree.relativeFiles]);
  const vcfSamples = [...genomeSamples, ...(pedigree.relativeFiles.length && relativeSamples?.files === pedigree.relativeFiles ? relativeSamples.names : [])];

  // Leaving the page cancels an upload in flight.
  useEffect(() => () => uploadController?.abort(), [uploadController]);

  const handleSubmit = form.handleSubmit(async (values) => {
    if (!values.genomeFile) return;
    setSubmitError(null);
    setPedigreeError(undefined);
    // The family: the editor's rows become a PED file, so both take the server's PED checks.
    let pedigreeFile: File | null = null;
    let probandSample = '';
    if (pedigree.mode === 'editor') {
      const problems = checkEditorMembers(pedigree.members);
      if (problems.length) {
        setPedigreeError(problems.join('. '));
        return;
      }
      pedigreeFile = new File([editorToPed(pedigree.members, values.caseId)], 'pedigree-editor.ped', { type: 'text/plain' });
      probandSample = pedigree.members.find((m) => m.relation === 'proband')?.sample.trim() ?? '';
    } else if (pedigree.mode === 'file') {
      if (!pedigree.pedFile) {
        setPedigreeError('Choose the PED file, or describe the family instead');
        return;
      }
      pedigreeFile = pedigree.pedFile;
      probandSample = pedigree.probandSample;
    }
    const controller = new AbortController();
    setUploadController(controller);
    const relativeGenomeFiles = pedigree.mode === 'single' ? [] : pedigree.relativeFiles;
    setProgress({ loaded: 0, total: uploadBytes({ ...values, relativeGenomeFiles }) });
    try {
      await uploadProduct(
        {
          caseId: values.caseId,
          gender: values.gender,
          symptoms: values.symptoms,
          hpoTerms: values.hpoTerms.map((t) => t.id),
          excludedTerms: values.excludedTerms.map((t) => t.id),
          // Reads are called on the reference's assembly (named by the reference notice): a choice
          // made before the FASTQ was picked does not apply.
          assembly: values.genomeFile && isFastqFileName(values.genomeFile.name) ? 'auto' : values.assembly,
          imageDescription: values.imageDescription,
          genomeFile: values.genomeFile,
          genomeMateFile: values.genomeMateFile,
          additionalFiles: values.additionalFiles,
          pedigreeFile,
          probandSample,
          relativeGenomeFiles,
        },
        setProgress,
        controller.signal,
      );
      await queryClient.invalidateQueries({ queryKey: productKeys.list() });
      toast.success(`Case ${values.caseId} uploaded — the analysis is queued`);
      await navigate('/home');
    } catch (error) {
      setProgress(null);
      if (error instanceof DOMException && error.name === 'AbortError') {
        toast.message('Upload cancelled');
        return;
      }
      let isPlaced = false;
      if (error instanceof ApiError && error.issues) {
        for (const issue of error.issues) {
          if (issue.path[0] === 'pedigreeFile' || issue.path[0] === 'probandSample' || issue.path[0] === 'relativeGenomeFiles') {
            setPedigreeError(issue.message);
            isPlaced = true;
            continue;
          }
          const field = serverFields.find((f) => f === issue.path[0]);
          if (field) {
            form.setError(field satisfies ServerField, { type: 'server', message: issue.message });
            isPlaced = true;
          }
        }
      }
      const message = errorMessage(error);
      if (!isPlaced) setSubmitError(message);
      toast.error(message);
    }
  });

  const isUploading = progress !== null;
  const percent = progress && progress.total > 0 ? (progress.loaded / progress.total) * 100 : 0;

  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Genome Upload"
        description="Upload patient data: the genome file, the clinical picture and any supporting documents. The analysis starts as soon as the upload completes."
      />
      <PlanRequiredNotice />
      <form
        onSubmit={(e) => void handleSubmit(e)}
        noValidate
        className="flex flex-col gap-5"
        aria-label="Genome upload"
      >
        <Section
          step={1}
          title="Patient"
          description="Identify the case as your laboratory or clinic does."
        >
          <div className="grid gap-5 sm:grid-cols-2">
            <FormField
              label="Case ID"
              error={errors.caseId?.message}
              hint="Shown in your case list and on reports."
            >
              <Input
                autoComplete="off"
                placeholder="e.g. RL-2026-0142"
                {...form.register('caseId')}
              />
            </FormField>
            <Controller
              control={form.control}
              name="gender"
              render={({ field }) => (
                <fieldset className="flex flex-col gap-1.5">
                  <legend className="mb-1.5 text-sm font-medium text-ink-800">Gender</legend>
                  <div role="radiogroup" aria-label="Gender" className="grid grid-cols-2 gap-2">
                    {(['male', 'female'] as const).map((value) => (
                      <label
                        key={value}
                        className={cn(
                          'flex h-10 cursor-pointer items-center justify-center gap-2 rounded-lg border text-sm font-medium capitalize transition-colors',
                          field.value === value
                            ? 'border-accent-500 bg-accent-50 text-accent-700'
                            : 'border-ink-200 text-ink-700 hover:border-ink-300',
                          errors.gender && field.value !== value ? 'border-danger-600' : '',
                        )}
                      >
                        <input
                          type="radio"
                          name={field.name}
                          value={value}
                          checked={field.value === value}
                          onChange={() => field.onChange(value)}
                          onBlur={field.onBlur}
                          className="accent-accent-600"
                        />
                        {value === 'male' ? 'Male' : 'Female'}
                      </label>
                    ))}
                  </div>
                  <FieldError>{errors.gender?.message}</FieldError>
                </fieldset>
              )}
            />
          </div>
        </Section>

        <Section
          step={2}
          title="Clinical picture"
          description="Symptoms in your own words, and the HPO terms that encode them."
        >
          <Controller
            control={form.control}
            name="hpoTerms"
            render={({ field: termsField }) => (
              <Controller
                control={form.control}
                name="symptoms"
                render={({ field: textField }) => (
                  <SymptomsField
                    text={textField.value}
                    onTextChange={textField.onChange}
                    terms={termsField.value}
                    // Read the current value: several terms may be added in one event ("Accept all").
                    onAddTerm={(term) =>
                      termsField.onChange(addTerm(form.getValues('hpoTerms'), term))
                    }
                    onRemoveTerm={(id) =>
                      termsField.onChange(termsField.value.filter((t) => t.id !== id))
                    }
                    excludedTerms={excludedTerms}
                    onAddExcludedTerm={(term) =>
                      form.setValue(
                        'excludedTerms',
                        addTerm(form.getValues('excludedTerms'), term),
                        { shouldDirty: true, shouldValidate: form.formState.isSubmitted },
                      )
                    }
                    error={errors.symptoms?.message}
                    termsError={errors.hpoTerms?.message}
                    renderSuggestions={renderSuggestions}
                  />
                )}
              />
            )}
          />
          <div className="mt-5 border-t border-ink-100 pt-4">
            {excludedTerms.length === 0 ? (
              <button
                type="button"
                className="text-sm font-medium text-accent-700 hover:underline"
                aria-expanded={isExcludedOpen}
                onClick={() => setIsExcludedOpen((v) => !v)}
              >
                {isExcludedOpen ? 'Hide excluded phenotypes' : 'Exclude phenotypes (optional)'}
              </button>
            ) : (
              <p className="text-sm font-medium text-ink-800">Excluded phenotypes</p>
            )}
            {isExcludedOpen || excludedTerms.length > 0 ? (
              <Controller
                control={form.control}
                name="excludedTerms"
                render={({ field }) => (
                  <div className="mt-3 flex flex-col gap-1.5">
                    <p className="text-xs text-ink-500">
                      Findings examined and found absent; diseases that expect them rank lower.
                    </p>
                    <HpoTermPicker
                      label="Excluded HPO terms"
                      selected={[...field.value, ...hpoTerms]}
                      onSelect={(term) => field.onChange(addTerm(field.value, term))}
                      placeholder="Search a finding that is absent"
                    />
                    <TermChips
                      tone="exclude"
                      terms={field.value}
                      onRemove={(id) => field.onChange(field.value.filter((t) => t.id !== id))}
                    />
                  </div>
                )}
              />
            ) : null}
          </div>
        </Section>

        <Section
          step={3}
          title="Genome"
          description="The patient’s variants (VCF) or raw reads (FASTQ). The file type is checked by its content."
        >
          <Controller
            control={form.control}
            name="genomeFile"
            render={({ field }) => (
              <GenomeFileField
                file={field.value}
                onChange={field.onChange}
                error={errors.genomeFile?.message}
              />
            )}
          />
          {genomeFile && isFastqFileName(genomeFile.name) ? (
            <div className="mt-4">
              <Controller
                control={form.control}
                name="genomeMateFile"
                render={({ field }) => (
                  <GenomeFileField
                    kind="mate"
                    file={field.value}
                    onChange={field.onChange}
                    error={errors.genomeMateFile?.message}
                  />
                )}
              />
              <p className="mt-2 text-xs text-ink-500">
                FASTQ reads are aligned and their variants called on the server (Raw data analysis),
                then analysed like a VCF. Single-end, paired (two files) and interleaved reads are
                accepted.
              </p>
              <UploadReferenceNotice />
            </div>
          ) : null}
          {genomeFile && isFastqFileName(genomeFile.name) ? null : (
            <div className="mt-5 grid gap-5 sm:grid-cols-2">
              <FormField
                label="Genome assembly"
                error={errors.assembly?.message}
                hint="Detected from the VCF header (contig lengths, ##reference) when set to automatic."
              >
                <NativeSelect {...form.register('assembly')}>
                  <option value="auto">Detect automatically</option>
                  <option value="GRCh37">GRCh37 (hg19)</option>
                  <option value="GRCh38">GRCh38 (hg38)</option>
                </NativeSelect>
              </FormField>
            </div>
          )}
          <div className="mt-5 border-t border-ink-100 pt-4">
            <PedigreeField
              value={pedigree}
              onChange={(v) => {
                setPedigree(v);
                setPedigreeError(undefined);
              }}
              samples={vcfSamples}
              probandSex={gender === 'male' || gender === 'female' ? gender : 'unknown'}
              error={pedigreeError}
            />
          </div>
        </Section>

        <Section
          step={4}
          title="Additional files"
          description="Up to five images, reports or documents that support the case."
        >
          <Controller
            control={form.control}
            name="additionalFiles"
            render={({ field }) => (
              <AttachmentsField
                files={field.value}
                onChange={field.onChange}
                error={errors.additionalFiles?.message}
              />
            )}
          />
          <FormField
            label="Image description"
            optional
            error={errors.imageDescription?.message}
            className="mt-5"
          >
            <Textarea
              rows={3}
              placeholder="What the images show, e.g. “Hands and feet at age 2: broad, medially deviated thumbs.”"
              {...form.register('imageDescription')}
            />
          </FormField>
        </Section>

        {submitError ? <Alert tone="error">{submitError}</Alert> : null}

        <div className="sticky bottom-0 -mx-4 border-t border-ink-100 bg-white/95 px-4 py-4 backdrop-blur sm:mx-0 sm:rounded-2xl sm:border sm:shadow-card">
          {isUploading ? (
            <div className="flex flex-col gap-2" data-testid="upload-progress">
              <div className="flex items-center justify-between text-sm">
                <span className="font-medium text-ink-800">
                  {percent >= 100 ? 'Finishing…' : 'Uploading…'}
                </span>
                <span className="text-ink-500 tabular-nums">
                  {formatBytes(progress.loaded)} of {formatBytes(progress.total)} ·{' '}
                  {Math.floor(percent)}%
                </span>
              </div>
              <ProgressBar value={percent} label="Upload progress" />
              <div className="flex justify-end">
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  onClick={() => uploadController?.abort()}
                >
                  Cancel upload
                </Button>
              </div>
            </div>
          ) : (
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-between">
              <p className="hidden text-xs text-ink-500 sm:block">
                Only you and the people you share the case with can open it. The original files are
                kept for re-analysis.
              </p>
              <Button type="submit" isLoading={isSubmitting} className="sm:min-w-44">
                Upload and analyse
              </Button>
            </div>
          )}
        </div>
      </form>
    </div>
  );
}
