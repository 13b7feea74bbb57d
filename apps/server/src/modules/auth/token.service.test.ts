import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createTokenService } from './token.service.ts';

const tokens = createTokenService({
  jwtSecret: 'j'.repeat(40),
  tokenHashSecret: 'h'.repeat(40),
  accessTokenTtlSeconds: 1800,
});

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('access tokens', () => {
  it('round-trips sub and sid and expires after 30 minutes', async () => {
    const token = await tokens.signAccessToken({ userId: 'u1', sessionId: 's1' });
    expect(await tokens.verifyAccessToken(token)).toEqual({ userId: 'u1', sessionId: 's1' });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      exp: number;
      iat: number;
    };
    expect(payload.exp - payload.iat).toBe(1800);
    const header = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as {
      alg: string;
    };
    expect(header.alg).toBe('HS256');
  });

  it('reports an expired token as 401 token_expired "jwt expired"', async () => {
    const old = await tokens.signAccessToken(
      { userId: 'u1', sessionId: 's1' },
      Date.now() - 31 * 60_000,
    );
    const error = await errorOf(tokens.verifyAccessToken(old));
    expect([error.statusCode, error.code, error.message]).toEqual([
      401,
      'token_expired',
      'jwt expired',
    ]);
  });

  it('rejects a token signed with another secret or tampered with as unauthorized', async () => {
    const other = createTokenService({
      jwtSecret: 'x'.repeat(40),
      tokenHashSecret: 'h'.repeat(40),
      accessTokenTtlSeconds: 60,
    });
    const foreign = await other.signAccessToken({ userId: 'u1', sessionId: 's1' });
    expect((await errorOf(tokens.verifyAccessToken(foreign))).code).toBe('unauthorized');
    const token = await tokens.signAccessToken({ userId: 'u1', sessionId: 's1' });
    const [h, , s] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ sub: 'admin', sid: 's1', exp: 9e9 }),
    ).toString('base64url');
    expect((await errorOf(tokens.verifyAccessToken(`${h}.${forgedPayload}.${s}`))).code).toBe(
      'unauthorized',
    );
    expect((await errorOf(tokens.verifyAccessToken('garbage'))).code).toBe('unauthorized');
  });
});

describe('opaque tokens and codes', () => {
  it('creates 32-byte base64url tokens stored as their sha256', () => {
    const a = tokens.createOpaqueToken();
    const b = tokens.createOpaqueToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.hashOpaqueToken(a.token)).toBe(a.hash);
    expect(a.token).not.toBe(b.token);
  });

  it('creates 6-digit codes, leading zeros included, hashed per user', () => {
    const codes = Array.from({ length: 500 }, () => tokens.createVerificationCode());
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(490);
    expect(tokens.hashVerificationCode('u1', '012345')).not.toBe(
      tokens.hashVerificationCode('u2', '012345'),
    );
    expect(
      tokens.hashesEqual(
        tokens.hashVerificationCode('u1', '012345'),
        tokens.hashVerificationCode('u1', '012345'),
      ),
    ).toBe(true);
    expect(
      tokens.hashesEqual(
        tokens.hashVerificationCode('u1', '012345'),
        tokens.hashVerificationCode('u1', '012346'),
      ),
    ).toBe(false);
  });
});
