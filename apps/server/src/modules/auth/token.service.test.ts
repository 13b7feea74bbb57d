import { afterEach, describe, expect, it, vi } from 'vitest';
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
  describe('a token verified before (not verified again)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('still expires: token_expired once its exp has passed, claims with allowExpired', async () => {
      const t0 = Date.UTC(2030, 0, 1, 12, 0, 0);
      vi.useFakeTimers({ now: t0, toFake: ['Date'] });
      const service = createTokenService({ jwtSecret: 'k'.repeat(40), tokenHashSecret: 'h'.repeat(40), accessTokenTtlSeconds: 60 });
      const token = await service.signAccessToken({ userId: 'u2', sessionId: 's2' });
      expect(await service.verifyAccessToken(token)).toEqual({ userId: 'u2', sessionId: 's2' });
      vi.setSystemTime(t0 + 59_999);
      expect(await service.verifyAccessToken(token)).toEqual({ userId: 'u2', sessionId: 's2' });
      vi.setSystemTime(t0 + 60_000);
      const err = await errorOf(service.verifyAccessToken(token));
      expect([err.statusCode, err.code]).toEqual([401, 'token_expired']);
      expect(await service.verifyAccessToken(token, { allowExpired: true })).toEqual({ userId: 'u2', sessionId: 's2' });
    });

    it('is no help to a token that differs in any character, or to one of another secret', async () => {
      const token = await tokens.signAccessToken({ userId: 'u3', sessionId: 's3' });
      expect(await tokens.verifyAccessToken(token)).toEqual({ userId: 'u3', sessionId: 's3' });
      // The signature's first character (all six of its bits count).
      const at = token.lastIndexOf('.') + 1;
      const altered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect((await errorOf(tokens.verifyAccessToken(altered))).code).toBe('unauthorized');
      const other = createTokenService({ jwtSecret: 'o'.repeat(40), tokenHashSecret: 'h'.repeat(40), accessTokenTtlSeconds: 1800 });
      expect((await errorOf(other.verifyAccessToken(token))).code).toBe('unauthorized');
    });
  });

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
