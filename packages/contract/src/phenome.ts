/**
 * PhenomeAI API: clinical free text -> HPO terms with spans and context
 * (POST /api/phenome/extract). Offsets are 0-based, end-exclusive UTF-16 offsets into `text`.
 */
import { z } from 'zod';
import { Messages } from './messages.ts';

/** Longest text accepted by the extraction route (characters). */
export const PHENOME_MAX_TEXT = 200_000;

export const PhenomeExtractBody = z.object({
  text: z
    .string({ error: Messages.mandatory })
    .max(PHENOME_MAX_TEXT, `At most ${PHENOME_MAX_TEXT} characters`),
});
export type PhenomeExtractBody = z.infer<typeof PhenomeExtractBody>;

export const PhenomeTermSchema = z.object({
  id: z.string(),
  label: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  text: z.string(),
  negated: z.boolean(),
  subject: z.enum(['patient', 'family']),
  confidence: z.number().min(0).max(1),
  uncertain: z.boolean().optional(),
  /**
   * HPO branch: 'phenotype' = a finding (Phenotypic abnormality); 'onset' = an age-of-onset term
   * (under Onset, HP:0003674), the patient's onset, which the ranking scores against each
   * disease's onset: the two kinds a case's terms take. 'inheritance' (Mode of inheritance),
   * 'course' (progression, mortality) and 'modifier' (phenotypic variability) describe the disease.
   */
  category: z.enum(['phenotype', 'onset', 'inheritance', 'course', 'modifier']).optional(),
});
export type PhenomeTermDto = z.infer<typeof PhenomeTermSchema>;

export const PhenomeExtractResponse = z.object({
  /** HPO release the terms come from. */
  hpoVersion: z.string(),
  /** The phenotypic abnormalities (HP:0000118): the symptoms and signs a case profile takes. */
  terms: z.array(PhenomeTermSchema),
  /**
   * The clinical modifiers named in the text: mentions of every other HPO branch (mode of
   * inheritance, onset, clinical course, variability, frequency); same evidence as terms. An
   * age-of-onset mention has category 'onset': the patient's onset, which a case may take among
   * its terms; the others describe the disease and are not suggested as patient terms.
   */
  modifiers: z.array(PhenomeTermSchema),
  /** Whether the optional LLM assist contributed (false when not configured or it failed). */
  llmUsed: z.boolean(),
});
export type PhenomeExtractResponse = z.infer<typeof PhenomeExtractResponse>;
