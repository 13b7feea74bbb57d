export * from './chain.ts';
