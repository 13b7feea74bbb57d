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
   * HPO branch: 'phenotype' = a finding (Phenotypic abnormality), the only kind a case's
   * phenotype profile takes; 'inheritance' (Mode of inheritance), 'course' (onset,
   * progression, mortality) and 'modifier' (phenotypic variability) describe the disease.
   */
  category: z.enum(['phenotype', 'inheritance', 'course', 'modifier']).optional(),
});
export type PhenomeTermDto = z.infer<typeof PhenomeTermSchema>;

export const PhenomeExtractResponse = z.object({
  /** HPO release the terms come from. */
  hpoVersion: z.string(),
  /** The phenotypic abnormalities (HP:0000118): the symptoms and signs a case profile takes. */
  terms: z.array(PhenomeTermSchema),
  /**
   * The clinical modifiers named in the text: mentions of every other HPO branch (mode of
   * inheritance, onset, clinical course, variability, frequency). They describe the disease,
   * not the patient's findings, and are not suggested as patient terms; same evidence as terms.
   */
  modifiers: z.array(PhenomeTermSchema),
  /** Whether the optional LLM assist contributed (false when not configured or it failed). */
  llmUsed: z.boolean(),
});
export type PhenomeExtractResponse = z.infer<typeof PhenomeExtractResponse>;
