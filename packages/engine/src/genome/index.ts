export * from './contigs.ts';
export * from './assembly.ts';
export * from './fasta.ts';
