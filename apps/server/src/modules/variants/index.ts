/**
 * The variants module's public surface for other modules: how a variant's allele is keyed, the
 * ClinVar assertion and reviewer classifications as every screen and the report present them.
 * Other modules import variants only from here (or its service).
 */
export { alleleKey, presentClinvarAssertion, type ReviewerClassifications } from './variants.presenter.ts';
