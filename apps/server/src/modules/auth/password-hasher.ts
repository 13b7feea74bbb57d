/**
 * Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes, 1 lane — the library's
 * defaults, written out so a library change cannot silently weaken them).
 */
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password into a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$...`). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when `password` matches the PHC `passwordHash`; false (never throws) for a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real check, for logins with an unknown e-mail, so the answer
 * time does not tell whether an account exists.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hash('rarelens-dummy-password-for-timing', OPTIONS);
  await verifyPassword(await dummyHash, password);
  return false;
}
