/**
 * Runs the devices' user codecs for ingest (issue #28, finding 3): in a pool of worker threads
 * (@iot/codecs CodecPool), never on the event loop that serves the front doors, and under the sandbox's
 * per-call budget (50 ms). A codec that runs past its budget STRIKES times within STRIKE_WINDOW_MS is
 * suspended (migration 0034, `suspendCodec`): its company gets a system message, the device a log entry,
 * and from then on its devices' uplinks are kept raw in the device log (a decode failure naming code 90100)
 * without calling it, in this process at once and in every other within the codec cache's 30 s. Saving the
 * codec again ends the suspension.
 */
import { CodecPool, type CodecPoolOptions, type DecodeResult } from '@iot/codecs';
import { type Db, suspendCodec } from '@iot/db';
import type { Logger } from '@iot/runtime';
import type { DeviceDirectory, IngestCodec, IngestDevice } from '../devices/device-directory.js';

/** Budget overruns within the window that suspend a codec: one may be a cold start, three are a pattern. */
export const STRIKES = 3;
export const STRIKE_WINDOW_MS = 60_000;

const suspendedError = (codecId: number) =>
  `codec ${codecId} is suspended (90100): it kept running past its time budget; saving the codec again resumes it`;

export interface CodecRunnerOptions {
  pool?: CodecPoolOptions;
  now?: () => number;
}

export class CodecRunner {
  private pool: CodecPool | undefined;
  /** Times of budget overruns per codec (and script: an edited codec starts afresh). */
  private readonly strikes = new Map<string, { script: string; times: number[] }>();
  /** Codecs this process suspended whose suspension it is still writing: their script. */
  private readonly suspending = new Map<string, string>();
  private readonly now: () => number;

  constructor(
    private readonly deps: { db: Db; directory: DeviceDirectory; log: Logger },
    private readonly options: CodecRunnerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  async decodeUplink(
    device: IngestDevice,
    codecId: number,
    codec: IngestCodec,
    input: { bytes: Uint8Array; fPort?: number | undefined; recvTime: Date },
  ): Promise<DecodeResult> {
    const key = `${device.companyId}:${codecId}`;
    if (codec.suspended || this.suspending.get(key) === codec.script)
      return { data: {}, warnings: [], errors: [suspendedError(codecId)] };
    this.pool ??= new CodecPool(this.options.pool);
    const { overBudget, ...result } = await this.pool.decodeUplink(
      { companyId: device.companyId, codecId: String(codecId), script: codec.script },
      {
        bytes: input.bytes,
        ...(input.fPort === undefined ? {} : { fPort: input.fPort }),
        recvTime: input.recvTime,
      },
    );
    if (overBudget) this.strike(key, device, codecId, codec.script, result.errors[0] ?? 'over budget');
    return result;
  }

  private strike(key: string, device: IngestDevice, codecId: number, script: string, error: string): void {
    const now = this.now();
    let entry = this.strikes.get(key);
    if (entry === undefined || entry.script !== script) {
      // Bounded: codecs that overran once long ago are forgotten first.
      if (this.strikes.size >= 10_000) this.strikes.delete(this.strikes.keys().next().value as string);
      entry = { script, times: [] };
      this.strikes.set(key, entry);
    }
    entry.times = entry.times.filter((time) => now - time < STRIKE_WINDOW_MS);
    entry.times.push(now);
    if (entry.times.length < STRIKES || this.suspending.has(key)) return;
    this.strikes.delete(key);
    this.suspending.set(key, script);
    // Its uplinks that wait for a thread are not run either.
    this.pool?.cancel(device.companyId, String(codecId), suspendedError(codecId));
    const reason = `${error}: ${STRIKES} times within ${STRIKE_WINDOW_MS / 1000} s`;
    const { db, directory, log } = this.deps;
    suspendCodec(db, { companyId: device.companyId, codecId, deviceId: device.id, reason }).then(
      (changed) => {
        log.warn(
          { companyId: device.companyId, codecId, deviceId: device.id, changed, reason },
          'codec suspended',
        );
        // The next lookup reads the suspension from the database, as every other process does.
        directory.invalidateCodec(device.companyId, codecId);
        if (this.suspending.get(key) === script) this.suspending.delete(key);
      },
      (err: unknown) =>
        // Stays suspended in this process; the next overruns in another process try the write again.
        log.error({ err, companyId: device.companyId, codecId }, 'suspending a codec failed'),
    );
  }

  async dispose(): Promise<void> {
    await this.pool?.dispose();
  }
}
