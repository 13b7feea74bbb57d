import type { ActivityEvent, ActivityKind } from '@rarelens/contract';
import type { FastifyRequest } from 'fastify';
import type { ActivityEventRow } from '../../db/schema/index.ts';

export function presentActivityEvent(row: ActivityEventRow): ActivityEvent {
  return {
    id: row.id,
    kind: row.kind as ActivityKind,
    detail: row.detail,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Opaque keyset cursor: base64url of "createdAt|id". */
export function encodeActivityCursor(row: ActivityEventRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeActivityCursor(cursor: string): { createdAt: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || id === undefined || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  return { createdAt, id };
}

/** The request's origin as recorded with an event (Fastify's ip honours TRUST_PROXY). */
export function originOf(request: FastifyRequest): { ip: string; userAgent: string | null } {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}
