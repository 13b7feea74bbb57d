/**
 * docs/openapi.json is the document the app generates from its zod contracts: an API change
 * without the regenerated document fails here (regenerate with `npm run openapi` and commit).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { openApiDocument } from './openapi.ts';

const committed = path.resolve(import.meta.dirname, '../../../../docs/openapi.json');
let test: TestApp;
let generated: string;

beforeAll(async () => {
  test = await createTestApp({ name: 'openapi', pglite: true, kb: 'none' });
  generated = await openApiDocument(test.app);
  if (process.env.UPDATE_OPENAPI === '1') writeFileSync(committed, generated);
}, 120_000);

afterAll(async () => {
  await test?.close();
});

describe('the OpenAPI document', () => {
  it('describes the /api routes with the schemas of the contracts', () => {
    const doc = JSON.parse(generated) as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string }[]; responses?: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/'))).toBe(true);
    const variants = doc.paths['/api/products/{id}/variants']?.get;
    expect(variants?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['id', 'mode', 'page', 'pageSize']));
    expect(variants?.responses?.['200']).toBeDefined();
  });

  it('is committed as docs/openapi.json, as generated (run `npm run openapi` after an API change)', () => {
    expect(readFileSync(committed, 'utf8')).toBe(generated);
  });
});
