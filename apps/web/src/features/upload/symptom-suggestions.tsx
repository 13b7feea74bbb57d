import { PhenomeSuggestions } from '../phenome/index.ts';
import type { SymptomSuggestionsProps } from './symptoms-field.tsx';

/**
 * PhenomeAI term suggestions inside the symptoms box of the Genome Upload form: proposes HPO
 * terms from the symptoms text as the user types (features/phenome).
 */
export function SymptomSuggestions(props: SymptomSuggestionsProps) {
  return <PhenomeSuggestions {...props} />;
}
