import { hash, verify } from '@node-rs/argon2';

// The library's defaults: argon2id, 19 MiB, 2 passes (OWASP's minimum recommendation for argon2id).
// (Its `Algorithm` is a const enum, which isolated modules cannot read; passwords.test.ts checks the id.)
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a failed login, not a server error.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throw-away hash so a login for an unknown address costs as much time as one for a
 * known address, and timing does not reveal which addresses exist.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-0A!');
  await verifyPassword(await dummyHash, password);
}
