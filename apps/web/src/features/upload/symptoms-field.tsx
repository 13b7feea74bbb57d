import type { TermRef } from '@rarelens/contract';
import { useId, type ReactNode } from 'react';
import { FieldError, Label, Textarea } from '../../components/form.tsx';
import type { PhenomeSuggestionsProps } from '../phenome/index.ts';
import { HpoTermPicker, TermChips } from './hpo-term-picker.tsx';

/**
 * What a term-suggestion component (PhenomeAI) receives: the free text typed so far, the
 * terms already chosen, and the way to add one. It renders its proposals inside the
 * symptoms box.
 */
export type SymptomSuggestionsProps = PhenomeSuggestionsProps;

type SymptomsFieldProps = {
  text: string;
  onTextChange: (text: string) => void;
  terms: TermRef[];
  onAddTerm: (term: TermRef) => void;
  onRemoveTerm: (id: string) => void;
  /** Excluded terms and how to add one, handed to the suggestions slot. */
  excludedTerms?: TermRef[] | undefined;
  onAddExcludedTerm?: ((term: TermRef) => void) | undefined;
  /** Validation message of the free text. */
  error?: string | undefined;
  /** Validation message of the term list. */
  termsError?: string | undefined;
  /**
   * SLOT — PhenomeAI term suggestions plug in here: a component that reads the symptoms
   * text and proposes HPO terms, each added through `onAddTerm`.
   */
  renderSuggestions?: (props: SymptomSuggestionsProps) => ReactNode;
};

/** Clinical symptoms: free text, plus HPO terms chosen with ontology autocomplete (chips). */
export function SymptomsField({
  text,
  onTextChange,
  terms,
  onAddTerm,
  onRemoveTerm,
  excludedTerms,
  onAddExcludedTerm,
  error,
  termsError,
  renderSuggestions,
}: SymptomsFieldProps) {
  const textId = useId();
  const pickerId = useId();
  const errorId = `${textId}-error`;
  return (
    <div className="flex flex-col gap-3" data-testid="symptoms-field">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={textId}>Clinical symptoms</Label>
        <Textarea
          id={textId}
          name="symptoms"
          value={text}
          onChange={(e) => onTextChange(e.target.value)}
          invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          placeholder="Describe the patient’s history and findings, e.g. “Broad thumbs and halluces, craniosynostosis with midface hypoplasia, proptosis.”"
          rows={5}
        />
        <FieldError id={errorId}>{error}</FieldError>
      </div>
      {renderSuggestions ? (
        <div data-slot="symptom-suggestions" className="empty:hidden">
          {renderSuggestions({
            text,
            selected: terms,
            onAddTerm,
            excluded: excludedTerms,
            onAddExcludedTerm,
          })}
        </div>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={pickerId}>
          HPO terms <span className="font-normal text-ink-400">({terms.length} selected)</span>
        </Label>
        <HpoTermPicker
          id={pickerId}
          label="HPO terms"
          selected={terms}
          onSelect={onAddTerm}
          invalid={Boolean(termsError)}
        />
        <p className="text-xs text-ink-500">
          Terms drive the phenotype ranking: choose the most specific term that fits each finding.
        </p>
        <TermChips terms={terms} onRemove={onRemoveTerm} />
        <FieldError>{termsError}</FieldError>
      </div>
    </div>
  );
}
