/**
 * Tokens of the session:
 * - access token: JWT HS256 signed with jose, claims `sub` (user id) and `sid` (session = refresh
 *   token family), lifetime ACCESS_TOKEN_TTL_SECONDS (30 min);
 * - opaque tokens (refresh, password reset): 32 random bytes base64url, stored as sha256 hex;
 * - verification codes: 6 digits, stored as HMAC-SHA256 keyed with TOKEN_HASH_SECRET (a plain
 *   hash of a 6-digit code would be reversed by trying the million candidates).
 */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { Constants } from '@rarelens/contract';
import { Errors } from '../../errors.ts';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export interface TokenService {
  /** Signs an access token; `now` (ms) only for tests. */
  signAccessToken(claims: AccessClaims, now?: number): Promise<string>;
  /**
   * Verifies an access token; throws 401 `token_expired` ("jwt expired") or `unauthorized`.
   * `allowExpired` still checks the signature but accepts a past expiry (logout only).
   */
  verifyAccessToken(token: string, options?: { allowExpired?: boolean }): Promise<AccessClaims>;
  /** A new opaque token and the hash to store. */
  createOpaqueToken(): { token: string; hash: string };
  hashOpaqueToken(token: string): string;
  /** A new 6-digit code (leading zeros kept). */
  createVerificationCode(): string;
  hashVerificationCode(userId: string, code: string): string;
  /** Constant-time comparison of two hex hashes. */
  hashesEqual(a: string, b: string): boolean;
  readonly accessTokenTtlSeconds: number;
}

const ISSUER = 'rarelens';
const AUDIENCE = 'rarelens-api';

/**
 * Access tokens verified so far (per token service), so the HMAC of a token already seen is not
 * computed again on each request (WebCrypto's verify was ~10 % of an API process's CPU under the
 * variant-list load of bench:cases). A token is an immutable string: what jose checked once
 * (signature, algorithm, issuer, audience, claims) holds for it; its expiry is checked on
 * every use, as jose checks it, and the session's liveness is the caller's check per request.
 * Bounded: the oldest entry leaves first.
 */
const VERIFIED_MAX = 10_000;

export function createTokenService(options: {
  jwtSecret: string;
  tokenHashSecret: string;
  accessTokenTtlSeconds: number;
}): TokenService {
  const key = new TextEncoder().encode(options.jwtSecret);
  const verified = new Map<string, AccessClaims & { exp: number }>();
  return {
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    async signAccessToken({ userId, sessionId }, now = Date.now()) {
      const iat = Math.floor(now / 1000);
      return new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + options.accessTokenTtlSeconds)
        .sign(key);
    },
    async verifyAccessToken(token, verifyOptions) {
      const known = verified.get(token);
      if (known !== undefined) {
        // jose's rule: expired when exp <= now (whole seconds), no tolerance.
        if (verifyOptions?.allowExpired !== true && known.exp <= Math.floor(Date.now() / 1000)) throw Errors.tokenExpired();
        return { userId: known.userId, sessionId: known.sessionId };
      }
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          // Checking "now" as the epoch makes any expiry lie in the future.
          ...(verifyOptions?.allowExpired === true ? { currentDate: new Date(0) } : {}),
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
          throw Errors.unauthorized();
        }
        // Only tokens whose validity is their expiry alone (every token this service signs).
        if (typeof payload.exp === 'number' && payload.nbf === undefined) {
          if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
          verified.set(token, { userId: payload.sub, sessionId: payload.sid, exp: payload.exp });
        }
        return { userId: payload.sub, sessionId: payload.sid };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw Errors.tokenExpired();
        throw Errors.unauthorized();
      }
    },
    createOpaqueToken() {
      const token = randomBytes(32).toString('base64url');
      return { token, hash: sha256(token) };
    },
    hashOpaqueToken: sha256,
    createVerificationCode() {
      return randomInt(0, 10 ** Constants.verificationCodeLength)
        .toString()
        .padStart(Constants.verificationCodeLength, '0');
    },
    hashVerificationCode(userId, code) {
      return createHmac('sha256', options.tokenHashSecret)
        .update(`${userId}:${code}`)
        .digest('hex');
    },
    hashesEqual(a, b) {
      const left = Buffer.from(a, 'hex');
      const right = Buffer.from(b, 'hex');
      return left.length === right.length && timingSafeEqual(left, right);
    },
  };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
