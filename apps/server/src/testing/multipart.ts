/** Test helpers for the cases API: multipart bodies and waiting for a case status. */
import { randomBytes } from 'node:crypto';
import type { ProductSummary } from '@rarelens/contract';
import type { FastifyInstance } from 'fastify';

export interface FilePart {
  field: string;
  name: string;
  content: Buffer | string;
}

/** A multipart/form-data body; array field values are repeated fields. */
export function multipartBody(fields: Record<string, string | string[]>, files: FilePart[]): { body: Buffer; contentType: string } {
  const boundary = `----rarelens${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
    }
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Polls GET /api/products/:id until its status is one of `statuses`. With `whileUnavailable`, a
 * 503 `database_unavailable` answer (the database restarting) is counted there and polled again;
 * any other non-200 answer fails at once.
 */
export async function waitForStatus(
  app: FastifyInstance,
  headers: Record<string, string>,
  id: string,
  statuses: string[],
  timeoutMs: number,
  options: { whileUnavailable?: { count: number } } = {},
): Promise<ProductSummary> {
  const deadline = Date.now() + timeoutMs;
  let last: ProductSummary | null = null;
  while (Date.now() < deadline) {
    const res = await app.inject({ method: 'GET', url: `/api/products/${id}`, headers });
    if (res.statusCode === 503 && options.whileUnavailable && res.json<{ code: string }>().code === 'database_unavailable') {
      options.whileUnavailable.count += 1;
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    if (res.statusCode !== 200) throw new Error(`GET /api/products/${id}: ${res.statusCode} ${res.body}`);
    last = res.json<ProductSummary>();
    if (statuses.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`case ${id} did not reach ${statuses.join('/')} in ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}
