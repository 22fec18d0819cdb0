/** Test data for the ingest suites: companies, devices with tokens, integration tokens. Tests only. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '@iot/db';
import { sha256Hex } from '../devices/device-directory.js';

export async function createCompany(db: Queryable, name = `Company ${randomBytes(3).toString('hex')}`) {
  const { rows } = await db.query<{ id: number }>('INSERT INTO companies (name) VALUES ($1) RETURNING id', [
    name,
  ]);
  return rows[0]!.id;
}

export interface SeededDevice {
  id: number;
  companyId: number;
  uuid: string;
  token: string;
  devEui: string | null;
}

export async function createDevice(
  db: Queryable,
  companyId: number,
  options: {
    driverId?: string | null;
    codecId?: number | null;
    devEui?: string | null;
    state?: string;
    name?: string;
  } = {},
): Promise<SeededDevice> {
  const uuid = randomUUID();
  const token = randomBytes(16).toString('hex');
  const devEui = options.devEui ?? null;
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, name, uuid, credentials_hash, driver_id, codec_id, dev_eui, state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      companyId,
      options.name ?? `device ${uuid.slice(0, 8)}`,
      uuid,
      sha256Hex(token),
      options.driverId ?? null,
      options.codecId ?? null,
      devEui,
      options.state ?? 'ok',
    ],
  );
  return { id: rows[0]!.id, companyId, uuid, token, devEui };
}

export async function createIntegrationToken(
  db: Queryable,
  companyId: number,
  kind: 'chirpstack' | 'tts' | 'http' = 'chirpstack',
): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db.query(
    'INSERT INTO integration_tokens (company_id, kind, name, token_hash) VALUES ($1, $2, $3, $4)',
    [companyId, kind, `${kind} token`, sha256Hex(token)],
  );
  return token;
}

export async function createCodec(db: Queryable, companyId: number, script: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO codecs (company_id, name, script) VALUES ($1, $2, $3) RETURNING id',
    [companyId, 'codec', script],
  );
  return rows[0]!.id;
}

/** Random 16-hex-digit DevEUI, so suites sharing a database never collide on the unique index. */
export const randomDevEui = () => randomBytes(8).toString('hex');
