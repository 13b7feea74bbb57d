// Public surface of KB loading/building, annotation, ACMG and scoring (re-exported by the engine entry).
export { buildKb, loadKb, readKbManifest, genomicStep, hpoStep, KB_FORMAT, MANIFEST_FILE, type Kb, type BuildKbOptions, type KbProgressEvent, type KbStep } from '../kb/build.ts';
export { loadGenomeKb, readGenomeKbFile, genomeKbFilePath, FrequencyIndex, RefBaseIndex, type GenomeKb } from '../kb/genome-kb.ts';
export { GENOMIC_SOURCES, type SourceSpec } from '../kb/sources.ts';
export { GeneIndex, type GeneRecord, type GeneConstraint, type GeneClinvarStats } from '../genes/gene.ts';
export { TranscriptIndex, TranscriptModel, type Transcript, type ManeStatus } from '../transcripts/model.ts';
export { ClinvarIndex, PathogenicMissenseIndex, classifySignificance, starsFromReviewStatus, formatReviewStatus, reviewStatusOfStars, type ClinvarAllele, type ClinvarReleases, type ClinvarClass, type PathogenicMissense } from '../clinvar/clinvar.ts';
export { createAnnotator, annotateVariants, readsPredictorInfo, pickEffect, perGeneEffects, type Annotator, type AnnotatorOptions, type VcfVariantLike } from './annotator.ts';
export { transcriptEffect, trimAllele, translateCodon, describeCodingOutcome, UPSTREAM_DISTANCE, type AlleleSpan, type BaseLookup, type TranscriptEffect } from './consequence.ts';
export { SO_TERMS, impactOf, soRank, sortTerms, LOF_TERMS, type SoTerm } from './so.ts';
export { toAnnotationJson, toAnnotationInfo, ANNOTATION_INFO_FIELDS, type AnnotationJson } from './output.ts';
export { AnnotationJsonlWriter } from './jsonl.ts';
export { classifyAcmg, classFromPoints, clinvarCriterion, lofMechanism, STRENGTH_POINTS, CLINVAR_CRITERIA_MIN_STARS, BA1_AF, BS1_AF, PM2_AF, PP2_MIS_Z, type AcmgEvidence, type AcmgOptions, type AcmgResult, type ClinvarAssertionEvidence, type PredictorScores, type SameCodonPathogenic } from '../acmg/classify.ts';
export { pathogenicityScore, consequenceSeverity, rarity, acmgPosterior, CONSEQUENCE_SEVERITY, type ScoreInput } from '../score/pathogenicity.ts';
