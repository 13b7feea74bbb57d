import { isWebPagePath, webPagePatterns } from '@rarelens/contract';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

/** Every page path of a route table (layout routes add no segment; '*' is the not-found page). */
function pagePaths(table: RouteObject[], parent = ''): string[] {
  return table.flatMap((route) => {
    if (route.path === '*') return [];
    const here = route.path === undefined ? parent : `${parent}/${route.path}`;
    const own = route.index || (route.path !== undefined && (route.Component || route.element || route.lazy)) ? [here || '/'] : [];
    return [...own, ...pagePaths(route.children ?? [], here)];
  });
}

describe('the page list the server answers 200 for (§8: others are 404)', () => {
  it('is the client route table, page for page', () => {
    expect(new Set(pagePaths(routes))).toEqual(new Set(webPagePatterns));
  });

  it('matches parameters as one segment and ignores a trailing slash', () => {
    expect(isWebPagePath('/my-product/7abf/genes/FGFR2')).toBe(true);
    expect(isWebPagePath('/home/')).toBe(true);
    expect(isWebPagePath('/my-product/7abf/genes/FGFR2/more')).toBe(false);
    expect(isWebPagePath('/no/such/page')).toBe(false);
  });
});
