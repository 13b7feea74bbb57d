export * from './ped.ts';
export * from './pedigree.ts';
export * from './genotypes.ts';
export * from './mendelian.ts';
export * from './segregation.ts';
export * from './acmg-family.ts';
export * from './family-analysis.ts';
export * from './merge.ts';
