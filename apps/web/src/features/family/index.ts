/** The family feature's public surface: other features import only from here (eslint: no-restricted-imports). */
export { compoundHetGroups } from './compound-het.ts';
export { FamilyGenotypes, InheritanceBadges } from './family-genotypes.tsx';
export { CaseFamily } from './family-panel.tsx';
export { useFamily } from './family.api.ts';
export { addSampleRows, emptyPedigree, PedigreeField, type PedigreeValue } from './pedigree-editor.tsx';
export { checkEditorMembers, editorToPed, readVcfSampleNames } from './pedigree.ts';
