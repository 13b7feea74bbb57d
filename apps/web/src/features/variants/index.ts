/** The variants feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { AcmgBadge, ClinvarAssertionBadge, ClinvarBadge, ReviewerBadge, SignificanceBadge, ZygosityLabel } from './badges.tsx';
export { VariantEvidenceDrawer } from './variant-evidence.tsx';
export { VariantTable } from './variant-table.tsx';
export { VariantsPanel } from './variants-panel.tsx';
