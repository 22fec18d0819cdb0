/**
 * Runs a simulated fleet against a running platform: `rate` uplinks per second in total, spread evenly over
 * time and round-robin over the devices, each device sending over its own MQTT connection or HTTP.
 */
import { seededRandom } from '@iot/demo-data';
import {
  applyDownlink,
  buildUplink,
  type DeviceProfile,
  type DeviceState,
  profileOf,
  type SimDevice,
  type Uplink,
} from './build-uplink.js';
import { fetchDeviceCredentials } from './fetch-device-credentials.js';
import {
  type DeviceSender,
  HttpSender,
  MqttSender,
  NEW_TOKEN_GRACE_MS,
  type SendOutcome,
} from './transports.js';

export type Transport = 'mqtt' | 'http' | 'mixed';

export interface SimulationOptions {
  /** Number of devices (the first `devices` of the signed-in company, or of `fleet`). */
  devices: number;
  /** Uplinks per second in total. */
  rate: number;
  /** API base URL, for the credential flow. Default http://localhost:8080. */
  url?: string;
  /** Ingest HTTP base URL. Default: `url` with its port + 1 (ingest's default INGEST_PORT). */
  ingestUrl?: string;
  mqttUrl?: string;
  /** mixed: even-numbered devices over MQTT, odd over HTTP. Default mqtt. */
  transport?: Transport;
  email?: string;
  password?: string;
  /** Stop after this many seconds; default: until aborted. */
  durationSeconds?: number;
  signal?: AbortSignal;
  /** Devices with known tokens: the API credential flow is skipped. */
  fleet?: SimDevice[];
  /** Unacknowledged uplinks per device before it waits (MQTT in-flight window, HTTP requests). Default 8. */
  window?: number;
  progressEveryMs?: number;
  onProgress?: (stats: SimulationStats) => void;
  /** Called once with the devices before sending starts (the CLI prints them). */
  onReady?: (devices: SimDevice[]) => void;
  onWarning?: (message: string) => void;
}

export interface SimulationStats {
  devices: number;
  /** Uplinks handed to a transport. */
  sent: number;
  /** Acknowledged: MQTT PUBACK, HTTP 202. */
  accepted: number;
  refused: number;
  /** 503 answers whose Retry-After the device waited out before sending the same uplink again. */
  retryAfterWaits: number;
  /**
   * 401 answers to a just-issued token (ingest caches device lookups for 30 s): the device waited 5 s and
   * sent the same uplink again.
   */
  newTokenWaits: number;
  /** Uplinks still waiting for a resend when the run ended (neither accepted nor refused). */
  unsent: number;
  /** Slots skipped because every device's window was full (back-pressure). */
  backPressureSkips: number;
  elapsedSeconds: number;
  /** Accepted per second since the previous report (over the whole run in the summary). */
  rate: number;
  refusedBy: Record<string, number>;
}

interface SimulatedDevice {
  device: SimDevice;
  profile: DeviceProfile;
  state: DeviceState;
  sender: DeviceSender;
  /** Not before this time (Retry-After). */
  pausedUntil: number;
  /** Uplinks refused with 503 (or 401 within the new-token grace), sent again once the pause is over. */
  resend: Uplink[];
  dead: boolean;
}

