/** The family module's public surface for other modules: the pedigree upload check and a member's genotype shape. */
export { checkPedigreeUpload, checkSeparateVcfs, MAX_PED_BYTES, PEDIGREE_FIELD, PROBAND_FIELD, RELATIVES_FIELD } from './family.upload.ts';
export { presentGenotype } from './family.presenter.ts';
