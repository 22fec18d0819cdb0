import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('Secret-Pass1!');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'Secret-Pass1!')).toBe(true);
    expect(await verifyPassword(hash, 'Secret-Pass2!')).toBe(false);
  });

  it('treats a malformed stored hash as a failed check', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
});
