import {
  AssemblyChoice,
  Constants,
  CreateProductFields,
  Gender,
  Messages,
  TermRef,
} from '@rarelens/contract';
import { z } from 'zod';
import { isFastqFileName, isGenomeFileName } from './file-fields.tsx';

/**
 * The Genome Upload form: the contract's text fields, with the chosen terms kept as
 * {id, label} for the chips, plus the files.
 */
export const UploadFormSchema = z.object({
  caseId: CreateProductFields.shape.caseId,
  /** '' until the user picks one. */
  gender: z.string().pipe(Gender),
  symptoms: CreateProductFields.shape.symptoms,
  hpoTerms: z.array(TermRef).max(200),
  excludedTerms: z.array(TermRef).max(200),
  assembly: AssemblyChoice,
  imageDescription: z.string().trim().max(2000),
  genomeFile: z
    .instanceof(File, { error: Messages.mandatory })
    .nullable()
    .refine((file) => file !== null, Messages.mandatory)
    .refine(
      (file) => file === null || isGenomeFileName(file.name),
      'Choose a VCF (.vcf, .vcf.gz) or FASTQ (.fastq, .fq, .fastq.gz) file',
    )
    .refine((file) => file === null || file.size > 0, 'The file is empty'),
  /** The mate FASTQ of paired reads (read 2), with a FASTQ genome file. */
  genomeMateFile: z
    .instanceof(File)
    .nullable()
    .refine((file) => file === null || isFastqFileName(file.name), 'Choose a FASTQ file (.fastq, .fq, .fastq.gz)')
    .refine((file) => file === null || file.size > 0, 'The file is empty'),
  additionalFiles: z.array(z.instanceof(File)).max(Constants.maxAdditionalFiles, Messages.maxFiles),
});

export type UploadFormInput = z.input<typeof UploadFormSchema>;
export type UploadFormOutput = z.output<typeof UploadFormSchema>;

export const emptyUploadForm: UploadFormInput = {
  caseId: '',
  gender: '',
  symptoms: '',
  hpoTerms: [],
  excludedTerms: [],
  assembly: 'auto',
  imageDescription: '',
  genomeFile: null,
  genomeMateFile: null,
  additionalFiles: [],
};
