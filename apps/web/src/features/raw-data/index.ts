/** The raw-data feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { DemoReferenceLabel } from './demo-reference-label.tsx';
export { rawDataApi, useRawData, useReadsReference } from './raw-data.api.ts';
export { UploadReferenceNotice } from './upload-reference-notice.tsx';
export { CaseRawData, RawDataPanel } from './raw-data-panel.tsx';
