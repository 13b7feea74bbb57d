/** The cases feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { casesApi, productKeys, useProduct } from './cases.api.ts';
export { rankedResults } from './ranked-results.api.ts';
export { CaseSummary, GenotypeNotice, ResultsGate, TermsNotice } from './results-gate.tsx';
export { ResultsPage } from './results-page.tsx';
export { ProgressBar, StatusBadge } from './status-badge.tsx';
