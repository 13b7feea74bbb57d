import { describe, expect, it } from 'vitest';
import { isNewBuildDeployed } from './stale-build.ts';

const serve = (status: number, body: string): typeof fetch => () => Promise.resolve(new Response(body, { status }));

describe('isNewBuildDeployed', () => {
  it('reports a different build id as a new build', async () => {
    await expect(isNewBuildDeployed('abc', serve(200, '{"buildId":"def"}'))).resolves.toBe(true);
  });
  it('is false for the same build id', async () => {
    await expect(isNewBuildDeployed('abc', serve(200, '{"buildId":"abc"}'))).resolves.toBe(false);
  });
  it('never reloads the development server', async () => {
    await expect(isNewBuildDeployed('dev', serve(200, '{"buildId":"def"}'))).resolves.toBe(false);
  });
  it('ignores failures and malformed answers', async () => {
    await expect(isNewBuildDeployed('abc', serve(404, 'not found'))).resolves.toBe(false);
    await expect(isNewBuildDeployed('abc', serve(200, '<html>'))).resolves.toBe(false);
    await expect(isNewBuildDeployed('abc', serve(200, '{"buildId":42}'))).resolves.toBe(false);
    await expect(isNewBuildDeployed('abc', () => Promise.reject(new TypeError('offline')))).resolves.toBe(false);
  });
});
