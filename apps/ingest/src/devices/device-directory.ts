/**
 * Device, integration token and codec lookups for the accept path, cached in memory: every uplink
 * needs one, and the database must not see a query per uplink. Entries live `ttlMs` (default 30 s,
 * so an edit that nobody announces reaches ingestion within that time at the latest); misses are cached
 * for `missTtlMs` (default 5 s) so a flood of uplinks for an unknown device costs one query per interval.
 * Once the database announces every change of what is cached (`changesAnnounced`, called by
 * follow-changes.ts), devices and tokens live `announcedTtlMs` (default 1 h): the TTL is then only a
 * safety net, and a device that reports less often than the TTL, as most do (every 5 to 60 min), costs
 * a query per uplink: with every uplink a miss, the distributed bench stored 4.8k instead of 23k
 * uplinks/s (apps/ingest README, "Device lookups"). Codecs keep `ttlMs`, at most CODEC_TTL_MS (30 s; their
 * edits are not announced). A found entry expires at a random point in the last tenth of its TTL, so entries cached
 * in the same second (a fleet at start-up) are not all looked up again in the same second.
 * Concurrent lookups of one key share one query. `invalidateDevice(id)` drops a device at once (in the
 * embedded platform the API calls it after a change), follow-changes.ts calls `applyDeviceChange` for each
 * change the database announces (PostgreSQL or PGlite), `invalidateAll()` drops everything. A lookup
 * that was already running when something was dropped answers its caller but is not cached: it may have
 * read the row before the change committed.
 */
import { createHash } from 'node:crypto';
import {
  type Db,
  findIngestCodec,
  findIngestCompany,
  findIngestDeviceByDevEui,
  findIngestDeviceByUuid,
  findIntegrationTokenByHash,
  type IngestCodec,
  type IngestCompany,
  type IngestDevice,
  type IngestIntegrationToken,
  saveTtsDownlinkRoute,
  type TtsDownlinkRoute,
  touchIntegrationToken,
} from '@iot/db';

export type { IngestCodec, IngestCompany, IngestDevice, IngestIntegrationToken };

/** A key a device is cached under: its uuid, and its DevEUI within its company. */
export interface DeviceKey {
  companyId: number;
  uuid: string | null;
  devEui: string | null;
}

/**
 * What PostgreSQL announces about a changed device (migration 0009, channel iot_device_changed): its
 * keys before and after the change (one set for a new or deleted device).
 */
export interface DeviceChange {
  id: number;
  keys: DeviceKey[];
}

export interface DeviceDirectoryOptions {
  ttlMs?: number;
  missTtlMs?: number;
  /** TTL of devices and tokens once their changes are announced (`changesAnnounced`); default 1 h. */
  announcedTtlMs?: number;
  /** Entries kept per kind at most; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
  /** integration_tokens.last_used_at is written at most once per this interval per token (default 60 s). */
  tokenUseIntervalMs?: number;
  /** Told when recording a token's use failed (the uplink is not affected). */
  onError?: (error: Error) => void;
}

interface Entry<T> {
  value: T | null;
  expires: number;
}

interface Load<T> {
  promise: Promise<T | null>;
  /** The key was dropped while this load ran: answer the callers, cache nothing. */
  stale: boolean;
}

/**
 * Longest a codec stays cached (issue #23): edits are not announced, so an edited codec decodes the next
 * uplinks in every ingest process (both profiles) within this time, and a suspension reaches them as well.
 */
export const CODEC_TTL_MS = 30_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEV_EUI = /^[0-9a-f]{16}$/;

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A DevEUI in the form devices.dev_eui stores it (lower-case hex), or null when it is not one. */
export function normalizeDevEui(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const hex = value.replace(/[-:\s]/g, '').toLowerCase();
  return DEV_EUI.test(hex) ? hex : null;
}

class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Load<T>>();
  /** Bumped by every invalidation: loads started before it must not be cached. */
  private generation = 0;

  constructor(
    private ttlMs: number,
    private readonly missTtlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get ttl(): number {
    return this.ttlMs;
  }

  /** Entries cached from now on live this long (those cached before keep their expiry). */
  setTtl(ms: number): void {
    this.ttlMs = ms;
  }

  async get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    const waiting = this.pending.get(key);
    if (waiting) return waiting.promise;
    const generation = this.generation;
    const loading: Load<T> = { promise: Promise.resolve(null), stale: false };
    loading.promise = load().then(
      (value) => {
        if (this.pending.get(key) === loading) this.pending.delete(key);
        if (!loading.stale && generation === this.generation) this.set(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.pending.get(key) === loading) this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, loading);
    return loading.promise;
  }

  /** The cached value of a key without a lookup: undefined when not cached or expired. */
  peek(key: string): T | null | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > this.now() ? hit.value : undefined;
  }

  private set(key: string, value: T | null): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    // A found entry expires somewhere in the last tenth of its TTL (see the module comment).
    const ttl = value === null ? this.missTtlMs : this.ttlMs * (0.9 + 0.1 * Math.random());
    this.entries.set(key, { value, expires: this.now() + ttl });
  }

  deleteWhere(match: (value: T) => boolean): void {
    this.forgetLoads();
    for (const [key, entry] of this.entries)
      if (entry.value !== null && match(entry.value)) this.entries.delete(key);
  }

  /** Drops one key, a cached miss included; a lookup of it still running will not be cached. */
  delete(key: string): void {
    const running = this.pending.get(key);
    if (running) {
      running.stale = true;
      this.pending.delete(key);
    }
    this.entries.delete(key);
  }

  clear(): void {
    this.forgetLoads();
    this.entries.clear();
  }

  /** Lookups from now on query again instead of joining one that may have read the old row. */
  private forgetLoads(): void {
    this.generation += 1;
    this.pending.clear();
  }
}

