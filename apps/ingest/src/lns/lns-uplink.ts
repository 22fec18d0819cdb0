/** What a network server's uplink event says, in one shape for ChirpStack and The Things Stack. */
export interface LnsUplink {
  devEui: string | null;
  /** The network server's decoded object, when it decoded the payload itself. */
  decoded?: Record<string, unknown> | undefined;
  bytes?: Uint8Array | undefined;
  fPort?: number | undefined;
  fcnt?: number | undefined;
  measuredAt?: Date | undefined;
  messageId?: string | undefined;
  rssi?: number | undefined;
  snr?: number | undefined;
  metadata: Record<string, unknown>;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const numberOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export function dateOrUndefined(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Base64 as the LNS sends it; undefined when absent or not base64. */
export function base64OrUndefined(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string') return undefined;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return undefined;
  return new Uint8Array(Buffer.from(value, 'base64'));
}

/** The strongest gateway's RSSI and SNR from a list of receptions. */
export function bestReception(receptions: unknown): { rssi?: number; snr?: number } {
  if (!Array.isArray(receptions)) return {};
  let best: { rssi?: number; snr?: number } = {};
  for (const rx of receptions) {
    if (!isRecord(rx)) continue;
    const rssi = numberOrUndefined(rx.rssi) ?? numberOrUndefined(rx.channel_rssi);
    if (rssi === undefined) continue;
    if (best.rssi === undefined || rssi > best.rssi) {
      best = { rssi };
      const snr = numberOrUndefined(rx.snr) ?? numberOrUndefined(rx.loraSnr);
      if (snr !== undefined) best.snr = snr;
    }
  }
  return best;
}
