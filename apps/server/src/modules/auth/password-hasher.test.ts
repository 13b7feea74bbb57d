import { describe, expect, it } from 'vitest';
import { hashPassword, verifyDummyPassword, verifyPassword } from './password-hasher.ts';

describe('password hashing', () => {
  it('hashes with argon2id and OWASP parameters, salted', async () => {
    const a = await hashPassword('Corr3ctHorse');
    const b = await hashPassword('Corr3ctHorse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only', async () => {
    const hash = await hashPassword('Corr3ctHorse');
    expect(await verifyPassword(hash, 'Corr3ctHorse')).toBe(true);
    expect(await verifyPassword(hash, 'corr3ctHorse')).toBe(false);
  });

  it('treats a malformed stored hash as a mismatch instead of throwing', async () => {
    expect(await verifyPassword('not-a-phc-string', 'anything')).toBe(false);
  });

  it('spends a real argon2 verification for unknown accounts', async () => {
    await verifyDummyPassword('warm-up');
    const started = performance.now();
    expect(await verifyDummyPassword('Whatever1')).toBe(false);
    // One argon2id verification with 19 MiB takes milliseconds, not microseconds.
    expect(performance.now() - started).toBeGreaterThan(2);
  });
});