export class DeviceDirectory {
  private readonly byUuid: TtlCache<IngestDevice>;
  private readonly byDevEui: TtlCache<IngestDevice>;
  private readonly tokens: TtlCache<IngestIntegrationToken>;
  private readonly codecs: TtlCache<IngestCodec>;
  /** Whether a company may send and its uplinks-per-minute limit (issue #27), by company id. */
  private readonly companies: TtlCache<IngestCompany>;
  /** When this process last wrote last_used_at per token id. */
  private readonly tokenUseWritten = new Map<number, number>();
  /** The TTS downlink route last saved per device id by this process, as `url\nkey`. */
  private readonly ttsRoutesWritten = new Map<number, string>();
  private readonly tokenUseIntervalMs: number;
  private readonly announcedTtlMs: number;
  /** The TTL without announcements (`ttlMs`). */
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;

  constructor(
    private readonly db: Db,
    options: DeviceDirectoryOptions = {},
  ) {
    const ttl = options.ttlMs ?? 30_000;
    const missTtl = options.missTtlMs ?? 5_000;
    const max = options.maxEntries ?? 100_000;
    const now = options.now ?? Date.now;
    this.byUuid = new TtlCache(ttl, missTtl, max, now);
    this.byDevEui = new TtlCache(ttl, missTtl, max, now);
    this.tokens = new TtlCache(ttl, missTtl, max, now);
    // A codec's edit (or its suspension) reaches every process within CODEC_TTL_MS, whatever the TTL of devices.
    this.codecs = new TtlCache(Math.min(ttl, CODEC_TTL_MS), missTtl, 1_000, now);
    this.companies = new TtlCache(ttl, missTtl, max, now);
    this.announcedTtlMs = options.announcedTtlMs ?? 3_600_000;
    this.ttlMs = ttl;
    this.tokenUseIntervalMs = options.tokenUseIntervalMs ?? 60_000;
    this.now = now;
    this.onError = options.onError ?? (() => {});
  }

  /** The device a uuid names; null for an unknown or malformed uuid. */
  deviceByUuid(uuid: string): Promise<IngestDevice | null> {
    if (!isUuid(uuid)) return Promise.resolve(null);
    const key = uuid.toLowerCase();
    return this.byUuid.get(key, () => findIngestDeviceByUuid(this.db, key));
  }

  /**
   * The device a uuid names when the cache can answer without a lookup (the hot path of the MQTT front
   * door): undefined when it cannot (not cached, expired, or not in the cached form), then
   * `deviceByUuid` answers. Only well-formed lower-case uuids are ever cached.
   */
  cachedDeviceByUuid(uuid: string): IngestDevice | null | undefined {
    return this.byUuid.peek(uuid);
  }

  /** A LoRaWAN device within the company of the integration token. */
  deviceByDevEui(companyId: number, devEui: string): Promise<IngestDevice | null> {
    return this.byDevEui.get(`${companyId}:${devEui}`, () =>
      findIngestDeviceByDevEui(this.db, companyId, devEui),
    );
  }

  /** The live integration token with this value (looked up by its sha-256). */
  integrationToken(token: string): Promise<IngestIntegrationToken | null> {
    const hash = sha256Hex(token);
    return this.tokens.get(hash, () => findIntegrationTokenByHash(this.db, hash));
  }

  /**
   * An integration token authenticated a request: integration_tokens.last_used_at is set, at most once per
   * `tokenUseIntervalMs` per token from this process (and the database skips the write when another
   * process wrote within that interval), never one write per uplink. Does not wait for the write.
   * Resolves when the write (if any) is done, for tests.
   */
  integrationTokenUsed(token: IngestIntegrationToken): Promise<void> {
    const now = this.now();
    const last = this.tokenUseWritten.get(token.id);
    if (last !== undefined && now - last < this.tokenUseIntervalMs) return Promise.resolve();
    this.tokenUseWritten.set(token.id, now);
    return touchIntegrationToken(this.db, token.id, Math.floor(this.tokenUseIntervalMs / 1000)).catch(
      (error: unknown) => {
        // Try again with the next use.
        if (this.tokenUseWritten.get(token.id) === now) this.tokenUseWritten.delete(token.id);
        this.onError(error as Error);
      },
    );
  }

