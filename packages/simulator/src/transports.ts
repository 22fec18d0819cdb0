/**
 * The two ways a simulated device sends: its own MQTT connection (username = device uuid, password = its
 * token, QoS 1 so the PUBACK is the receipt) and HTTP POST with its Bearer token. Both honour the
 * platform's back-pressure: MQTT through a bounded in-flight window (a PUBACK arrives only once the event
 * log accepted the uplink), HTTP through 503 + Retry-After.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { SimDevice, Uplink } from './build-uplink.js';

export type SendOutcome =
  | { kind: 'accepted' }
  | { kind: 'refused'; reason: string }
  | { kind: 'retry_after'; seconds: number };

export interface DeviceSender {
  /** Whether a send now would exceed the window (the caller then skips this device for now). */
  busy(): boolean;
  send(uplink: Uplink): Promise<SendOutcome>;
  close(): Promise<void>;
}

/**
 * How long a just-issued token may still be refused: ingest caches device lookups (credentials included)
 * for 30 s, and an API in another process cannot invalidate that cache.
 */
export const NEW_TOKEN_GRACE_MS = 35_000;

const isAuthRefusal = (error: unknown) => {
  const code = (error as { code?: number }).code;
  return code === 4 || code === 5 || code === 134 || code === 135;
};

async function connectWithGrace(
  url: string,
  options: mqtt.IClientOptions,
  signal: AbortSignal,
): Promise<MqttClient> {
  const until = Date.now() + NEW_TOKEN_GRACE_MS;
  for (;;) {
    try {
      return await mqtt.connectAsync(url, { ...options, reconnectPeriod: 0 }).then((client) => {
        // Reconnect on network trouble from here on; the first connect is retried by this loop.
        client.options.reconnectPeriod = options.reconnectPeriod ?? 2000;
        return client;
      });
    } catch (error) {
      if (!isAuthRefusal(error) || Date.now() > until || signal.aborted) throw error;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }
}

export class MqttSender implements DeviceSender {
  private inFlight = 0;
  private dead: string | null = null;

  private constructor(
    private readonly client: MqttClient,
    private readonly topic: string,
    private readonly window: number,
  ) {}

  static async connect(
    url: string,
    device: SimDevice,
    window: number,
    signal: AbortSignal,
    onDead: (reason: string) => void,
    /** Given, the device listens for its commands on devices/<uuid>/down, as a real one does. */
    onDownlink?: (payload: Buffer) => void,
  ): Promise<MqttSender> {
    const client = await connectWithGrace(
      url,
      {
        username: device.uuid,
        password: device.token,
        clientId: `sim-${device.uuid}-${process.pid}`,
        clean: true,
        reconnectPeriod: 2000,
        connectTimeout: 10_000,
      },
      signal,
    );
    const sender = new MqttSender(client, `devices/${device.uuid}/up`, window);
    client.on('error', (error) => {
      // Bad credentials after a restart or a rotation by someone else: reconnecting cannot help.
      if (isAuthRefusal(error)) {
        sender.dead = `connection refused (${error.message})`;
        onDead(sender.dead);
        client.end(true);
      }
    });
    if (onDownlink) {
      const down = `devices/${device.uuid}/down`;
      client.on('message', (topic, payload) => {
        if (topic === down) onDownlink(payload);
      });
      await client.subscribeAsync(down, { qos: 1 });
    }
    return sender;
  }

  busy(): boolean {
    return this.dead !== null || this.inFlight >= this.window;
  }

  get reason(): string | null {
    return this.dead;
  }

  async send(uplink: Uplink): Promise<SendOutcome> {
    if (this.dead) return { kind: 'refused', reason: 'mqtt refused' };
    this.inFlight += 1;
    try {
      await this.client.publishAsync(this.topic, Buffer.from(uplink.body), { qos: 1 });
      return { kind: 'accepted' };
    } catch (error) {
      return { kind: 'refused', reason: `mqtt ${(error as Error).message}` };
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {
    await this.client.endAsync(this.dead !== null);
  }
}

export class HttpSender implements DeviceSender {
  private inFlight = 0;

  constructor(
    private readonly ingestUrl: string,
    private readonly device: SimDevice,
    private readonly window: number,
    private readonly signal: AbortSignal,
  ) {}

  busy(): boolean {
    return this.inFlight >= this.window;
  }

  async send(uplink: Uplink): Promise<SendOutcome> {
    this.inFlight += 1;
    try {
      const response = await fetch(`${this.ingestUrl}/ingest/v1/uplinks/${this.device.uuid}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.device.token}`, 'content-type': uplink.contentType },
        // A copy typed on a plain ArrayBuffer, as fetch's BodyInit wants under the DOM typings too.
        body: new Uint8Array(uplink.body),
        signal: this.signal,
      });
      await response.arrayBuffer();
      if (response.status === 202) return { kind: 'accepted' };
      if (response.status === 503) {
        const seconds = Number(response.headers.get('retry-after') ?? '1');
        return { kind: 'retry_after', seconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 1 };
      }
      return { kind: 'refused', reason: `http ${response.status}` };
    } catch (error) {
      return { kind: 'refused', reason: `http ${(error as Error).name}` };
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {}
}
