#!/usr/bin/env node
// Entry shim: run the TypeScript CLI through tsx's loader (no build step needed).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
