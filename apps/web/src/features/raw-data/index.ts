/** The raw-data feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { DemoReferenceLabel } from './demo-reference-label.tsx';
export { rawDataApi, useRawData } from './raw-data.api.ts';
export { CaseRawData, RawDataPanel } from './raw-data-panel.tsx';
