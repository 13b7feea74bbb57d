// Public entry of @rarelens/engine. Each area adds its exports here (append; keep grouped).
export * from './hpo/ontology.ts';
export * from './kb/types.ts';
export * from './types.ts';
export * from './liftover/index.ts';
export * from './genome/index.ts';
export * from './kb/hpo-kb.ts';
export * from './phenotype/model.ts';
export * from './phenotype/score.ts';
export * from './phenotype/rank-phenotype.ts';
export * from './phenotype/similarity.ts';
export * from './vcf/index.ts';
export * from './normalize/index.ts';
export * from './annotate/index.ts';
export * from './rank/candidate-filter.ts';
export * from './rank/inheritance.ts';
export * from './rank/rank-case.ts';
export * from './rank/read-annotate.ts';
