/** Shapes of /core/integrations (apps/api README). */
export const TOKEN_KINDS = ['chirpstack', 'tts', 'http'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export interface IntegrationToken {
  id: number;
  kind: TokenKind;
  name: string;
  created_by: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NetworkServer {
  kind: 'chirpstack';
  api_url: string;
  api_token_set: true;
  updated_by: number | null;
  updated_at: string;
}

export interface NetworkServerInput {
  kind: 'chirpstack';
  api_url: string;
  /** Left out: the stored token stays. */
  api_token?: string;
}
