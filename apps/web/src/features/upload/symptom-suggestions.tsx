import type { SymptomSuggestionsProps } from './symptoms-field.tsx';

/**
 * SLOT — PhenomeAI term suggestions inside the symptoms box of the Genome Upload form. It
 * receives the symptoms text, the terms already chosen and `onAddTerm`; it renders proposed
 * HPO terms the user can add. Until PhenomeAI's web component exists this renders nothing:
 * replace this body (or pass `renderSuggestions` to UploadPage).
 */
export function SymptomSuggestions(_props: SymptomSuggestionsProps) {
  return null;
}
