// Public entry of @rarelens/engine. Each area adds its exports here (append; keep grouped).
export * from './hpo/ontology.ts';
export * from './kb/types.ts';
export * from './types.ts';
export * from './liftover/index.ts';
export * from './genome/index.ts';
export * from './kb/hpo-kb.ts';
export * from './vcf/index.ts';
export * from './normalize/index.ts';
