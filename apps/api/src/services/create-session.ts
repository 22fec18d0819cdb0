import type { Queryable } from '@iot/db';
import { insertSession } from '@iot/db';
import { randomToken, sha256 } from '../lib/tokens';

export interface CreatedSession {
  /** Goes to the browser only; the database keeps its hash as the session id. */
  token: string;
  id: string;
  csrfToken: string;
}

export async function createSession(
  q: Queryable,
  options: { userId: number; ip?: string | null; userAgent?: string | null; lifetimeSeconds: number },
): Promise<CreatedSession> {
  const token = randomToken();
  const id = sha256(token);
  const csrfToken = randomToken();
  await insertSession(q, {
    id,
    userId: options.userId,
    csrfToken,
    ip: options.ip ?? null,
    userAgent: options.userAgent ?? null,
    lifetimeSeconds: options.lifetimeSeconds,
  });
  return { token, id, csrfToken };
}
