/** The reporting feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { AddToReportButton } from './add-to-report-button.tsx';
