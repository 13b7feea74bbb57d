/** The phenome feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { AlsoNoted } from './also-noted.tsx';
export { HighlightedText } from './highlighted-text.tsx';
export { PhenomeSuggestions, useSuggestionState, type PhenomeSuggestionsProps } from './phenome-suggestions.tsx';
export { usePhenomeExtraction } from './phenome.api.ts';
export { SuggestionPanel } from './suggestion-panel.tsx';
export { groupSuggestions, type Suggestion } from './suggestions.ts';
