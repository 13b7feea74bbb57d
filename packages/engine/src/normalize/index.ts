export * from './normalize.ts';
