import { vi } from 'vitest';

/** A JSON answer of the fake server. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status });
}

/** The API's answer to an unknown path. */
export function notFoundResponse(): Response {
  return jsonResponse({ code: 'not_found', message: 'Not found' }, 404);
}

/** Stubs fetch with fixed JSON answers by URL; any other URL gets the API's 404. */
export function stubFetchByUrl(answers: Record<string, unknown>): void {
  vi.stubGlobal('fetch', (url: string) => Promise.resolve(url in answers ? jsonResponse(answers[url]) : notFoundResponse()));
}
