import type { FastifyRequest } from 'fastify';

/** The token of `Authorization: Bearer <token>`, or of `X-Integration-Token` when `allowHeader`. */
export function readToken(request: FastifyRequest, allowIntegrationHeader: boolean): string | null {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match?.[1]) return match[1];
  }
  const header = request.headers['x-integration-token'];
  if (allowIntegrationHeader && typeof header === 'string' && header.trim() !== '') return header.trim();
  return null;
}
