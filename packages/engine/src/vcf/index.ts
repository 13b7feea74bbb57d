export * from './errors.ts';
export * from './header.ts';
export * from './genotype.ts';
export * from './annotations.ts';
export * from './variant.ts';
export * from './source.ts';
export * from './reader.ts';
export * from './writer.ts';