/** Stands in for an MQTT connection that is not up yet. */
const NOT_CONNECTED: DeviceSender = {
  busy: () => true,
  send: async () => ({ kind: 'refused', reason: 'mqtt not connected' }),
  close: async () => {},
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

function defaultIngestUrl(apiUrl: string): string {
  const url = new URL(apiUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  url.port = String(port + 1);
  return url.origin;
}

/** Opens connections a few at a time: a thousand simultaneous CONNECTs would only time out. */
async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationStats> {
  if (!(options.rate > 0)) throw new RangeError('rate must be above 0 uplinks per second');
  if (!(options.devices > 0)) throw new RangeError('devices must be at least 1');
  const controller = new AbortController();
  const stopAll = () => controller.abort();
  options.signal?.addEventListener('abort', stopAll, { once: true });
  if (options.signal?.aborted) controller.abort();
  const signal = controller.signal;
  const warn = options.onWarning ?? (() => {});
  const url = options.url ?? 'http://localhost:8080';
  const ingestUrl = (options.ingestUrl ?? defaultIngestUrl(url)).replace(/\/$/, '');
  const mqttUrl = options.mqttUrl ?? 'mqtt://localhost:1883';
  const transport = options.transport ?? 'mqtt';
  const window = options.window ?? 8;

  let fleet = options.fleet?.slice(0, options.devices);
  if (!fleet) {
    const fetched = await fetchDeviceCredentials({
      url,
      email: options.email ?? 'main@demo.test',
      password: options.password ?? 'DemoPass#2026',
      count: options.devices,
      signal,
    });
    fleet = fetched.devices;
    if (fetched.skipped.length > 0) {
      const drivers = [...new Set(fetched.skipped.map((d) => d.driver_id))].join(', ');
      warn(
        `${fetched.skipped.length} devices passed over: their driver (${drivers}) is no built-in driver,` +
          ' so ingest would keep their uplinks undecoded in the device log',
      );
    }
  }
  if (fleet.length < options.devices) {
    warn(`only ${fleet.length} devices available, ${options.devices} asked for`);
  }
  options.onReady?.(fleet);

  const stats: SimulationStats = {
    devices: fleet.length,
    sent: 0,
    accepted: 0,
    refused: 0,
    retryAfterWaits: 0,
    newTokenWaits: 0,
    unsent: 0,
    backPressureSkips: 0,
    elapsedSeconds: 0,
    rate: 0,
    refusedBy: {},
  };
  const refuse = (reason: string) => {
    stats.refused += 1;
    stats.refusedBy[reason] = (stats.refusedBy[reason] ?? 0) + 1;
  };

  const startedAt = Date.now();
  const graceUntil = startedAt + NEW_TOKEN_GRACE_MS;
  // Every device gets an entry at once; MQTT devices stay busy until their connection is up, so one slow
  // or refused connection (a just-issued token, see NEW_TOKEN_GRACE_MS) does not hold the others back.
  const simulated: SimulatedDevice[] = fleet.map((device, i) => {
    const useMqtt = transport === 'mqtt' || (transport === 'mixed' && i % 2 === 0);
    return {
      device,
      profile: profileOf(device, i),
      state: { clicks: 0, startedAt, rnd: seededRandom(device.id) },
      pausedUntil: 0,
      resend: [],
      dead: false,
      sender: useMqtt ? NOT_CONNECTED : new HttpSender(ingestUrl, device, window, signal),
    };
  });
  const connecting = mapLimited(
    simulated.filter((entry) => entry.sender === NOT_CONNECTED),
    20,
    async (entry) => {
      try {
        // Devices that act on commands (the demo's cooling controller) report the new state afterwards.
        const onDownlink = entry.profile.kind.applyDownlink
          ? (payload: Buffer) => void applyDownlink(entry.profile, entry.state, payload)
          : undefined;
        const sender = await MqttSender.connect(
          mqttUrl,
          entry.device,
          window,
          signal,
          (reason) => {
            warn(`device ${entry.device.id}: ${reason}; it stops sending`);
            entry.dead = true;
          },
          onDownlink,
        );
        if (signal.aborted) await sender.close();
        else entry.sender = sender;
      } catch (error) {
        if (!signal.aborted) {
          warn(
            `device ${entry.device.id}: MQTT connect failed (${(error as Error).message}); it stops sending`,
          );
        }
        entry.dead = true;
      }
    },
  );

  const pending = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const onOutcome = (entry: SimulatedDevice, uplink: Uplink, outcome: SendOutcome) => {
    if (outcome.kind === 'accepted') stats.accepted += 1;
    else if (outcome.kind === 'refused' && outcome.reason === 'http 401' && Date.now() < graceUntil) {
      // A just-issued token that ingest's device cache does not know yet: wait and send again.
      stats.newTokenWaits += 1;
      entry.pausedUntil = Date.now() + 5000;
      entry.resend.push(uplink);
    } else if (outcome.kind === 'refused') refuse(outcome.reason);
    else {
      stats.retryAfterWaits += 1;
      entry.pausedUntil = Date.now() + outcome.seconds * 1000;
      entry.resend.push(uplink);
    }
  };

  let lastReport = { at: Date.now(), accepted: 0 };
  const report = setInterval(() => {
    const now = Date.now();
    stats.elapsedSeconds = (now - startedAt) / 1000;
    stats.rate = ((stats.accepted - lastReport.accepted) * 1000) / Math.max(1, now - lastReport.at);
    lastReport = { at: now, accepted: stats.accepted };
    options.onProgress?.({ ...stats, refusedBy: { ...stats.refusedBy } });
  }, options.progressEveryMs ?? 5000);

  const endAt = options.durationSeconds === undefined ? Infinity : startedAt + options.durationSeconds * 1000;
  const sendStart = Date.now();
  let scheduled = 0; // slots handed out so far
  let cursor = 0;
  // A tick often enough for the rate, but no busier than every 5 ms.
  const tickMs = Math.max(5, Math.min(250, 1000 / options.rate));
  try {
    while (!signal.aborted && Date.now() < endAt) {
      const now = Date.now();
      let due = Math.floor(((now - sendStart) * options.rate) / 1000) - scheduled;
      // After a stall do not burst more than a second's worth: the platform asked us to slow down.
      const maxDebt = Math.max(1, Math.ceil(options.rate));
      if (due > maxDebt) {
        stats.backPressureSkips += due - maxDebt;
        scheduled += due - maxDebt;
        due = maxDebt;
      }
      for (; due > 0; due -= 1) {
        let entry: SimulatedDevice | undefined;
        for (let tries = 0; tries < simulated.length; tries += 1) {
          const candidate = simulated[cursor % simulated.length];
          cursor += 1;
          if (candidate && !candidate.dead && !candidate.sender.busy() && candidate.pausedUntil <= now) {
            entry = candidate;
            break;
          }
        }
        if (!entry) break; // every device waits: the rest of this slot's uplinks wait for the next tick
        scheduled += 1;
        const chosen = entry;
        const resend = chosen.resend.shift();
        const uplink = resend ?? buildUplink(chosen.device, chosen.profile, chosen.state, now);
        if (!resend) stats.sent += 1; // a resend is the same uplink
        track(chosen.sender.send(uplink).then((outcome) => onOutcome(chosen, uplink, outcome)));
      }
      if (simulated.every((d) => d.dead)) {
        warn('no device can send any more');
        break;
      }
      await sleep(tickMs, signal);
    }
    // Wait (bounded) for the receipts of what was sent.
    const drainUntil = Date.now() + 10_000;
    while (pending.size > 0 && Date.now() < drainUntil)
      await Promise.race([...pending, sleep(100, new AbortController().signal)]);
  } finally {
    clearInterval(report);
    options.signal?.removeEventListener('abort', stopAll);
    controller.abort(); // ends HTTP requests still open and connection attempts
    await connecting;
    await Promise.all(simulated.map((d) => d.sender.close().catch(() => {})));
  }
  stats.unsent = simulated.reduce((sum, d) => sum + d.resend.length, 0);
  stats.elapsedSeconds = (Date.now() - startedAt) / 1000;
  stats.rate = stats.accepted / Math.max(0.001, (Date.now() - sendStart) / 1000);
  return stats;
}