  /**
   * A TTS webhook named where the device's downlinks go (migration 0022): saved when it differs from what
   * this process saved last for the device, so a steady webhook costs one write per device and process
   * start, not one per uplink. Does not wait for the write; resolves when it is done, for tests.
   */
  ttsDownlinkRoute(device: IngestDevice, route: TtsDownlinkRoute): Promise<void> {
    const seen = `${route.pushUrl}\n${route.apiKey}`;
    if (this.ttsRoutesWritten.get(device.id) === seen) return Promise.resolve();
    this.ttsRoutesWritten.set(device.id, seen);
    return saveTtsDownlinkRoute(this.db, device.companyId, device.id, route).catch((error: unknown) => {
      // Try again with the next uplink.
      if (this.ttsRoutesWritten.get(device.id) === seen) this.ttsRoutesWritten.delete(device.id);
      this.onError(error as Error);
    });
  }

  /** A company's codec (script and suspension), cached at most CODEC_TTL_MS; null when it has none such. */
  codec(companyId: number, codecId: number): Promise<IngestCodec | null> {
    return this.codecs.get(`${companyId}:${codecId}`, () => findIngestCodec(this.db, companyId, codecId));
  }

  /** Drops a codec at once (this process suspended it: the next lookup reads the suspension). */
  invalidateCodec(companyId: number, codecId: number): void {
    this.codecs.delete(`${companyId}:${codecId}`);
  }

  /** The company of a device as the accept path needs it (blocked or deleted, uplink limit). */
  company(companyId: number): Promise<IngestCompany | null> {
    return this.companies.get(String(companyId), () => findIngestCompany(this.db, companyId));
  }

  /** The company when cached (the MQTT hot path); undefined when a lookup is needed. */
  cachedCompany(companyId: number): IngestCompany | null | undefined {
    return this.companies.peek(String(companyId));
  }

  /** A company was blocked, unblocked, deleted or got other limits: looked up again on its next uplink. */
  invalidateCompany(companyId: number): void {
    this.companies.delete(String(companyId));
  }

  /** The device's own token checked against devices.credentials_hash (sha-256 hex). */
  static checkDeviceToken(device: IngestDevice, token: string): boolean {
    return device.credentialsHash !== null && device.credentialsHash === sha256Hex(token);
  }

  invalidateDevice(id: number): void {
    this.byUuid.deleteWhere((device) => device.id === id);
    this.byDevEui.deleteWhere((device) => device.id === id);
  }

  /**
   * A device changed, appeared or went (as announced by PostgreSQL, see follow-changes.ts): drops the
   * entries under its keys before and after the change, a cached "unknown" for a new uuid or DevEUI
   * included, by key (no scan of the cache: a bulk import announces thousands of devices).
   */
  applyDeviceChange(change: DeviceChange): void {
    for (const key of change.keys) {
      if (key.uuid) this.byUuid.delete(key.uuid.toLowerCase());
      if (key.devEui) this.byDevEui.delete(`${key.companyId}:${key.devEui}`);
    }
  }

  /** An integration token was revoked or deleted. */
  invalidateIntegrationToken(id: number): void {
    this.tokens.deleteWhere((token) => token.id === id);
  }

  /**
   * From now on the database announces every change of a cached device or token (follow-changes.ts
   * listens): they are kept `announcedTtlMs`. Codec scripts keep the short TTL.
   */
  changesAnnounced(): void {
    this.companies.setTtl(this.announcedTtlMs);
    this.byUuid.setTtl(this.announcedTtlMs);
    this.byDevEui.setTtl(this.announcedTtlMs);
    this.tokens.setTtl(this.announcedTtlMs);
  }

  /**
   * The announcements stopped (the listening connection was lost): what is cached may have missed a
   * change, so it all goes, and until `changesAnnounced` again devices and tokens keep the short TTL.
   */
  changesUnannounced(): void {
    this.invalidateAll();
    this.companies.setTtl(this.ttlMs);
    this.byUuid.setTtl(this.ttlMs);
    this.byDevEui.setTtl(this.ttlMs);
    this.tokens.setTtl(this.ttlMs);
  }

  /** How long a device found now stays cached at most (ms). */
  get deviceTtlMs(): number {
    return this.byUuid.ttl;
  }

  invalidateAll(): void {
    this.byUuid.clear();
    this.byDevEui.clear();
    this.tokens.clear();
    this.codecs.clear();
    this.companies.clear();
  }
}
