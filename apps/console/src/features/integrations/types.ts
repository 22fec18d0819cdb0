import type { IntegrationToken as IntegrationTokenResponse } from '@iot/contracts';

/** Shapes of /core/integrations (apps/api README). */
export const TOKEN_KINDS = ['chirpstack', 'tts', 'http'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export type { NetworkServer } from '@iot/contracts';

/** A webhook token; the API documents `kind` as one of TOKEN_KINDS. */
export type IntegrationToken = Omit<IntegrationTokenResponse, 'kind'> & { kind: TokenKind };

export interface NetworkServerInput {
  kind: 'chirpstack';
  api_url: string;
  /** Left out: the stored token stays. */
  api_token?: string;
}
