/**
 * The company's say over its devices' uplinks (issue #27): a blocked or deleted company's uplinks are
 * refused, and a company's uplinks beyond its `max_uplinks_per_minute` are refused until the next
 * minute starts. Checked before an uplink is decoded or handed to the log, so a refused uplink leaves
 * nothing behind. Cheap per uplink: the company comes from the device directory's cache (one lookup per
 * company, dropped when the database announces a change), the count is a counter per company and
 * minute in memory. Each ingest process counts the uplinks it receives, so with N processes sharing the
 * uplinks a company may get up to N times its limit through: the limit protects the platform from a
 * runaway fleet, it is not billing.
 *
 * Every refusal is counted (`refused`, by reason and by company) and logged, at most once per company,
 * reason and minute with the count so far, so a flood does not flood the log.
 */
import type { Logger } from '@iot/runtime';
import type { IngestCompany } from '../devices/device-directory.js';

export type UplinkRefusal = 'company_blocked' | 'company_deleted' | 'rate_limited';

interface Window {
  minute: number;
  count: number;
}

export interface UplinkGateStats {
  /** Refusals since start, by reason. */
  refused: Record<UplinkRefusal, number>;
  /** Refusals since start, by company id and reason. */
  byCompany: Map<number, Partial<Record<UplinkRefusal, number>>>;
}

const MINUTE_MS = 60_000;

export class UplinkGate {
  private readonly windows = new Map<number, Window>();
  /** The minute each company and reason was last logged in. */
  private readonly logged = new Map<string, number>();
  readonly stats: UplinkGateStats = {
    refused: { company_blocked: 0, company_deleted: 0, rate_limited: 0 },
    byCompany: new Map(),
  };

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether an uplink of the company may pass; a passing uplink counts against the minute's limit. A
   * company that is not found (purged) counts as deleted.
   */
  admit(companyId: number, company: IngestCompany | null): UplinkRefusal | null {
    if (!company || company.refusal === 'deleted') return 'company_deleted';
    if (company.refusal === 'blocked') return 'company_blocked';
    const limit = company.uplinksPerMinute;
    if (limit === null) return null;
    const minute = Math.floor(this.now() / MINUTE_MS);
    let window = this.windows.get(companyId);
    if (!window || window.minute !== minute) {
      window = { minute, count: 0 };
      this.windows.set(companyId, window);
    }
    if (window.count >= limit) return 'rate_limited';
    window.count += 1;
    return null;
  }

  /** Seconds until the next minute starts (Retry-After of a rate-limited uplink). */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((MINUTE_MS - (this.now() % MINUTE_MS)) / 1000));
  }

  /** Counts and logs a refusal (`door`: which front door refused it). */
  refused(reason: UplinkRefusal, device: { id: number | null; companyId: number }, door: string): void {
    this.stats.refused[reason] += 1;
    const perCompany = this.stats.byCompany.get(device.companyId) ?? {};
    perCompany[reason] = (perCompany[reason] ?? 0) + 1;
    this.stats.byCompany.set(device.companyId, perCompany);
    const minute = Math.floor(this.now() / MINUTE_MS);
    const key = `${device.companyId}:${reason}`;
    if (this.logged.get(key) === minute) return;
    this.logged.set(key, minute);
    this.log.warn(
      {
        companyId: device.companyId,
        deviceId: device.id,
        door,
        reason,
        refusedSoFar: perCompany[reason],
      },
      reason === 'rate_limited'
        ? 'uplink refused: the company is over its uplinks per minute'
        : 'uplink refused: the company is blocked or deleted',
    );
  }
}
