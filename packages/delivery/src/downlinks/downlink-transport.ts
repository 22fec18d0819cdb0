import mqtt from 'mqtt';

/**
 * Hands a downlink's bytes to the broker devices listen on. The embedded platform passes the aedes
 * broker's own publish (no network hop, no broker account); the distributed profile uses an mqtt.js
 * client to MQTT_URL. Resolves when the broker took the message (QoS 1 PUBACK for mqtt.js).
 */
export type DownlinkPublish = (topic: string, payload: Buffer) => Promise<void>;

export function downlinkTopic(deviceUuid: string): string {
  return `devices/${deviceUuid}/down`;
}

/** The aedes broker's publish as a DownlinkPublish (`aedes.publish(packet, callback)`). */
export function aedesPublish(broker: {
  publish(
    packet: { cmd: 'publish'; topic: string; payload: Buffer; qos: 0 | 1 | 2; retain: boolean; dup: boolean },
    callback: (error?: Error | null) => void,
  ): void;
}): DownlinkPublish {
  return (topic, payload) =>
    new Promise<void>((resolve, reject) => {
      broker.publish({ cmd: 'publish', topic, payload, qos: 1, retain: false, dup: false }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
}

export interface MqttDownlinkClient {
  publish: DownlinkPublish;
  close(): Promise<void>;
}

/** An mqtt.js client to an external broker (Mosquitto, EMQX) for downlinks, QoS 1. */
export async function connectMqttDownlinks(
  url: string,
  options: { clientId?: string; connectTimeoutMs?: number } = {},
): Promise<MqttDownlinkClient> {
  const client = await mqtt.connectAsync(url, {
    clientId: options.clientId ?? `notifier-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    connectTimeout: options.connectTimeoutMs ?? 5_000,
    reconnectPeriod: 1_000,
  });
  return {
    publish: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    close: () => client.endAsync(),
  };
}
