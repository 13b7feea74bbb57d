export * from './messages.ts';
export * from './errors.ts';
export * from './auth.ts';
export * from './account.ts';
export * from './platform.ts';
export * from './products.ts';
export * from './reports.ts';
export * from './phenome.ts';
