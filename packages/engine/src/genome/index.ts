export * from './contigs.ts';
export * from './assembly.ts';
export * from './fasta.ts';
export * from './infer-assembly.ts';
